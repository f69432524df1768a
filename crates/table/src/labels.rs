//! Label selectors and label maps as kubectl prints them (`FormatLabelSelector`,
//! `FormatLabels`), and as a `labelSelector` query value for drilling into pods. Owns only the
//! string forms; must not match selectors against objects.

use serde::Deserialize;

use ktui_kube::row::Cell;

use super::meta::{pairs, text};

/// A slim `metav1.LabelSelector` (`spec.selector` of workloads).
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct LabelSelector {
    /// `matchLabels`.
    #[serde(deserialize_with = "pairs")]
    pub match_labels: Vec<(String, String)>,
    /// `matchExpressions`.
    pub match_expressions: Vec<Requirement>,
}

/// One `matchExpressions` entry.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct Requirement {
    /// `key`.
    pub key: String,
    /// `operator`: `In`, `NotIn`, `Exists`, `DoesNotExist`.
    pub operator: String,
    /// `values`.
    pub values: Vec<String>,
}

/// The selector is invalid (unknown operator, or values that do not fit the operator).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InvalidSelector;

impl LabelSelector {
    /// The selector in Kubernetes selector syntax (`app=x,!canary,env in (dev,prod)`):
    /// requirements sorted by key, `in`/`notin` values de-duplicated and sorted; `""` when
    /// empty (matches everything). Usable as a `labelSelector` query parameter.
    pub fn to_query(&self) -> Result<String, InvalidSelector> {
        let mut reqs: Vec<(&str, String)> = Vec::new();
        for (k, v) in &self.match_labels {
            reqs.push((k, format!("{k}={v}")));
        }
        for r in &self.match_expressions {
            let mut values: Vec<&str> = r.values.iter().map(String::as_str).collect();
            values.sort_unstable();
            values.dedup();
            let s = match r.operator.as_str() {
                "In" | "NotIn" if values.is_empty() => return Err(InvalidSelector),
                "In" => format!("{} in ({})", r.key, values.join(",")),
                "NotIn" => format!("{} notin ({})", r.key, values.join(",")),
                "Exists" | "DoesNotExist" if !values.is_empty() => return Err(InvalidSelector),
                "Exists" => r.key.clone(),
                "DoesNotExist" => format!("!{}", r.key),
                _ => return Err(InvalidSelector),
            };
            reqs.push((&r.key, s));
        }
        reqs.sort_by(|a, b| a.0.cmp(b.0));
        Ok(reqs.into_iter().map(|(_, s)| s).collect::<Vec<_>>().join(","))
    }
}

/// `FormatLabelSelector`: the selector string, `<none>` when nil or empty, `<error>` when
/// invalid (ReplicaSet, DaemonSet, Job, CronJob SELECTOR).
pub fn selector_cell(sel: Option<&LabelSelector>) -> Cell {
    match sel.map(LabelSelector::to_query) {
        None => Cell::Static("<none>"),
        Some(Ok(s)) if s.is_empty() => Cell::Static("<none>"),
        Some(Ok(s)) => text(&s),
        Some(Err(InvalidSelector)) => Cell::Static("<error>"),
    }
}

/// `FormatLabels`: `k=v` pairs sorted as whole strings, joined with `,`; `""` when empty.
pub fn format_labels(pairs: &[(String, String)]) -> String {
    let mut items: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
    items.sort_unstable();
    items.join(",")
}

/// `FormatLabels` as a cell, `<none>` when empty.
pub fn labels_cell(pairs: &[(String, String)]) -> Cell {
    if pairs.is_empty() {
        Cell::Static("<none>")
    } else {
        text(&format_labels(pairs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sel(json: serde_json::Value) -> LabelSelector {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn selector_strings() {
        let s = sel(serde_json::json!({
            "matchLabels": {"tier": "web", "app": "x"},
            "matchExpressions": [
                {"key": "env", "operator": "In", "values": ["prod", "dev", "prod"]},
                {"key": "canary", "operator": "DoesNotExist"},
            ]
        }));
        assert_eq!(s.to_query().unwrap(), "app=x,!canary,env in (dev,prod),tier=web");
        let s = sel(serde_json::json!({"matchExpressions": [
            {"key": "a", "operator": "NotIn", "values": ["2", "10"]},
            {"key": "b", "operator": "Exists"}]}));
        assert_eq!(s.to_query().unwrap(), "a notin (10,2),b");
    }

    #[test]
    fn selector_cells() {
        assert_eq!(selector_cell(None), Cell::Static("<none>"));
        assert_eq!(
            selector_cell(Some(&sel(serde_json::json!({})))),
            Cell::Static("<none>")
        );
        let bad = sel(serde_json::json!({"matchExpressions": [{"key": "a", "operator": "Near"}]}));
        assert_eq!(selector_cell(Some(&bad)), Cell::Static("<error>"));
        let bad = sel(serde_json::json!({"matchExpressions": [{"key": "a", "operator": "In"}]}));
        assert_eq!(selector_cell(Some(&bad)), Cell::Static("<error>"));
    }

    #[test]
    fn labels_sort_as_whole_strings() {
        let p = vec![
            ("b".into(), "1".into()),
            ("a.b".into(), "2".into()),
            ("a".into(), "3".into()),
        ];
        assert_eq!(format_labels(&p), "a.b=2,a=3,b=1");
        assert_eq!(labels_cell(&[]), Cell::Static("<none>"));
    }
}
