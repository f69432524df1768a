//! Resource quantities for the demo's metrics: reading a pod's requests and limits (`100m`,
//! `1.5`, `2Gi`, `1e3`) as numbers, and printing usage the way metrics-server's quantities
//! print (apimachinery's canonical form: CPU `12345678n`, `250m`, `2`; memory `45678Ki`,
//! `2Mi`). The demo's own arithmetic, independent of the client's parser on purpose; must not
//! know pods or HTTP.

/// Decimal suffixes and their powers of ten.
const DECIMAL: [(&str, i32); 9] = [
    ("n", -9),
    ("u", -6),
    ("m", -3),
    ("", 0),
    ("k", 3),
    ("M", 6),
    ("G", 9),
    ("T", 12),
    ("P", 15),
];

/// Binary suffixes and their powers of 1024.
const BINARY: [(&str, i32); 6] = [("Ki", 1), ("Mi", 2), ("Gi", 3), ("Ti", 4), ("Pi", 5), ("Ei", 6)];

/// The value of a quantity in base units (cores, bytes), `None` when it does not parse.
pub fn parse(text: &str) -> Option<f64> {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '+' || c == '-'))
        .unwrap_or(text.len());
    let (number, suffix) = text.split_at(split);
    let n: f64 = number.parse().ok()?;
    let scale = if let Some(&(_, p)) = BINARY.iter().find(|(s, _)| *s == suffix) {
        1024f64.powi(p)
    } else if let Some(&(_, p)) = DECIMAL.iter().find(|(s, _)| *s == suffix) {
        10f64.powi(p)
    } else if suffix == "E" {
        1e18
    } else {
        let exp = suffix.strip_prefix(['e', 'E'])?;
        10f64.powi(exp.parse::<i32>().ok()?)
    };
    let v = n * scale;
    (v.is_finite() && v >= 0.0).then_some(v)
}

/// A CPU quantity in nanocores (`100m` → 100,000,000).
pub fn cpu_nanos(text: &str) -> Option<u64> {
    parse(text).map(|cores| (cores * 1e9).round() as u64)
}

/// A memory quantity in bytes (`128Mi` → 134,217,728).
pub fn bytes(text: &str) -> Option<u64> {
    parse(text).map(|b| b.round() as u64)
}

/// Nanocores as metrics-server prints them: the largest decimal suffix that keeps an integer
/// (`12345678n`, `12m`, `2`).
pub fn cpu_text(nanos: u64) -> String {
    if nanos == 0 {
        return "0".into();
    }
    let (mut v, mut i) = (nanos, 0);
    while i + 1 < DECIMAL.len() && v.is_multiple_of(1000) {
        v /= 1000;
        i += 1;
    }
    format!("{v}{}", DECIMAL[i].0)
}

/// Bytes as metrics-server prints them: the largest binary suffix that keeps an integer
/// (`45678Ki`, `2Mi`), plain bytes when none does.
pub fn memory_text(bytes: u64) -> String {
    if bytes == 0 {
        return "0".into();
    }
    let (mut v, mut suffix) = (bytes, "");
    for (s, _) in BINARY {
        if !v.is_multiple_of(1024) {
            break;
        }
        v /= 1024;
        suffix = s;
    }
    format!("{v}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_suffix_and_form() {
        assert_eq!(cpu_nanos("100m"), Some(100_000_000));
        assert_eq!(cpu_nanos("1"), Some(1_000_000_000));
        assert_eq!(cpu_nanos("1.5"), Some(1_500_000_000));
        assert_eq!(cpu_nanos("250000u"), Some(250_000_000));
        assert_eq!(cpu_nanos("12345n"), Some(12_345));
        assert_eq!(cpu_nanos("2e-1"), Some(200_000_000));
        assert_eq!(bytes("128Mi"), Some(128 << 20));
        assert_eq!(bytes("1Gi"), Some(1 << 30));
        assert_eq!(bytes("1k"), Some(1000));
        assert_eq!(bytes("1E"), Some(1_000_000_000_000_000_000));
        assert_eq!(bytes("1e3"), Some(1000));
        assert_eq!(bytes("500"), Some(500));
        for bad in ["", "x", "1Q", "-1", "1e", "Mi"] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn prints_the_canonical_form() {
        assert_eq!(cpu_text(12_345_678), "12345678n");
        assert_eq!(cpu_text(12_000_000), "12m");
        assert_eq!(cpu_text(12_000), "12u");
        assert_eq!(cpu_text(2_000_000_000), "2");
        assert_eq!(cpu_text(0), "0");
        assert_eq!(memory_text(45_678 * 1024), "45678Ki");
        assert_eq!(memory_text(2 << 20), "2Mi");
        assert_eq!(memory_text(1000), "1000");
        assert_eq!(memory_text(0), "0");
        for n in [1u64, 999, 123_456_789, 7_800_000_000] {
            assert_eq!(cpu_nanos(&cpu_text(n)), Some(n));
        }
        for b in [4096u64, 1 << 30, 31 << 30, 1234] {
            assert_eq!(bytes(&memory_text(b)), Some(b));
        }
    }
}
