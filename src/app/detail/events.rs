//! Which events a describe view shows: the key of a small events informer narrowed
//! server-side by `involvedObject` field selectors (the rendering is
//! `crate::detail::events`). Pure; must not do I/O.

use crate::kube::builtin::BuiltinKind;
use crate::kube::key::ResourceKey;

/// The events informer of one object: `involvedObject.kind` and `.name` (and the namespace
/// for namespaced objects; cluster-scoped objects' events may be in any namespace).
pub fn key_for(object: &ResourceKey, name: &str) -> ResourceKey {
    let fields = format!(
        "involvedObject.kind={},involvedObject.name={}",
        escape(object.kind.kind_name()),
        escape(name)
    );
    ResourceKey::new(BuiltinKind::Event, object.namespace.as_deref()).with_fields(&fields)
}

/// Escapes a field-selector value (`\\`, `,` and `=` are syntax there); custom resources'
/// names may hold them.
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        if matches!(c, '\\' | ',' | '=') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_events_key_names_the_object_with_selector_syntax_escaped() {
        let object = ResourceKey::new(BuiltinKind::Pod, Some("a"));
        let key = key_for(&object, "web");
        assert_eq!(
            key.to_string(),
            "events@a involvedObject.kind=Pod,involvedObject.name=web"
        );
        let odd = key_for(&object, r"a,b=c\d");
        assert_eq!(
            odd.fields.as_deref(),
            Some(r"involvedObject.kind=Pod,involvedObject.name=a\,b\=c\\d")
        );
    }
}
