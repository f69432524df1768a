//! Resource quantities (`500Mi`, `1.5Gi`, `100m`) as the API server prints them: the
//! canonical form of apimachinery's `Quantity.String()` (`1.5Gi` → `1536Mi`, `0.1` → `100m`),
//! and a lenient serde type (string or number) for quantity fields. Owns only the text form;
//! must not offer arithmetic on quantities.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;

/// A quantity field as received (JSON string, or a number, which the API also accepts).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Quantity(pub Box<str>);

impl Quantity {
    /// The canonical text, as the server's printers show it; the received text when it does
    /// not parse as a quantity.
    pub fn canonical(&self) -> Cow<'_, str> {
        canonical(&self.0)
    }
}

impl<'de> Deserialize<'de> for Quantity {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Quantity;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a quantity string or number")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Quantity, E> {
                Ok(Quantity(v.into()))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Quantity, E> {
                Ok(Quantity(v.to_string().into()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Quantity, E> {
                Ok(Quantity(v.to_string().into()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Quantity, E> {
                Ok(Quantity(v.to_string().into()))
            }
        }
        d.deserialize_any(V)
    }
}

/// Text of an optional quantity the way Go prints a `*Quantity`: canonical, `<nil>` when nil.
pub fn or_nil(q: Option<&Quantity>) -> Cow<'_, str> {
    q.map_or(Cow::Borrowed("<nil>"), Quantity::canonical)
}

const NANO: u128 = 1_000_000_000;
/// apimachinery caps parsed magnitudes at 2^63 − 1 (whole units).
const MAX_NANOS: u128 = i64::MAX as u128 * NANO;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    BinarySi,
    DecimalSi,
    DecimalExponent,
}

/// The canonical form of a quantity string, as `Quantity.String()` prints it after
/// `ParseQuantity`: the value rounded up to 1n; binary suffixes (`Ki`…`Ei`) kept only for whole
/// values of at least 1024, else decimal; decimal mantissas with exponents that are multiples of
/// 3 and no trailing zero groups (`1500m`, `12k`, `1M`, `5e3`). Unparsable text is returned
/// as is.
pub fn canonical(s: &str) -> Cow<'_, str> {
    match parse(s) {
        Some((negative, nanos, format)) => Cow::Owned(render(negative, nanos, format)),
        None => Cow::Borrowed(s),
    }
}

/// `(negative, |value| in nano units, format)`.
fn parse(s: &str) -> Option<(bool, u128, Format)> {
    let s = s.trim();
    let (negative, rest) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    let digits = |t: &str| t.bytes().take_while(u8::is_ascii_digit).count();
    let (int, rest) = rest.split_at(digits(rest));
    let (frac, suffix) = match rest.strip_prefix('.') {
        Some(r) => r.split_at(digits(r)),
        None => ("", rest),
    };
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let (base2, exp, format) = suffix_of(suffix)?;
    let mut n: u128 = 0;
    for b in int.bytes().chain(frac.bytes()) {
        n = n.checked_mul(10)?.checked_add(u128::from(b - b'0'))?;
    }
    if base2 {
        n = n.checked_mul(1u128.checked_shl(u32::try_from(exp).ok()?)?)?;
    }
    let scale = 9 - i64::try_from(frac.len()).ok()? + if base2 { 0 } else { exp };
    let nanos = if scale >= 0 {
        n.checked_mul(10u128.checked_pow(u32::try_from(scale).ok()?)?)?
    } else {
        // Finer than 1n: round the magnitude up, as ParseQuantity does.
        match 10u128.checked_pow(u32::try_from(-scale).ok()?) {
            Some(div) => n.div_ceil(div),
            None => u128::from(n > 0),
        }
    };
    Some((negative, nanos.min(MAX_NANOS), format))
}

/// `(binary, exponent, format)` of a suffix: `Ki` → 2^10, `k` → 10^3, `e5` → 10^5.
fn suffix_of(suffix: &str) -> Option<(bool, i64, Format)> {
    const DEC: [(&str, i64); 10] = [
        ("n", -9),
        ("u", -6),
        ("m", -3),
        ("", 0),
        ("k", 3),
        ("M", 6),
        ("G", 9),
        ("T", 12),
        ("P", 15),
        ("E", 18),
    ];
    const BIN: [(&str, i64); 6] = [
        ("Ki", 10),
        ("Mi", 20),
        ("Gi", 30),
        ("Ti", 40),
        ("Pi", 50),
        ("Ei", 60),
    ];
    if let Some((_, e)) = DEC.iter().find(|(s, _)| *s == suffix) {
        return Some((false, *e, Format::DecimalSi));
    }
    if let Some((_, e)) = BIN.iter().find(|(s, _)| *s == suffix) {
        return Some((true, *e, Format::BinarySi));
    }
    let exp = suffix.strip_prefix(['e', 'E'])?;
    let e: i64 = exp.parse().ok()?;
    (e.abs() <= 40).then_some((false, e, Format::DecimalExponent))
}

fn render(negative: bool, nanos: u128, mut format: Format) -> String {
    if nanos == 0 {
        return "0".into();
    }
    let sign = if negative { "-" } else { "" };
    if format == Format::BinarySi && (nanos < 1024 * NANO || !nanos.is_multiple_of(NANO)) {
        format = Format::DecimalSi;
    }
    if format == Format::BinarySi {
        let (mut units, mut e) = (nanos / NANO, 0);
        while units >= 1024 && units.is_multiple_of(1024) && e < 6 {
            units /= 1024;
            e += 1;
        }
        let suffix = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"][e];
        return format!("{sign}{units}{suffix}");
    }
    let (mut m, mut e) = (nanos, -9i64);
    while m >= 10 && m.is_multiple_of(10) {
        m /= 10;
        e += 1;
    }
    // Go's truncated remainder: exponents become multiples of 3 by growing the mantissa.
    match e % 3 {
        1 | -2 => (m, e) = (m * 10, e - 1),
        2 | -1 => (m, e) = (m * 100, e - 2),
        _ => {}
    }
    let suffix: Cow<'static, str> = match format {
        Format::DecimalExponent if e == 0 => Cow::Borrowed(""),
        Format::DecimalExponent => Cow::Owned(format!("e{e}")),
        _ => Cow::Borrowed(match e {
            -9 => "n",
            -6 => "u",
            -3 => "m",
            3 => "k",
            6 => "M",
            9 => "G",
            12 => "T",
            15 => "P",
            18 => "E",
            _ => "",
        }),
    };
    format!("{sign}{m}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_forms_match_apimachinery() {
        let cases = [
            ("1.5Gi", "1536Mi"),
            ("1536Mi", "1536Mi"),
            ("1024Mi", "1Gi"),
            ("1000Mi", "1000Mi"),
            ("0.5Gi", "512Mi"),
            ("0.5Ki", "512"),
            ("2.5Ki", "2560"),
            ("1Ki", "1Ki"),
            ("10Gi", "10Gi"),
            ("500Mi", "500Mi"),
            ("0", "0"),
            ("0Gi", "0"),
            ("-0", "0"),
            ("0.1", "100m"),
            ("1.5", "1500m"),
            ("100m", "100m"),
            ("1000m", "1"),
            ("1500", "1500"),
            ("1000k", "1M"),
            ("10k", "10k"),
            ("1.5k", "1500"),
            ("2k", "2k"),
            ("1e3", "1e3"),
            ("12e6", "12e6"),
            ("1000e0", "1e3"),
            ("1E", "1E"),
            ("0.0000000001", "1n"),
            ("-1.5Gi", "-1536Mi"),
            ("-100m", "-100m"),
            ("1.0001Ki", "1024102400u"),
            ("100Ei", "9223372036854775807"),
            ("junk", "junk"),
            ("12Q", "12Q"),
            ("", ""),
        ];
        for (input, want) in cases {
            assert_eq!(canonical(input), want, "{input}");
        }
    }

    #[test]
    fn decodes_strings_and_numbers() {
        let q: Vec<Option<Quantity>> = serde_json::from_str(r#"["1.5Gi", 3, null]"#).unwrap();
        assert_eq!(q[0].as_ref().map(Quantity::canonical).as_deref(), Some("1536Mi"));
        assert_eq!(q[1].as_ref().map(Quantity::canonical).as_deref(), Some("3"));
        assert_eq!(q[2], None);
        assert_eq!(or_nil(None), "<nil>");
    }
}
