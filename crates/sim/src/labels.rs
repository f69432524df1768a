//! `metav1.LabelSelector` objects (`matchLabels` + `matchExpressions`) as the controllers and
//! the eviction path apply them to an object's `metadata.labels`, and ownership tests on
//! `metadata.ownerReferences`. Pure JSON helpers; must not touch the store.

use serde_json::Value;

/// Whether `labels` (a JSON object) satisfy `selector`. An empty selector matches everything,
/// a null one nothing (as `metav1.LabelSelectorAsSelector` does).
pub fn selector_matches(selector: &Value, labels: &Value) -> bool {
    if selector.is_null() {
        return false;
    }
    let get = |k: &str| labels.get(k).and_then(Value::as_str);
    let ml = selector["matchLabels"]
        .as_object()
        .is_none_or(|m| m.iter().all(|(k, v)| get(k) == v.as_str()));
    let me = selector["matchExpressions"].as_array().is_none_or(|es| {
        es.iter().all(|e| {
            let key = e["key"].as_str().unwrap_or("");
            let values: Vec<&str> = e["values"]
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            match e["operator"].as_str().unwrap_or("") {
                "In" => get(key).is_some_and(|v| values.contains(&v)),
                "NotIn" => get(key).is_none_or(|v| !values.contains(&v)),
                "Exists" => get(key).is_some(),
                "DoesNotExist" => get(key).is_none(),
                _ => false,
            }
        })
    });
    ml && me
}

/// `app=web,tier=front`: the selector as a string (the Scale subresource's `status.selector`).
pub fn selector_string(selector: &Value) -> String {
    let mut parts: Vec<String> = selector["matchLabels"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or("")))
                .collect()
        })
        .unwrap_or_default();
    for e in selector["matchExpressions"].as_array().into_iter().flatten() {
        let key = e["key"].as_str().unwrap_or("");
        let values: Vec<&str> = e["values"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        parts.push(match e["operator"].as_str().unwrap_or("") {
            "In" => format!("{key} in ({})", values.join(",")),
            "NotIn" => format!("{key} notin ({})", values.join(",")),
            "Exists" => key.to_owned(),
            _ => format!("!{key}"),
        });
    }
    parts.join(",")
}

/// The uids `obj` names in `metadata.ownerReferences`.
pub fn owner_uids(obj: &Value) -> Vec<&str> {
    obj["metadata"]["ownerReferences"]
        .as_array()
        .map(|a| a.iter().filter_map(|o| o["uid"].as_str()).collect())
        .unwrap_or_default()
}

/// The controller owner reference of `obj` (`controller: true`), if any.
pub fn controller_of(obj: &Value) -> Option<&Value> {
    obj["metadata"]["ownerReferences"]
        .as_array()?
        .iter()
        .find(|o| o["controller"] == Value::Bool(true))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn selectors_match_like_the_api() {
        let l = json!({"app": "web", "tier": "front"});
        assert!(selector_matches(&json!({}), &l));
        assert!(!selector_matches(&Value::Null, &l));
        assert!(selector_matches(&json!({"matchLabels": {"app": "web"}}), &l));
        assert!(!selector_matches(&json!({"matchLabels": {"app": "db"}}), &l));
        let e = json!({"matchExpressions": [{"key": "tier", "operator": "In", "values": ["front", "x"]},
                                            {"key": "canary", "operator": "DoesNotExist"}]});
        assert!(selector_matches(&e, &l));
        assert_eq!(
            selector_string(&json!({"matchLabels": {"app": "web"}})),
            "app=web"
        );
        assert_eq!(selector_string(&e), "tier in (front,x),!canary");
    }
}
