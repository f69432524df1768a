//! Which `User-Agent` the demo server's requests carried, per request class (`list`, `watch`,
//! `get`, `write`, `log`, `exec`, `portforward`, `review`, `discovery`…), so a test can check
//! that a client names itself on every kind of request. Owns only that bounded tally; must
//! not answer, refuse or change requests.

use std::collections::BTreeMap;
use std::sync::Mutex;

use http::Method;

use super::http::Route;

/// Distinct agents kept per class; later new ones are counted under `"(more)"`.
const MAX_AGENTS: usize = 16;

/// Per request class, each agent seen (`""`: none sent) and how many requests carried it.
#[derive(Debug, Default)]
pub struct Agents {
    seen: Mutex<BTreeMap<&'static str, BTreeMap<String, u64>>>,
}

impl Agents {
    /// Counts one request of `class` carrying `agent` (`None`: no `User-Agent` header).
    pub fn record(&self, class: &'static str, agent: Option<&str>) {
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        let per = seen.entry(class).or_default();
        let agent = agent.unwrap_or("");
        let key = if per.contains_key(agent) || per.len() < MAX_AGENTS {
            agent.to_owned()
        } else {
            "(more)".to_owned()
        };
        *per.entry(key).or_default() += 1;
    }

    /// A copy of the tally: class → agent → requests.
    pub fn seen(&self) -> BTreeMap<String, BTreeMap<String, u64>> {
        let seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        seen.iter().map(|(c, a)| ((*c).to_owned(), a.clone())).collect()
    }
}

/// The class of a request, as [`Agents`] tallies it.
pub fn class(method: &Method, route: &Route, query: &str) -> &'static str {
    let watch =
        || form_urlencoded::parse(query.as_bytes()).any(|(k, v)| k == "watch" && (v == "true" || v == "1"));
    match (method, route) {
        (_, Route::Sub { sub, .. }) if super::stream::is_stream(sub) => match sub.as_str() {
            "exec" => "exec",
            "attach" => "attach",
            _ => "portforward",
        },
        (&Method::GET, Route::Collection { .. }) if watch() => "watch",
        (&Method::GET, Route::Collection { .. }) => "list",
        (&Method::GET, Route::Item { .. } | Route::Sub { .. }) => "get",
        (&Method::GET, Route::PodLog { .. }) => "log",
        (&Method::GET, Route::Metrics(p)) if p.is_item() => "get",
        (&Method::GET, Route::Metrics(p)) if p.is_resource() => "list",
        (&Method::GET, Route::Metrics(_)) => "discovery",
        (_, Route::SelfSubjectAccessReview) => "review",
        (
            _,
            Route::Version | Route::CoreVersions | Route::GroupList | Route::Group(_) | Route::Resources(..),
        ) => "discovery",
        (_, Route::OpenApiIndex | Route::OpenApiDoc(_)) => "openapi",
        (_, Route::Collection { .. } | Route::Item { .. } | Route::Sub { .. }) => "write",
        _ => "other",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tallies_per_class_and_bounds_the_agents() {
        let a = Agents::default();
        a.record("list", Some("ktui/1"));
        a.record("list", Some("ktui/1"));
        a.record("watch", None);
        for i in 0..40 {
            a.record("get", Some(&format!("x{i}")));
        }
        let seen = a.seen();
        assert_eq!(seen["list"]["ktui/1"], 2);
        assert_eq!(seen["watch"][""], 1);
        assert_eq!(seen["get"].len(), MAX_AGENTS + 1);
        assert_eq!(seen["get"]["(more)"], 40 - MAX_AGENTS as u64);
    }
}
