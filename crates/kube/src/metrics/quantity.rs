//! Kubernetes resource quantities (`12345678n`, `250m`, `45678Ki`, `1.5Gi`, `1e3`) read as
//! numbers: CPU in nanocores, memory in bytes, and [`Usage`], their sum. Owns the arithmetic
//! of quantities; must not format them (the table crate's `quantity` owns the text form).

use std::ops::Add;

/// What one object used over a sample's window: the `usage` map of a NodeMetrics or of one
/// PodMetrics container (`usage.cpu`, `usage.memory`). Adding saturates.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    /// `usage.cpu` in nanocores (1 core = 1,000,000,000), rounded up as Kubernetes rounds.
    pub cpu_nanos: u64,
    /// `usage.memory` in bytes (metrics-server: the working set), rounded up.
    pub memory_bytes: u64,
}

impl Add for Usage {
    type Output = Usage;
    fn add(self, other: Usage) -> Usage {
        Usage {
            cpu_nanos: self.cpu_nanos.saturating_add(other.cpu_nanos),
            memory_bytes: self.memory_bytes.saturating_add(other.memory_bytes),
        }
    }
}

impl std::iter::Sum for Usage {
    fn sum<I: Iterator<Item = Usage>>(iter: I) -> Usage {
        iter.fold(Usage::default(), Add::add)
    }
}

/// A CPU quantity (`usage.cpu`: `12345678n`, `250m`, `2`, `1.5`, `1e-3`) in nanocores, rounded
/// up to a whole nanocore. `None` for anything that is not a quantity, a negative one, or one
/// past `u64::MAX` nanocores.
pub fn parse_cpu_nanos(s: &str) -> Option<u64> {
    parse_scaled(s, 9)
}

/// A memory quantity (`usage.memory`: `45678Ki`, `1Gi`, `128974848`, `129e6`, `1.5M`) in
/// bytes, rounded up to a whole byte. `None` for anything that is not a quantity, a negative
/// one, or one past `u64::MAX` bytes.
pub fn parse_bytes(s: &str) -> Option<u64> {
    parse_scaled(s, 0)
}

/// The quantity `s` times `10^shift`, rounded up (`shift` 9: nanounits).
fn parse_scaled(s: &str, shift: i32) -> Option<u64> {
    let q = Quantity::parse(s)?;
    q.ceil_times_pow10(shift)
}

/// A parsed quantity: `digits × 10^exp10 × 1024^bin`, non-negative.
#[derive(Debug, PartialEq, Eq)]
struct Quantity {
    digits: u128,
    exp10: i32,
    bin: u32,
}

/// The most decimal digits kept of a number (more fit no `u64` result anyway, except as
/// zeros: trailing fraction digits past it are rounded up into the last kept one).
const MAX_DIGITS: usize = 36;

impl Quantity {
    /// Reads `<sign><digits>[.<digits>]<suffix>` as Kubernetes' `ParseQuantity` does: the
    /// suffix is a decimal SI one (`n u m k M G T P E`), a binary SI one (`Ki Mi Gi Ti Pi Ei`)
    /// or a decimal exponent (`e3`, `E-2`); no whitespace.
    fn parse(s: &str) -> Option<Quantity> {
        let (negative, rest) = match s.as_bytes().first()? {
            b'-' => (true, &s[1..]),
            b'+' => (false, &s[1..]),
            _ => (false, s),
        };
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let (number, suffix) = rest.split_at(end);
        let (int, frac) = number.split_once('.').unwrap_or((number, ""));
        if (int.is_empty() && frac.is_empty()) || frac.contains('.') {
            return None;
        }
        let (exp10, bin) = suffix_scale(suffix)?;
        let mut digits: u128 = 0;
        let mut kept = 0usize;
        let mut exp10 = exp10;
        let mut dropped_nonzero = false;
        for (i, c) in int.bytes().chain(frac.bytes()).enumerate() {
            let d = u128::from(c - b'0');
            let in_frac = i >= int.len();
            if digits == 0 && d == 0 {
                // Leading zeros carry no digits.
                if in_frac {
                    exp10 = exp10.checked_sub(1)?;
                }
                continue;
            }
            if kept < MAX_DIGITS {
                digits = digits * 10 + d;
                kept += 1;
                if in_frac {
                    exp10 = exp10.checked_sub(1)?;
                }
            } else if in_frac {
                dropped_nonzero |= d != 0;
            } else {
                // An integer part longer than MAX_DIGITS: scale instead of storing.
                exp10 = exp10.checked_add(1)?;
                dropped_nonzero |= d != 0;
            }
        }
        if negative && digits != 0 {
            return None;
        }
        if dropped_nonzero {
            // Rounding up: the dropped digits only ever make the value larger.
            digits += 1;
        }
        Some(Quantity { digits, exp10, bin })
    }

