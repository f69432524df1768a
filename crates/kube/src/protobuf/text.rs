//! The JSON text forms of protobuf values that JSON shows as strings: RFC 3339 times (Go's
//! `time.RFC3339` for `meta/v1.Time`, `RFC3339Micro` for `MicroTime`) and Go's duration
//! text (`meta/v1.Duration`). Pure; must not parse.

/// `secs` (unix seconds, UTC) as `2024-05-01T10:00:00Z`, or with `micros` as
/// `2024-05-01T10:00:00.123456Z`.
pub(crate) fn rfc3339(secs: i64, micros: Option<i64>) -> String {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = civil(days);
    let (hh, mm, ss) = (rem / 3600, rem % 3600 / 60, rem % 60);
    match micros {
        Some(us) => format!("{y:04}-{m:02}-{d:02}T{hh:02}:{mm:02}:{ss:02}.{us:06}Z"),
        None => format!("{y:04}-{m:02}-{d:02}T{hh:02}:{mm:02}:{ss:02}Z"),
    }
}

/// The proleptic Gregorian date of `days` since 1970-01-01 (Howard Hinnant's algorithm).
fn civil(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// `ns` nanoseconds as Go's `time.Duration.String()`: `0s`, `1.5s`, `2m0s`, `1h0m0s`,
/// `300ms`, `1.5µs`, `7ns`.
pub(crate) fn go_duration(ns: i64) -> String {
    if ns == 0 {
        return "0s".to_owned();
    }
    let sign = if ns < 0 { "-" } else { "" };
    let u = ns.unsigned_abs();
    let frac = |v: u64, unit: u64| {
        let whole = v / unit;
        let rest = v % unit;
        if rest == 0 {
            whole.to_string()
        } else {
            let digits = unit.to_string().len() - 1;
            let f = format!("{rest:0digits$}");
            format!("{whole}.{}", f.trim_end_matches('0'))
        }
    };
    if u < 1_000 {
        return format!("{sign}{u}ns");
    }
    if u < 1_000_000 {
        return format!("{sign}{}µs", frac(u, 1_000));
    }
    if u < 1_000_000_000 {
        return format!("{sign}{}ms", frac(u, 1_000_000));
    }
    let h = u / 3_600_000_000_000;
    let m = u / 60_000_000_000 % 60;
    let s = frac(u % 60_000_000_000, 1_000_000_000);
    match (h, m) {
        (0, 0) => format!("{sign}{s}s"),
        (0, m) => format!("{sign}{m}m{s}s"),
        (h, m) => format!("{sign}{h}h{m}m{s}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_the_json_encoding_writes_them() {
        assert_eq!(rfc3339(0, None), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(1_714_557_600, None), "2024-05-01T10:00:00Z");
        assert_eq!(rfc3339(951_782_400, Some(123_456)), "2000-02-29T00:00:00.123456Z");
        assert_eq!(rfc3339(-1, None), "1969-12-31T23:59:59Z");
    }

    #[test]
    fn durations_read_as_go_prints_them() {
        assert_eq!(go_duration(0), "0s");
        assert_eq!(go_duration(7), "7ns");
        assert_eq!(go_duration(1_500), "1.5µs");
        assert_eq!(go_duration(300_000_000), "300ms");
        assert_eq!(go_duration(1_500_000_000), "1.5s");
        assert_eq!(go_duration(120_000_000_000), "2m0s");
        assert_eq!(go_duration(3_600_000_000_000), "1h0m0s");
        assert_eq!(go_duration(-90_000_000_000), "-1m30s");
    }
}
