//! `Kind`: what an informer lists — one of the built-in kinds with hand-written columns, or
//! any other resource the server's discovery offers (CRDs included), described by an
//! [`ApiResource`]. Owns kind identity and naming; must not evaluate printer columns (that
//! is `ktui_table`) nor call the API (that is `super::discovery`).

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use super::builtin::BuiltinKind;

/// One `additionalPrinterColumns` entry of a CustomResourceDefinition version
/// (`spec.versions[].additionalPrinterColumns[]`), as the server sent it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PrinterColumn {
    /// `name`: the header, upper-cased when drawn (kubectl does the same).
    pub name: String,
    /// `type`: `integer`, `number`, `string`, `boolean` or `date`.
    pub column_type: String,
    /// `jsonPath`, e.g. `.status.conditions[?(@.type=="Ready")].status`.
    pub json_path: String,
    /// `priority`: columns above 0 show only in the wide view.
    pub priority: i32,
}

/// A resource found by discovery (`/api/v1`, `/apis/{group}/{version}`): its GVR, names
/// and, for custom resources, the CRD's printer columns.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ApiResource {
    /// API group; empty for the core group.
    pub group: String,
    /// The group's preferred version (`v1`, `v1beta1`).
    pub version: String,
    /// `name`: the plural resource name, the `R` in GVR (`gizmos`).
    pub plural: String,
    /// `singularName`; discovery leaves it empty for some built-ins, then `kind` lowercased.
    pub singular: String,
    /// `kind` (`Gizmo`).
    pub kind: String,
    /// `shortNames` (`gz`).
    pub short: Vec<String>,
    /// `categories` (`all`).
    pub categories: Vec<String>,
    /// `namespaced`.
    pub namespaced: bool,
    /// `verbs`; a view needs `list` and `watch`.
    pub verbs: Vec<String>,
    /// Printer columns of the CRD version served (empty for non-CRDs, or when the CRD could
    /// not be read): such kinds show NAME and AGE.
    pub columns: Arc<[PrinterColumn]>,
    /// The columns came from a CRD (kubectl then shows no AGE unless the CRD defines one).
    pub from_crd: bool,
}

impl ApiResource {
    /// `group/version`, or `version` for the core group: the `apiVersion` of its objects.
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.clone()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    /// Whether a list view can show it (`list` and `watch` are allowed verbs).
    pub fn listable(&self) -> bool {
        ["list", "watch"]
            .iter()
            .all(|v| self.verbs.iter().any(|x| x == v))
    }

    /// The built-in kind with the same group, version and plural, if ktui has hand-written
    /// columns for it (another version of a built-in is listed generically).
    pub fn builtin(&self) -> Option<BuiltinKind> {
        BuiltinKind::ALL.into_iter().find(|b| {
            let i = b.info();
            i.group == self.group && i.version == self.version && i.plural == self.plural
        })
    }
}

/// The kind of objects a view lists: built-in (kubectl's columns, slim decode) or any other
/// discovered resource (printer columns or NAME/AGE, decoded generically). Equality, hash
/// and order are by GVR; two custom kinds of one GVR with different printer columns differ,
/// so an updated CRD gets a fresh informer.
#[derive(Debug, Clone)]
pub enum Kind {
    /// One of the kinds with hand-written columns.
    Builtin(BuiltinKind),
    /// Any other resource, from discovery.
    Api(Arc<ApiResource>),
}

impl From<BuiltinKind> for Kind {
    fn from(b: BuiltinKind) -> Self {
        Kind::Builtin(b)
    }
}

impl Kind {
    /// The built-in kind, if this is one.
    pub fn builtin(&self) -> Option<BuiltinKind> {
        match self {
            Kind::Builtin(b) => Some(*b),
            Kind::Api(_) => None,
        }
    }

    /// The discovered resource behind a non-built-in kind.
    pub fn api(&self) -> Option<&Arc<ApiResource>> {
        match self {
            Kind::Builtin(_) => None,
            Kind::Api(r) => Some(r),
        }
    }

    /// API group; empty for the core group.
    pub fn group(&self) -> &str {
        match self {
            Kind::Builtin(b) => b.info().group,
            Kind::Api(r) => &r.group,
        }
    }

    /// The version served and listed (`v1`; a CRD's preferred version).
    pub fn version(&self) -> &str {
        match self {
            Kind::Builtin(b) => b.info().version,
            Kind::Api(r) => &r.version,
        }
    }

