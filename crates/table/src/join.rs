//! kubectl's capped lists (`a,b,c + 3 more...`) shared by the Ingress, Endpoints,
//! EndpointSlice and HPA columns. Owns only the joining; must not decide what is listed or
//! which placeholder an empty list prints (each printer differs).

/// `shown` joined by `sep`, then ` + {more} more...` when `more > 0`.
pub fn join_more<S: AsRef<str>>(shown: &[S], sep: &str, more: usize) -> String {
    let mut out = String::new();
    for (i, s) in shown.iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        out.push_str(s.as_ref());
    }
    if more > 0 {
        out.push_str(&format!(" + {more} more..."));
    }
    out
}

/// The first `max` items joined by `sep`, then ` + {n − max} more...` when there are
/// `n > max` items (kubectl's `formatEndpoints`, `formatDiscoveryPorts`,
/// `formatDiscoveryEndpoints`, `formatHPAMetrics`).
pub fn first_of<S: AsRef<str>>(items: impl IntoIterator<Item = S>, max: usize, sep: &str) -> String {
    let mut shown = Vec::with_capacity(max);
    let mut n: usize = 0;
    for item in items {
        if shown.len() < max {
            shown.push(item);
        }
        n += 1;
    }
    join_more(&shown, sep, n.saturating_sub(max))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_and_counts_the_rest() {
        assert_eq!(first_of(["a", "b", "c"], 3, ","), "a,b,c");
        assert_eq!(first_of(["a", "b", "c", "d", "e"], 3, ","), "a,b,c + 2 more...");
        assert_eq!(first_of(["x", "y", "z"], 2, ", "), "x, y + 1 more...");
        assert_eq!(first_of(Vec::<String>::new(), 3, ","), "");
        assert_eq!(join_more(&["a"], ",", 0), "a");
        assert_eq!(join_more(&["a", "b"], ",", 4), "a,b + 4 more...");
    }
}
