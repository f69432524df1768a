//! The event filter language of event timelines: the `type:`, `reason:` and `obj:` scoped
//! terms split off the `/` filter (the rest goes to [`super::Query`]), and the [`EventLens`]
//! (Warning-only, one object) that narrows a timeline before the generic filter. Pure
//! matching over event rows; must not memoise (the caller does, per snapshot revision).

use ktui_kube::row::{ObjRef, Row};

/// Event-timeline narrowing applied before the filter pipeline.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EventLens {
    /// Only `type == Warning`.
    pub warnings_only: bool,
    /// Only events about this object.
    pub object: Option<ObjRef>,
}

/// A `col:text` term of the event filter language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scoped {
    /// `type:Warning` — TYPE equals (case-insensitive).
    Type(String),
    /// `reason:BackOff` — REASON contains (case-insensitive).
    Reason(String),
    /// `obj:pod/web-0` — OBJECT contains (case-insensitive).
    Object(String),
}

/// Splits the `type:`, `reason:` and `obj:` terms off an event filter; returns them and the
/// rest of the text for the generic filter.
pub fn split_scoped(text: &str) -> (Vec<Scoped>, String) {
    let mut scoped = Vec::new();
    let mut rest = Vec::new();
    for word in text.split_whitespace() {
        let lower = word.to_ascii_lowercase();
        let term = [
            ("type:", Scoped::Type as fn(String) -> Scoped),
            ("reason:", Scoped::Reason),
            ("obj:", Scoped::Object),
            ("object:", Scoped::Object),
        ]
        .into_iter()
        .find_map(|(prefix, make)| lower.strip_prefix(prefix).map(|v| make(v.to_owned())));
        match term {
            Some(t) => scoped.push(t),
            None => rest.push(word),
        }
    }
    (scoped, rest.join(" "))
}

/// The event column `header` of `row`, lower-cased (columns found by name, not position).
fn cell_text(row: &Row, header: &str) -> String {
    ktui_table::event::cell(row, header).to_ascii_lowercase()
}

/// Whether `row` passes the lens and every scoped term (rows that are not events always do).
pub fn lens_keeps(lens: &EventLens, scoped: &[Scoped], row: &Row) -> bool {
    let Some(ev) = row.event.as_deref() else {
        return true;
    };
    if lens.warnings_only && !ev.warning {
        return false;
    }
    if let Some(o) = &lens.object {
        let i = &ev.involved;
        let same = i.kind.eq_ignore_ascii_case(&o.kind)
            && i.name == o.name
            && i.namespace == o.namespace
            && (i.uid.is_empty() || o.uid.is_empty() || i.uid == o.uid);
        if !same {
            return false;
        }
    }
    scoped.iter().all(|t| match t {
        Scoped::Type(v) => cell_text(row, "TYPE") == *v,
        Scoped::Reason(v) => cell_text(row, "REASON").contains(v.as_str()),
        Scoped::Object(v) => cell_text(row, "OBJECT").contains(v.as_str()),
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use ktui_kube::builtin::BuiltinKind;
    use ktui_kube::row::RowCtx;

    fn event(name: &str, kind: &str, reason: &str) -> Row {
        let ev = json!({"metadata": {"name": name, "namespace": "a", "uid": name},
            "involvedObject": {"kind": "Pod", "name": "web-0", "namespace": "a", "uid": "u1"},
            "type": kind, "reason": reason, "message": "m",
            "lastTimestamp": "2026-11-30T10:00:00Z", "count": 1});
        ktui_table::decode_row(BuiltinKind::Event, ev.to_string().as_bytes(), &RowCtx::default()).unwrap()
    }

    #[test]
    fn scoped_terms_split_off_the_generic_filter() {
        let (scoped, rest) = split_scoped("web Type:Warning reason:Back obj:pod/web !x object:a");
        assert_eq!(
            scoped,
            [
                Scoped::Type("warning".into()),
                Scoped::Reason("back".into()),
                Scoped::Object("pod/web".into()),
                Scoped::Object("a".into()),
            ]
        );
        assert_eq!(rest, "web !x");
    }

    #[test]
    fn the_lens_and_scoped_terms_narrow_event_rows() {
        let (warning, normal) = (event("w", "Warning", "BackOff"), event("n", "Normal", "Pulled"));
        let all = EventLens::default();
        assert!(lens_keeps(&all, &[], &warning) && lens_keeps(&all, &[], &normal));
        let warnings = EventLens {
            warnings_only: true,
            object: None,
        };
        assert!(lens_keeps(&warnings, &[], &warning) && !lens_keeps(&warnings, &[], &normal));
        let (scoped, _) = split_scoped("reason:backoff type:warning obj:web-0");
        assert!(lens_keeps(&all, &scoped, &warning) && !lens_keeps(&all, &scoped, &normal));
        let (other, _) = split_scoped("obj:db-0");
        assert!(!lens_keeps(&all, &other, &warning));
    }
}