    /// Plural resource name (`pods`, `gizmos`).
    pub fn plural(&self) -> &str {
        match self {
            Kind::Builtin(b) => b.info().plural,
            Kind::Api(r) => &r.plural,
        }
    }

    /// Singular name (`pod`, `gizmo`).
    pub fn singular(&self) -> &str {
        match self {
            Kind::Builtin(b) => b.info().singular,
            Kind::Api(r) => &r.singular,
        }
    }

    /// `kind` (`Pod`, `Gizmo`).
    pub fn kind_name(&self) -> &str {
        match self {
            Kind::Builtin(b) => b.info().kind,
            Kind::Api(r) => &r.kind,
        }
    }

    /// Whether objects live in a namespace.
    pub fn namespaced(&self) -> bool {
        match self {
            Kind::Builtin(b) => b.info().namespaced,
            Kind::Api(r) => r.namespaced,
        }
    }

    /// `plural.group`, or the plural for the core group: the name kubectl prints and the
    /// unambiguous name a user can type.
    pub fn full_name(&self) -> String {
        if self.group().is_empty() {
            self.plural().to_owned()
        } else {
            format!("{}.{}", self.plural(), self.group())
        }
    }

    /// Whether informers of this kind feed the event timeline instead of a row store.
    pub fn is_timeline(&self) -> bool {
        self.builtin().is_some_and(BuiltinKind::is_timeline)
    }

    /// URL path of the collection: `/api/v1/namespaces/{ns}/pods`,
    /// `/apis/demo.ktui.dev/v1/gizmos`. `namespace` is ignored for cluster-scoped kinds.
    pub fn url_path(&self, namespace: Option<&str>) -> String {
        let base = if self.group().is_empty() {
            format!("/api/{}", self.version())
        } else {
            format!("/apis/{}/{}", self.group(), self.version())
        };
        match namespace {
            Some(ns) if self.namespaced() => format!("{base}/namespaces/{ns}/{}", self.plural()),
            _ => format!("{base}/{}", self.plural()),
        }
    }

    fn identity(&self) -> (&str, &str, &str, Option<&[PrinterColumn]>) {
        let cols = self.api().map(|r| &r.columns[..]);
        (self.group(), self.version(), self.plural(), cols)
    }
}

impl PartialEq for Kind {
    fn eq(&self, other: &Self) -> bool {
        self.identity() == other.identity()
    }
}

impl Eq for Kind {}

impl PartialEq<BuiltinKind> for Kind {
    fn eq(&self, other: &BuiltinKind) -> bool {
        self.builtin() == Some(*other)
    }
}

impl Hash for Kind {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.identity().hash(state);
    }
}

impl PartialOrd for Kind {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Kind {
    fn cmp(&self, other: &Self) -> Ordering {
        self.identity().cmp(&other.identity())
    }
}

impl fmt::Display for Kind {
    /// The plural for built-ins and core resources, `plural.group` for the rest.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Kind::Builtin(b) => f.write_str(b.info().plural),
            Kind::Api(_) => f.write_str(&self.full_name()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gizmos(cols: Vec<PrinterColumn>) -> Kind {
        Kind::Api(Arc::new(ApiResource {
            group: "demo.ktui.dev".into(),
            version: "v1".into(),
            plural: "gizmos".into(),
            singular: "gizmo".into(),
            kind: "Gizmo".into(),
            namespaced: true,
            columns: cols.into(),
            ..Default::default()
        }))
    }

    #[test]
    fn custom_kinds_have_group_paths_and_compare_by_gvr_and_columns() {
        let g = gizmos(vec![]);
        assert_eq!(
            g.url_path(Some("a")),
            "/apis/demo.ktui.dev/v1/namespaces/a/gizmos"
        );
        assert_eq!(g.url_path(None), "/apis/demo.ktui.dev/v1/gizmos");
        assert_eq!(g.to_string(), "gizmos.demo.ktui.dev");
        assert_eq!(g, gizmos(vec![]));
        let col = PrinterColumn {
            name: "Color".into(),
            column_type: "string".into(),
            json_path: ".spec.color".into(),
            priority: 0,
        };
        assert_ne!(g, gizmos(vec![col]));
        assert_eq!(Kind::from(BuiltinKind::Pod), BuiltinKind::Pod);
        assert!(!g.is_timeline() && Kind::from(BuiltinKind::Event).is_timeline());
    }
}
