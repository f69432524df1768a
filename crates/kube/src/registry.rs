//! `Registry`: the kinds a context offers, from its last discovery — resolves what a user
//! typed after `:` to one [`Kind`] the way kubectl does, and lists names for completion.
//! Owns naming rules; must not call the API (that is `super::discovery`).

use std::sync::Arc;

use super::builtin::BuiltinKind;
use super::discovery::{BrokenGroup, Discovery};
use super::kind::{ApiResource, Kind};

/// Where the registry's knowledge comes from.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Known {
    /// Discovery has not answered yet: only built-in kinds resolve.
    #[default]
    BuiltinsOnly,
    /// From a discovery run.
    Discovered,
    /// Discovery failed (one line); only built-in kinds resolve.
    Failed(String),
}

/// Why a name did not resolve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResolveError {
    /// Nothing by that name.
    Unknown,
    /// Several resources of different groups share the name; the full names to type instead.
    Ambiguous(Vec<String>),
    /// The server offers it, but it cannot be listed and watched.
    NotListable(String),
}

/// The resources of one context.
#[derive(Debug, Clone, Default)]
pub struct Registry {
    /// Every discovered resource (built-ins ktui has columns for are [`Kind::Builtin`]).
    pub kinds: Vec<Kind>,
    /// Resources in their groups' other versions, resolved only by `plural.version.group`.
    pub other_versions: Vec<Kind>,
    /// Groups whose discovery failed.
    pub broken: Vec<BrokenGroup>,
    /// Why CRD printer columns are unknown, if they are.
    pub crd_error: Option<String>,
    /// Where this knowledge comes from.
    pub known: Known,
}

impl Registry {
    /// The registry before discovery: the built-in kinds.
    pub fn builtins() -> Self {
        Registry {
            kinds: BuiltinKind::ALL.into_iter().map(Kind::from).collect(),
            ..Default::default()
        }
    }

    /// The registry after discovery failed: built-ins, and why.
    pub fn failed(reason: String) -> Self {
        Registry {
            known: Known::Failed(reason),
            ..Self::builtins()
        }
    }

    /// The registry of a discovery run. Resources ktui has hand-written columns for become
    /// [`Kind::Builtin`]; built-ins the server did not list are kept (a restricted account's
    /// discovery is still complete, but a proxy may filter it).
    pub fn from_discovery(d: Discovery) -> Self {
        let kind_of = |r: Arc<ApiResource>| match r.builtin() {
            Some(b) => Kind::Builtin(b),
            None => Kind::Api(r),
        };
        let mut kinds: Vec<Kind> = d.resources.into_iter().map(kind_of).collect();
        for b in BuiltinKind::ALL {
            let i = b.info();
            if !kinds
                .iter()
                .any(|k| k.group() == i.group && k.plural() == i.plural)
            {
                kinds.push(Kind::Builtin(b));
            }
        }
        Registry {
            kinds,
            other_versions: d.other_versions.into_iter().map(kind_of).collect(),
            broken: d.broken,
            crd_error: d.crd_error,
            known: Known::Discovered,
        }
    }

    /// Carries over from `previous` what this discovery could not read: the resources of a
    /// group that failed this time (a flapping aggregated API must not close its views as
    /// deleted) and, when the CRD list failed, the printer columns known before.
    pub fn inherit(&mut self, previous: &Registry) {
        if self.known != Known::Discovered || previous.known != Known::Discovered {
            return;
        }
        for b in &self.broken {
            let lost = previous
                .kinds
                .iter()
                .filter(|k| resource_of(k).api_version() == b.group_version && self.current(k).is_none());
            let lost: Vec<Kind> = lost.cloned().collect();
            self.kinds.extend(lost);
        }
        if self.crd_error.is_some() {
            for k in &mut self.kinds {
                let before = previous
                    .current(k)
                    .and_then(Kind::api)
                    .filter(|p| p.from_crd)
                    .cloned();
                let Kind::Api(r) = k else { continue };
                if let Some(p) = before.filter(|_| r.columns.is_empty()) {
                    let r = Arc::make_mut(r);
                    r.columns = p.columns.clone();
                    r.from_crd = true;
                }
            }
        }
    }

    /// Whether `other` offers exactly the same (names, verbs, columns, scope, failures).
    pub fn same_as(&self, other: &Registry) -> bool {
        let all = |r: &Registry| r.kinds.iter().map(resource_of).collect::<Vec<_>>();
        let others = |r: &Registry| r.other_versions.iter().map(resource_of).collect::<Vec<_>>();
        self.known == other.known
            && self.broken == other.broken
            && self.crd_error == other.crd_error
            && all(self) == all(other)
            && others(self) == others(other)
    }