    /// `ceil(self × 10^shift)` when it fits a `u64`.
    fn ceil_times_pow10(&self, shift: i32) -> Option<u64> {
        if self.digits == 0 {
            return Some(0);
        }
        let mut value = self.digits;
        for _ in 0..self.bin {
            value = value.checked_mul(1024)?;
        }
        let exp = self.exp10.checked_add(shift)?;
        let value = if exp >= 0 {
            value.checked_mul(10u128.checked_pow(exp.unsigned_abs())?)?
        } else {
            match 10u128.checked_pow(exp.unsigned_abs()) {
                Some(div) => value.div_ceil(div),
                // Smaller than any whole unit, but not zero: rounds up to one.
                None => 1,
            }
        };
        u64::try_from(value).ok()
    }
}

/// The scale a suffix stands for: (power of ten, power of 1024).
fn suffix_scale(suffix: &str) -> Option<(i32, u32)> {
    Some(match suffix {
        "" => (0, 0),
        "n" => (-9, 0),
        "u" => (-6, 0),
        "m" => (-3, 0),
        "k" => (3, 0),
        "M" => (6, 0),
        "G" => (9, 0),
        "T" => (12, 0),
        "P" => (15, 0),
        "E" => (18, 0),
        "Ki" => (0, 1),
        "Mi" => (0, 2),
        "Gi" => (0, 3),
        "Ti" => (0, 4),
        "Pi" => (0, 5),
        "Ei" => (0, 6),
        _ => {
            let exp = suffix.strip_prefix('e').or_else(|| suffix.strip_prefix('E'))?;
            let digits = exp.strip_prefix(['+', '-']).unwrap_or(exp);
            if digits.is_empty() || digits.len() > 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            (exp.parse().ok()?, 0)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_in_every_decimal_suffix() {
        assert_eq!(parse_cpu_nanos("12345678n"), Some(12_345_678));
        assert_eq!(parse_cpu_nanos("250u"), Some(250_000));
        assert_eq!(parse_cpu_nanos("250m"), Some(250_000_000));
        assert_eq!(parse_cpu_nanos("2"), Some(2_000_000_000));
        assert_eq!(parse_cpu_nanos("1k"), Some(1_000_000_000_000));
        assert_eq!(parse_cpu_nanos("1M"), Some(10u64.pow(15)));
        assert_eq!(parse_cpu_nanos("1G"), Some(10u64.pow(18)));
        // 10^21 nanocores is past u64.
        assert_eq!(parse_cpu_nanos("1T"), None);
        assert_eq!(parse_cpu_nanos("0"), Some(0));
        assert_eq!(parse_cpu_nanos("0m"), Some(0));
    }

    #[test]
    fn memory_in_every_suffix() {
        assert_eq!(parse_bytes("45678Ki"), Some(45_678 * 1024));
        assert_eq!(parse_bytes("1Ki"), Some(1 << 10));
        assert_eq!(parse_bytes("1Mi"), Some(1 << 20));
        assert_eq!(parse_bytes("1Gi"), Some(1 << 30));
        assert_eq!(parse_bytes("1Ti"), Some(1 << 40));
        assert_eq!(parse_bytes("1Pi"), Some(1 << 50));
        assert_eq!(parse_bytes("1Ei"), Some(1 << 60));
        assert_eq!(parse_bytes("16Ei"), None, "2^64 is past u64");
        assert_eq!(parse_bytes("128974848"), Some(128_974_848));
        assert_eq!(parse_bytes("1k"), Some(1_000));
        assert_eq!(parse_bytes("1M"), Some(1_000_000));
        assert_eq!(parse_bytes("1G"), Some(1_000_000_000));
        assert_eq!(parse_bytes("1T"), Some(10u64.pow(12)));
        assert_eq!(parse_bytes("1P"), Some(10u64.pow(15)));
        assert_eq!(parse_bytes("1E"), Some(10u64.pow(18)));
        assert_eq!(parse_bytes("1500m"), Some(2), "rounded up to a whole byte");
        assert_eq!(parse_bytes("1n"), Some(1));
        assert_eq!(parse_bytes("1u"), Some(1));
    }

    #[test]
    fn decimals_round_up() {
        assert_eq!(parse_bytes("1.5Gi"), Some(3 << 29));
        assert_eq!(parse_bytes("0.5Ki"), Some(512));
        assert_eq!(parse_bytes(".5Ki"), Some(512));
        assert_eq!(parse_bytes("1.Ki"), Some(1024));
        assert_eq!(parse_cpu_nanos("1.5"), Some(1_500_000_000));
        assert_eq!(parse_cpu_nanos("0.1m"), Some(100_000));
        assert_eq!(parse_cpu_nanos("1.0000000001"), Some(1_000_000_001), "ceil");
        assert_eq!(parse_cpu_nanos("0.5n"), Some(1), "ceil to a whole nanocore");
        assert_eq!(parse_cpu_nanos("+0.25"), Some(250_000_000));
        assert_eq!(parse_cpu_nanos("000250m"), Some(250_000_000));
        // More digits than kept: what is dropped only rounds up.
        let long = format!("1.{}1", "0".repeat(60));
        assert_eq!(parse_cpu_nanos(&long), Some(1_000_000_001));
        let tiny = format!("0.{}1", "0".repeat(60));
        assert_eq!(parse_bytes(&tiny), Some(1));
        let huge = format!("1{}", "0".repeat(40));
        assert_eq!(parse_bytes(&huge), None);
    }

    #[test]
    fn exponents() {
        assert_eq!(parse_bytes("1e3"), Some(1_000));
        assert_eq!(parse_bytes("129e6"), Some(129_000_000));
        assert_eq!(parse_bytes("1E3"), Some(1_000));
        assert_eq!(parse_bytes("1e+3"), Some(1_000));
        assert_eq!(parse_cpu_nanos("1e-3"), Some(1_000_000));
        assert_eq!(parse_cpu_nanos("1.5e-3"), Some(1_500_000));
        assert_eq!(parse_cpu_nanos("5e-12"), Some(1), "ceil");
        assert_eq!(parse_bytes("1e30"), None);
        assert_eq!(parse_bytes("0e99"), Some(0));
    }

    #[test]
    fn garbage_is_none() {
        for s in [
            "", " 1", "1 ", "abc", "1x", "1KiB", "1ki", "1mi", "1e", "1e+", "1e1.5", "1.2.3", ".", "+", "-",
            "--1", "1-", "-1", "-250m", "Ki", "1Kii", "0x10", "1,5", "1_000", "１", "1e99999", "NaN", "inf",
        ] {
            assert_eq!(parse_bytes(s), None, "{s:?}");
            assert_eq!(parse_cpu_nanos(s), None, "{s:?}");
        }
        assert_eq!(parse_bytes("-0"), Some(0));
    }

    #[test]
    fn usage_adds_and_saturates() {
        let a = Usage {
            cpu_nanos: 1,
            memory_bytes: 2,
        };
        let max = Usage {
            cpu_nanos: u64::MAX,
            memory_bytes: u64::MAX,
        };
        assert_eq!(
            [a, a, a].into_iter().sum::<Usage>(),
            Usage {
                cpu_nanos: 3,
                memory_bytes: 6
            }
        );
        assert_eq!(a + max, max);
    }
}
