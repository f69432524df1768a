//! Turns stored cells into the exact text kubectl prints, at draw time, against an injected
//! clock. Owns kubectl's `HumanDuration`; must never read the clock itself.

use std::borrow::Cow;

use ktui_kube::row::{Cell, UnixSecs};

/// kubectl's `HumanDuration` (apimachinery `pkg/util/duration`) of a duration in whole
/// seconds: `59s`, `2m1s`, `10m`, `3h5m`, `8h`, `2d5h`, `8d`, `2y30d`, `8y`; `<invalid>` below
/// −1 s (clock skew), `0s` at −1 s.
pub fn human_duration(secs: i64) -> String {
    if secs < -1 {
        return "<invalid>".into();
    }
    if secs < 0 {
        return "0s".into();
    }
    if secs < 120 {
        return format!("{secs}s");
    }
    let minutes = secs / 60;
    if minutes < 10 {
        return match secs % 60 {
            0 => format!("{minutes}m"),
            s => format!("{minutes}m{s}s"),
        };
    }
    if minutes < 180 {
        return format!("{minutes}m");
    }
    let hours = secs / 3600;
    if hours < 8 {
        return match minutes % 60 {
            0 => format!("{hours}h"),
            m => format!("{hours}h{m}m"),
        };
    }
    if hours < 48 {
        return format!("{hours}h");
    }
    let days = hours / 24;
    if hours < 24 * 8 {
        return match hours % 24 {
            0 => format!("{days}d"),
            h => format!("{days}d{h}h"),
        };
    }
    if hours < 24 * 365 * 2 {
        return format!("{days}d");
    }
    let years = days / 365;
    if hours < 24 * 365 * 8 {
        return match days % 365 {
            0 => format!("{years}y"),
            d => format!("{years}y{d}d"),
        };
    }
    format!("{years}y")
}

/// `HumanDuration(now - t)`, or `<unknown>` when `t` is absent.
pub fn age(t: Option<UnixSecs>, now: UnixSecs) -> String {
    match t {
        Some(t) => human_duration(now.saturating_sub(t)),
        None => "<unknown>".into(),
    }
}

/// The text kubectl prints for a cell, ages computed against `now`.
pub fn format_cell(cell: &Cell, now: UnixSecs) -> Cow<'_, str> {
    match cell {
        Cell::Text(s) => Cow::Borrowed(s),
        Cell::Static(s) => Cow::Borrowed(s),
        Cell::Shared(s) => Cow::Borrowed(s),
        Cell::Int(n) => Cow::Owned(n.to_string()),
        Cell::Age(t) => Cow::Owned(age(*t, now)),
        Cell::Restarts {
            count,
            last: Some(last),
        } if *count != 0 => Cow::Owned(format!(
            "{count} ({} ago)",
            human_duration(now.saturating_sub(*last))
        )),
        Cell::Restarts { count, .. } => Cow::Owned(count.to_string()),
        Cell::Span(s) => match s.start {
            None => Cow::Borrowed(""),
            Some(start) => Cow::Owned(human_duration(s.end.unwrap_or(now).saturating_sub(start))),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_duration_boundaries() {
        let (m, h, d) = (60, 3600, 86_400);
        let cases = [
            (-3, "<invalid>"),
            (-2, "<invalid>"),
            (-1, "0s"),
            (0, "0s"),
            (59, "59s"),
            (60, "60s"),
            (119, "119s"),
            (120, "2m"),
            (121, "2m1s"),
            (320, "5m20s"),
            (599, "9m59s"),
            (600, "10m"),
            (659, "10m"),
            (3600, "60m"),
            (10_799, "179m"),
            (10_800, "3h"),
            (11_100, "3h5m"),
            (28_799, "7h59m"),
            (8 * h, "8h"),
            (23 * h + 59 * m, "23h"),
            (24 * h, "24h"),
            (47 * h, "47h"),
            (48 * h, "2d"),
            (53 * h, "2d5h"),
            (191 * h, "7d23h"),
            (192 * h, "8d"),
            (364 * d, "364d"),
            (365 * d, "365d"),
            (729 * d, "729d"),
            (730 * d, "2y"),
            (760 * d, "2y30d"),
            (2919 * d, "7y364d"),
            (2920 * d, "8y"),
            (3650 * d, "10y"),
        ];
        for (secs, want) in cases {
            assert_eq!(human_duration(secs), want, "{secs}s");
        }
    }

    #[test]
    fn cells_format_like_kubectl() {
        let now = 1_000_000;
        let cases = [
            (Cell::Age(None), "<unknown>"),
            (Cell::Age(Some(now - 320)), "5m20s"),
            (Cell::Age(Some(now + 5)), "<invalid>"),
            (
                Cell::Restarts {
                    count: 0,
                    last: Some(now - 5),
                },
                "0",
            ),
            (Cell::Restarts { count: 3, last: None }, "3"),
            (
                Cell::Restarts {
                    count: 5,
                    last: Some(now - 320),
                },
                "5 (5m20s ago)",
            ),
            (
                Cell::Restarts {
                    count: 7,
                    last: Some(now - 100_000),
                },
                "7 (27h ago)",
            ),
            (Cell::span(None, Some(now)), ""),
            (Cell::span(Some(now - 90), None), "90s"),
            (Cell::span(Some(now - 500), Some(now - 450)), "50s"),
            (Cell::Int(42), "42"),
            (Cell::Static("<none>"), "<none>"),
            (Cell::Text("web".into()), "web"),
        ];
        for (cell, want) in cases {
            assert_eq!(format_cell(&cell, now), want, "{cell:?}");
        }
    }
}