    /// Resolves a typed name, case-insensitively: plural, singular, kind or short name, each
    /// optionally qualified by its group (`deployments.apps`, `gz.demo.ktui.dev`) or by
    /// version and group (`deployments.v1.apps`). When several resources match, built-ins win,
    /// then the core group (`events` is core/v1, not events.k8s.io); otherwise the name is
    /// ambiguous.
    pub fn resolve(&self, typed: &str) -> Result<Kind, ResolveError> {
        let t = typed.trim().to_ascii_lowercase();
        let mut found: Vec<&Kind> = self.kinds.iter().filter(|k| matches(k, &t)).collect();
        if found.is_empty() {
            // `plural.version.group` naming a version that is not the preferred one.
            found = self.other_versions.iter().filter(|k| matches(k, &t)).collect();
        }
        if found.len() > 1 {
            found.sort_by_key(|k| (k.builtin().is_none(), !k.group().is_empty()));
            let best = (found[0].builtin().is_some(), found[0].group().is_empty());
            let next = (found[1].builtin().is_some(), found[1].group().is_empty());
            if best == next {
                let mut names: Vec<String> = found.iter().map(|k| k.full_name()).collect();
                names.sort();
                names.dedup();
                return Err(ResolveError::Ambiguous(names));
            }
        }
        let kind = found.first().ok_or(ResolveError::Unknown)?;
        match kind.api() {
            Some(r) if !r.listable() => Err(ResolveError::NotListable(kind.full_name())),
            _ => Ok((*kind).clone()),
        }
    }

    /// The discovered resource with the same group and plural as `kind` (a CRD's columns may
    /// have changed); `None` when the server no longer offers it.
    pub fn current(&self, kind: &Kind) -> Option<&Kind> {
        self.kinds
            .iter()
            .find(|k| k.group() == kind.group() && k.plural() == kind.plural())
    }

    /// The discovered resource with the same group, plural and version as `kind` (its
    /// columns may have changed), whether that version is the preferred one or not; `None`
    /// when that version is no longer served.
    pub fn same_version(&self, kind: &Kind) -> Option<&Kind> {
        self.kinds.iter().chain(&self.other_versions).find(|k| {
            k.group() == kind.group() && k.plural() == kind.plural() && k.version() == kind.version()
        })
    }

    /// What a view of `kind` is called in its title: `plural.group` (the plural for
    /// built-ins and core), or `plural.version.group` when `kind` is another version than
    /// the one the server prefers (`widgets.v1beta1.example.com`), as it is typed after `:`.
    pub fn title(&self, kind: &Kind) -> String {
        match self.current(kind) {
            Some(k) if k.version() != kind.version() => {
                format!("{}.{}.{}", kind.plural(), kind.version(), kind.group())
            }
            _ => kind.to_string(),
        }
    }

    /// Names to complete after `:`: plurals, `plural.group` and short names. Sorted, without
    /// duplicates.
    pub fn names(&self) -> Vec<String> {
        let mut out = Vec::new();
        for k in &self.kinds {
            if k.api().is_some_and(|r| !r.listable()) {
                continue;
            }
            out.push(k.plural().to_owned());
            out.push(k.full_name());
            match k {
                Kind::Builtin(b) => out.extend(b.info().short.iter().map(|s| s.to_string())),
                Kind::Api(r) => out.extend(r.short.iter().cloned()),
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// The resources of [`Registry::listing`] whose name, short names, group or kind contain
    /// `filter` (case-insensitive); all of them for an empty filter.
    pub fn listing_matching(&self, filter: &str) -> Vec<(Kind, Arc<ApiResource>)> {
        let f = filter.trim().to_lowercase();
        let mut all = self.listing();
        if !f.is_empty() {
            all.retain(|(_, r)| {
                [&r.plural, &r.group, &r.kind.to_lowercase()]
                    .into_iter()
                    .chain(&r.short)
                    .any(|s| s.to_lowercase().contains(&f))
            });
        }
        all
    }

    /// Every resource, for `:api-resources`, in kubectl's order (core, then by group, then
    /// by name).
    pub fn listing(&self) -> Vec<(Kind, Arc<ApiResource>)> {
        let mut out: Vec<(Kind, Arc<ApiResource>)> =
            self.kinds.iter().map(|k| (k.clone(), resource_of(k))).collect();
        out.sort_by(|(_, a), (_, b)| {
            (!a.group.is_empty(), &a.group, &a.plural).cmp(&(!b.group.is_empty(), &b.group, &b.plural))
        });
        out
    }
}

/// The discovery facts of any kind (built-ins as `kubectl api-resources` shows them).
pub fn resource_of(k: &Kind) -> Arc<ApiResource> {
    match k {
        Kind::Api(r) => r.clone(),
        Kind::Builtin(b) => {
            let i = b.info();
            Arc::new(ApiResource {
                group: i.group.into(),
                version: i.version.into(),
                plural: i.plural.into(),
                singular: i.singular.into(),
                kind: i.kind.into(),
                short: i.short.iter().map(|s| s.to_string()).collect(),
                namespaced: i.namespaced,
                verbs: ["list", "watch", "get"].map(String::from).to_vec(),
                ..Default::default()
            })
        }
    }
}

fn matches(k: &Kind, t: &str) -> bool {
    let short: Vec<&str> = match k {
        Kind::Builtin(b) => b.info().short.to_vec(),
        Kind::Api(r) => r.short.iter().map(String::as_str).collect(),
    };
    let kind = k.kind_name().to_ascii_lowercase();
    let names = [k.plural(), k.singular(), kind.as_str()]
        .into_iter()
        .chain(short)
        .filter(|n| !n.is_empty());
    let group = k.group();
    let version = k.version();
    let found = names.into_iter().any(|n| {
        t == n || {
            match t.strip_prefix(n).and_then(|r| r.strip_prefix('.')) {
                Some(rest) if !group.is_empty() => {
                    rest == group
                        || rest.strip_prefix(version).and_then(|r| r.strip_prefix('.')) == Some(group)
                }
                _ => false,
            }
        }
    });
    found
}

#[cfg(test)]
mod tests;
