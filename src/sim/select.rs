//! Label and field selectors as the API server parses and applies them, over the few fields the
//! store indexes per object ([`Meta`]). Owns parsing and matching; must not touch objects' JSON.

use super::kinds::SimKind;

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

/// One requirement of a label selector.
#[derive(Debug, Clone, PartialEq, Eq)]
enum LabelReq {
    Eq(String, String),
    NotEq(String, String),
    In(String, Vec<String>),
    NotIn(String, Vec<String>),
    Exists(String),
    NotExists(String),
}

/// A parsed `labelSelector` (`app=web,tier in (a,b),!canary`); empty matches everything.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LabelSelector(Vec<LabelReq>);

impl LabelSelector {
    /// Parses the selector syntax of the API; the error is the message of a 400 answer.
    pub fn parse(s: &str) -> Result<Self, String> {
        let mut reqs = Vec::new();
        for term in split_top_level(s) {
            let t = term.trim();
            if t.is_empty() {
                continue;
            }
            reqs.push(parse_label_term(t).ok_or_else(|| format!("unable to parse requirement: {t:?}"))?);
        }
        Ok(LabelSelector(reqs))
    }

    /// Whether an object with these labels is selected.
    pub fn matches(&self, meta: &Meta) -> bool {
        self.0.iter().all(|r| match r {
            LabelReq::Eq(k, v) => meta.label(k) == Some(v.as_str()),
            LabelReq::NotEq(k, v) => meta.label(k) != Some(v.as_str()),
            LabelReq::In(k, vs) => meta.label(k).is_some_and(|l| vs.iter().any(|v| v == l)),
            LabelReq::NotIn(k, vs) => !meta.label(k).is_some_and(|l| vs.iter().any(|v| v == l)),
            LabelReq::Exists(k) => meta.label(k).is_some(),
            LabelReq::NotExists(k) => meta.label(k).is_none(),
        })
    }
}

fn split_top_level(s: &str) -> Vec<&str> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0i32, 0usize);
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

fn valid_key(k: &str) -> bool {
    !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c))
}

fn parse_label_term(t: &str) -> Option<LabelReq> {
    if let Some(k) = t.strip_prefix('!') {
        let k = k.trim();
        return valid_key(k).then(|| LabelReq::NotExists(k.to_owned()));
    }
    for (op, neg) in [(" notin ", true), (" in ", false)] {
        if let Some((k, rest)) = t.split_once(op) {
            let inner = rest.trim().strip_prefix('(')?.strip_suffix(')')?;
            let vals: Vec<String> = inner.split(',').map(|v| v.trim().to_owned()).collect();
            let k = k.trim().to_owned();
            if !valid_key(&k) {
                return None;
            }
            return Some(if neg {
                LabelReq::NotIn(k, vals)
            } else {
                LabelReq::In(k, vals)
            });
        }
    }
    let (k, v, neg) = if let Some((k, v)) = t.split_once("!=") {
        (k, v, true)
    } else if let Some((k, v)) = t.split_once("==") {
        (k, v, false)
    } else if let Some((k, v)) = t.split_once('=') {
        (k, v, false)
    } else {
        return valid_key(t).then(|| LabelReq::Exists(t.to_owned()));
    };
    let (k, v) = (k.trim().to_owned(), v.trim().to_owned());
    if !valid_key(&k) {
        return None;
    }
    Some(if neg {
        LabelReq::NotEq(k, v)
    } else {
        LabelReq::Eq(k, v)
    })
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
    use crate::sim::kinds::{id, KINDS};

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
