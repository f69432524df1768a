//! `ResourceKey`: what one informer lists and watches. Owns the identity of informers; must
//! not hold any state of the informer itself.

use std::fmt;
use std::sync::Arc;

use super::kind::Kind;

/// The identity of one informer: a kind (GVR), a scope and optional server-side selectors.
/// Two views asking for equal keys share one informer.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ResourceKey {
    /// The kind listed.
    pub kind: Kind,
    /// `Some(ns)` lists one namespace; `None` lists all namespaces (or a cluster-scoped kind).
    pub namespace: Option<Arc<str>>,
    /// Server-side `labelSelector`, e.g. `app=web` (drill-down from a workload).
    pub labels: Option<Arc<str>>,
    /// Server-side `fieldSelector`, e.g. `spec.nodeName=node-1`.
    pub fields: Option<Arc<str>>,
}

impl ResourceKey {
    /// A key for every object of `kind` in `namespace` (`None` = all namespaces). The
    /// namespace is dropped for cluster-scoped kinds so they share one informer.
    pub fn new(kind: impl Into<Kind>, namespace: Option<&str>) -> Self {
        let kind = kind.into();
        let namespace = if kind.namespaced() {
            namespace.map(Arc::from)
        } else {
            None
        };
        ResourceKey {
            kind,
            namespace,
            labels: None,
            fields: None,
        }
    }

    /// Adds a server-side label selector.
    pub fn with_labels(mut self, selector: &str) -> Self {
        self.labels = Some(Arc::from(selector));
        self
    }

    /// Adds a server-side field selector.
    pub fn with_fields(mut self, selector: &str) -> Self {
        self.fields = Some(Arc::from(selector));
        self
    }

    /// The all-namespaces key with the same kind and selectors, whose informer can serve this
    /// namespaced key by filtering.
    pub fn widened(&self) -> ResourceKey {
        ResourceKey {
            namespace: None,
            ..self.clone()
        }
    }

    /// URL path of the collection this key lists.
    pub fn url_path(&self) -> String {
        self.kind.url_path(self.namespace.as_deref())
    }
}

/// The longest namespace name the API server accepts (a DNS-1123 label).
pub const NAMESPACE_MAX: usize = 63;

/// Checks that `name` can be a namespace: a DNS-1123 label as the API server validates
/// `metadata.name` of a Namespace — 1 to 63 characters, lower-case ASCII letters, digits and
/// `-`, starting and ending with a letter or digit. Used for `-n`, `:… <ns>`, `:ns`, the
/// kubeconfig context's `namespace` and configured favourites, before any URL is built from
/// them (a name with a space made every list fail with `invalid uri character` and retry
/// forever).
///
/// # Errors
/// One line saying what is wrong, quoting `name` escaped (`"Bad Name" is not a valid
/// namespace name: a lowercase RFC 1123 label …`); an empty name says so
/// (`-A` lists all namespaces).
pub fn check_namespace(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("a namespace name cannot be empty (-A lists all namespaces)".into());
    }
    let bad = |why: &str| Err(format!("{name:?} is not a valid namespace name: {why}"));
    if name.len() > NAMESPACE_MAX {
        return bad("must be no more than 63 characters");
    }
    let b = name.as_bytes();
    let inner = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-';
    let edge = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    if !b.iter().all(inner) || !edge(&b[0]) || !edge(&b[b.len() - 1]) {
        return bad(
            "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', \
             and must start and end with an alphanumeric character (e.g. 'my-name', or '123-abc')",
        );
    }
    Ok(())
}

impl fmt::Display for ResourceKey {
    /// `pods@team-a`, `pods@*`, `nodes`, `pods@* app=web`, `pods@* spec.nodeName=n1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind)?;
        if self.kind.namespaced() {
            write!(f, "@{}", self.namespace.as_deref().unwrap_or("*"))?;
        }
        if let Some(l) = &self.labels {
            write!(f, " {l}")?;
        }
        if let Some(fs) = &self.fields {
            write!(f, " {fs}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::check_namespace;

    #[test]
    fn namespaces_are_dns_1123_labels() {
        for ok in [
            "default",
            "kube-system",
            "a",
            "123-abc",
            "team-a1",
            &"x".repeat(63),
        ] {
            assert_eq!(check_namespace(ok), Ok(()), "{ok}");
        }
        let long = "x".repeat(64);
        for bad in [
            "Bad Name",
            "Team",
            "-a",
            "a-",
            "a_b",
            "a.b",
            "ns\u{1b}[31m",
            "é",
            &long,
        ] {
            let e = check_namespace(bad).unwrap_err();
            assert!(e.contains("not a valid namespace name"), "{bad}: {e}");
            assert!(!e.contains('\u{1b}'), "the name is quoted escaped: {e}");
        }
        assert!(check_namespace("").unwrap_err().contains("cannot be empty"));
        assert!(check_namespace(&long).unwrap_err().contains("63 characters"));
    }
}
