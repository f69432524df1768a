//! Blame: the object's YAML with each line annotated by the field manager (and operation,
//! subresource and age) that last set that field, read from the server's own record,
//! `metadata.managedFields` — so it works for objects ktui never watched change. A line
//! owned by several managers names the most recent one and counts the others. Pure; must
//! not do I/O.

use serde_json::Value;

use ktui_kube::history::managed::{entries, owners_exactly};
use ktui_kube::sanitize::sanitize;
use ktui_table::format::human_duration;

/// Width of the annotation column.
const WIDTH: usize = 46;

/// The YAML lines of `obj` (`managedFields` left out; for a Secret, values replaced by their
/// size), each prefixed with its owner: `kubectl (Update/scale) 5m │ replicas: 3`.
/// `now` is unix seconds. Sanitized.
pub fn lines(obj: &Value, kind: &ktui_kube::kind::Kind, now: i64) -> Vec<String> {
    let managers = entries(obj);
    let mut shown = obj.clone();
    if let Some(meta) = shown.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.remove("managedFields");
        if let Some(a) = meta.get_mut("annotations").and_then(Value::as_object_mut) {
            a.remove("kubectl.kubernetes.io/last-applied-configuration");
        }
    }
    if *kind == ktui_kube::builtin::BuiltinKind::Secret {
        for field in ["data", "stringData"] {
            if let Some(map) = shown.get_mut(field).and_then(Value::as_object_mut) {
                for v in map.values_mut() {
                    *v = Value::String(format!("<{} bytes>", v.as_str().map_or(0, str::len)));
                }
            }
        }
    }
    let text = crate::yaml::to_yaml_text(&shown);
    let paths = crate::yaml::line_paths(&shown);
    let mut out = Vec::with_capacity(paths.len() + 1);
    if managers.is_empty() {
        out.push("(the server sent no managedFields: nothing to blame)".to_owned());
    }
    for (line, path) in text.lines().zip(paths) {
        let own = owners_exactly(obj, &path);
        let best = own
            .iter()
            .copied()
            .max_by_key(|&i| managers.get(i).and_then(|m| m.time).unwrap_or(i64::MIN));
        let note = match best.and_then(|i| managers.get(i)) {
            Some(m) => {
                let age = m
                    .time
                    .map(|t| human_duration(now.saturating_sub(t)))
                    .unwrap_or_default();
                let more = if own.len() > 1 {
                    format!(" +{}", own.len() - 1)
                } else {
                    String::new()
                };
                let mut who = format!("{}{more}", m.label());
                if who.chars().count() > WIDTH - 6 {
                    who = who.chars().take(WIDTH - 7).collect::<String>() + "…";
                }
                format!("{who:<w$} {age:>5}", w = WIDTH - 6)
            }
            None => String::new(),
        };
        out.push(sanitize(&format!("{note:<WIDTH$} │ {line}")).into_owned());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ktui_kube::builtin::BuiltinKind;
    use serde_json::json;

    #[test]
    fn each_line_names_its_manager_apply_update_and_status() {
        let obj = json!({
            "metadata": {"name": "web", "labels": {"app": "web"}, "managedFields": [
                {"manager": "ops", "operation": "Apply", "time": "2026-12-01T10:00:00Z",
                 "fieldsV1": {"f:metadata": {"f:labels": {"f:app": {}}}, "f:spec": {"f:template": {"f:spec": {"f:containers": {
                     "k:{\"name\":\"web\"}": {".": {}, "f:name": {}, "f:image": {}}}}}}}},
                {"manager": "kubectl", "operation": "Update", "subresource": "scale", "time": "2026-12-01T10:10:00Z",
                 "fieldsV1": {"f:spec": {"f:replicas": {}}}},
                {"manager": "kube-controller-manager", "operation": "Update", "subresource": "status",
                 "time": "2026-12-01T10:11:00Z", "fieldsV1": {"f:status": {"f:replicas": {}}}}]},
            "spec": {"replicas": 3, "template": {"spec": {"containers": [{"name": "web", "image": "web:1.5"}]}}},
            "status": {"replicas": 3}});
        let now = 1_796_119_200 + 20 * 60;
        let l = lines(&obj, &BuiltinKind::Deployment.into(), now);
        let find = |needle: &str| l.iter().find(|x| x.ends_with(needle)).unwrap().clone();
        assert!(find("app: web").starts_with("ops (Apply)"), "{l:#?}");
        assert!(
            find("  replicas: 3").starts_with("kubectl (Update/scale)"),
            "{l:#?}"
        );
        assert!(find("- image: web:1.5").starts_with("ops (Apply)"));
        assert!(find("│         name: web").starts_with("ops (Apply)"));
        assert!(
            find("spec:").trim_start().starts_with('│'),
            "a map nobody owns as a whole: {l:#?}"
        );
        let status = l.iter().rev().find(|x| x.ends_with("replicas: 3")).unwrap();
        assert!(
            status.starts_with("kube-controller-manager (Update/status)"),
            "{status}"
        );
        assert!(status.contains(" 9m │"), "{status}");
        assert!(
            find("name: web").trim_start().starts_with('│'),
            "nobody owns metadata.name: {l:#?}"
        );
        assert!(!l.iter().any(|x| x.contains("managedFields")));
    }

    #[test]
    fn secrets_show_sizes_and_no_managed_fields_says_so() {
        let s = json!({"metadata": {"name": "db"}, "data": {"password": "aHVudGVyMg=="}});
        let l = lines(&s, &BuiltinKind::Secret.into(), 0);
        assert!(l[0].contains("no managedFields"));
        assert!(l.iter().any(|x| x.ends_with("password: <12 bytes>")), "{l:#?}");
        assert!(!l.iter().any(|x| x.contains("aHVudGVyMg")));
    }
}
