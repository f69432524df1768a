//! Label and field selectors as the API server parses and applies them, over the few fields the
//! store indexes per object ([`Meta`]). Owns parsing and matching; must not touch objects' JSON.
//!
//! Label selectors parse with ktui's own client-side parser (`ktui_view::selector`), so the
//! demo agrees with ktui by construction: a demo-tier test can prove that ktui sends a selector
//! and shows what the server selected, not that the selector means what the apiserver says it
//! means (`tests/demo_server.rs` checks a few hand-written expectations). Label selectors
//! against the real apiserver are covered by the real tier: `tests/e2e.rs` (deployment
//! drill-in) and `tests/e2e_owner.rs` (service → its pods). Field selectors (the node
//! drill-in's `spec.nodeName`) and ktui's client-side `-l` filter for set-based selectors are
//! not compared with the real apiserver by any test.

use super::kinds::SimKind;
use ktui_view::selector::{Requirement, Selector};

/// The indexed facts of one stored object: enough to route, filter and key it without
/// parsing its JSON again.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Meta {
    /// `metadata.namespace`; empty for cluster-scoped kinds.
    pub namespace: Box<str>,
    /// `metadata.name`.
    pub name: Box<str>,
    /// `metadata.labels`, in object order.
    pub labels: Box<[(Box<str>, Box<str>)]>,
    /// Values of the kind's selectable fields (see [`SimKind::fields`]); missing = `""`.
    pub fields: Box<[(&'static str, Box<str>)]>,
}

impl Meta {
    fn label(&self, key: &str) -> Option<&str> {
        self.labels.iter().find(|(k, _)| &**k == key).map(|(_, v)| &**v)
    }

    fn field(&self, label: &str) -> &str {
        match label {
            "metadata.name" => &self.name,
            "metadata.namespace" => &self.namespace,
            other => self
                .fields
                .iter()
                .find(|(k, _)| *k == other)
                .map(|(_, v)| &**v)
                .unwrap_or(""),
        }
    }
}

/// A parsed `labelSelector` (`app=web,tier in (a,b),!canary`); empty matches everything.
/// The syntax and semantics are ktui's own (`ktui_view::selector`), shared with the `-l`
/// filter.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LabelSelector(Vec<Requirement>);

impl LabelSelector {
    /// Parses the selector syntax of the API; the error is the message of a 400 answer.
    pub fn parse(s: &str) -> Result<Self, String> {
        if s.trim().is_empty() {
            return Ok(LabelSelector::default());
        }
        Selector::parse(s).map(|sel| LabelSelector(sel.requirements))
    }

    /// Whether an object with these labels is selected.
    pub fn matches(&self, meta: &Meta) -> bool {
        self.0.iter().all(|r| r.holds(|k| meta.label(k)))
    }
}

/// A parsed `fieldSelector` (`spec.nodeName=n1,metadata.namespace!=kube-system`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FieldSelector(Vec<(String, bool, String)>);

impl FieldSelector {
    /// Parses and checks every field label against what `kind` supports; the error is the
    /// message of a 400 answer (`field label not supported: ...`).
    pub fn parse(s: &str, kind: &SimKind) -> Result<Self, String> {
        let mut reqs = Vec::new();
        for term in s.split(',').map(str::trim).filter(|t| !t.is_empty()) {
            let (f, v, eq) = if let Some((f, v)) = term.split_once("!=") {
                (f, v, false)
            } else if let Some((f, v)) = term.split_once("==") {
                (f, v, true)
            } else if let Some((f, v)) = term.split_once('=') {
                (f, v, true)
            } else {
                return Err(format!("invalid selector: '{s}'; can't understand '{term}'"));
            };
            let f = f.trim();
            if !kind.supports_field(f) {
                return Err(format!("field label not supported: {f}"));
            }
            reqs.push((f.to_owned(), eq, v.trim().to_owned()));
        }
        Ok(FieldSelector(reqs))
    }

    /// Whether the object's indexed fields satisfy every term.
    pub fn matches(&self, meta: &Meta) -> bool {
        self.0.iter().all(|(f, eq, v)| (meta.field(f) == v) == *eq)
    }

    /// The namespace an `metadata.namespace=X` term pins, if any (lets a list use the
    /// namespace index).
    pub fn namespace(&self) -> Option<&str> {
        self.0
            .iter()
            .find(|(f, eq, _)| f == "metadata.namespace" && *eq)
            .map(|(_, _, v)| v.as_str())
    }
}

/// Everything a list or watch filters on.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Namespace from the URL path; `None` = all namespaces.
    pub namespace: Option<String>,
    /// `labelSelector`.
    pub labels: LabelSelector,
    /// `fieldSelector`.
    pub fields: FieldSelector,
}

impl Filter {
    /// Whether an object is selected.
    pub fn matches(&self, meta: &Meta) -> bool {
        self.namespace.as_deref().is_none_or(|ns| &*meta.namespace == ns)
            && self.labels.matches(meta)
            && self.fields.matches(meta)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::{id, KINDS};

    fn meta(labels: &[(&str, &str)], fields: &[(&'static str, &str)]) -> Meta {
        Meta {
            namespace: "shop".into(),
            name: "web-1".into(),
            labels: labels
                .iter()
                .map(|(k, v)| (Box::from(*k), Box::from(*v)))
                .collect(),
            fields: fields.iter().map(|(k, v)| (*k, Box::from(*v))).collect(),
        }
    }

    #[test]
    fn label_selector_operators() {
        let m = meta(&[("app", "web"), ("tier", "front")], &[]);
        let yes = [
            "",
            "app=web",
            "app==web",
            "app!=db",
            "tier in (front, back)",
            "tier notin (x)",
            "app",
            "!canary",
            "app=web,tier in (front),!canary",
            "missing!=x",
            "missing notin (a)",
        ];
        for s in yes {
            assert!(LabelSelector::parse(s).unwrap().matches(&m), "{s}");
        }
        let no = [
            "app=db",
            "app!=web",
            "tier in (back)",
            "tier notin (front)",
            "canary",
            "!app",
            "missing in (a)",
        ];
        for s in no {
            assert!(!LabelSelector::parse(s).unwrap().matches(&m), "{s}");
        }
        assert!(LabelSelector::parse("a in b").is_err());
        assert!(LabelSelector::parse("=x").is_err());
    }

    #[test]
    fn field_selectors_check_support_and_match() {
        let pods = &KINDS[id::POD];
        let m = meta(&[], &[("spec.nodeName", "node-1"), ("status.phase", "Running")]);
        let ok = FieldSelector::parse(
            "spec.nodeName=node-1,metadata.namespace==shop,status.phase!=Pending",
            pods,
        )
        .unwrap();
        assert!(ok.matches(&m));
        assert_eq!(ok.namespace(), Some("shop"));
        assert!(!FieldSelector::parse("metadata.name=other", pods)
            .unwrap()
            .matches(&m));
        assert!(FieldSelector::parse("spec.nodeName=", pods)
            .unwrap()
            .matches(&meta(&[], &[])));
        let err = FieldSelector::parse("spec.bogus=1", pods).unwrap_err();
        assert_eq!(err, "field label not supported: spec.bogus");
        let events = &KINDS[id::EVENT];
        assert!(FieldSelector::parse("involvedObject.kind=Pod,involvedObject.name=web-1", events).is_ok());
        assert!(FieldSelector::parse("metadata.namespace=x", &KINDS[id::NODE]).is_err());
    }
}
