//! The union's state: its members (context, origin, connection, read-only), the colour tag of
//! each, and what a union list reads ([`UnionFeed`]: one source per member). Plain state; must
//! not import `UiState`, perform I/O or draw.

use std::sync::Arc;

use crate::app::feed::Source;
use crate::kube::store::Snapshot;

/// One context of the union.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// The kubeconfig context's name.
    pub context: String,
    /// What its rows carry in `Row::origin`: 0 when it is the context in use (its informers
    /// are the session's), else its place in the union from 1.
    pub origin: u16,
    /// Connecting, connected or failed (with the reason, in words).
    pub status: Link,
    /// `[context."name"] readonly = true` (or `--readonly`): no write goes to it, even when
    /// another member of the union takes writes.
    pub readonly: bool,
}

/// A member's connection, as far as the UI knows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Link {
    /// Its client is being built.
    Connecting,
    /// A client exists.
    Connected,
    /// No client could be built (or the build took too long): why, in words.
    Failed(String),
}

/// The contexts shown at once. Exists while a union is open (`:ctx all`, `:ctx a,b`,
/// `--context a,b`, `--all-contexts`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Fleet {
    /// In the order asked (the kubeconfig's for `all`); origins are unique.
    pub members: Vec<Member>,
    /// Contexts left out and why (`ktui-demo-viewer: same server as ktui-demo`), said once.
    pub skipped: Vec<String>,
    /// A write over several clusters: the answers still awaited, and those that came (one
    /// line per cluster, failures first), so the footer says what each cluster did.
    pub batch: (usize, Vec<(bool, String)>),
}

impl Fleet {
    /// The member whose rows carry `origin`.
    pub fn by_origin(&self, origin: u16) -> Option<&Member> {
        self.members.iter().find(|m| m.origin == origin)
    }

    /// The member named `context`.
    pub fn by_name(&self, context: &str) -> Option<&Member> {
        self.members.iter().find(|m| m.context == context)
    }

    /// The member named `context`, mutable.
    pub fn by_name_mut(&mut self, context: &str) -> Option<&mut Member> {
        self.members.iter_mut().find(|m| m.context == context)
    }

    /// The context name of `origin` (empty when the union has no such member).
    pub fn name(&self, origin: u16) -> &str {
        self.by_origin(origin).map_or("", |m| m.context.as_str())
    }

    /// Per member, its origin and context name sanitized for drawing (names come from the
    /// kubeconfig, which is untrusted).
    pub fn names(&self) -> Vec<(u16, Arc<str>)> {
        self.members
            .iter()
            .map(|m| {
                (
                    m.origin,
                    Arc::from(crate::kube::sanitize::sanitize(&m.context).as_ref()),
                )
            })
            .collect()
    }

    /// The colour slot of `origin` (0..[`TAGS`]): its place in the union, so a cluster keeps
    /// its colour for the union's life.
    pub fn tag(&self, origin: u16) -> usize {
        self.members.iter().position(|m| m.origin == origin).unwrap_or(0) % TAGS
    }
}

/// How many distinct colour tags the CONTEXT column cycles through.
pub const TAGS: usize = 6;

/// What one member gives a union list: its informer's read side, once the loop subscribed.
pub struct MemberFeed {
    /// The member's origin.
    pub origin: u16,
    /// Its rows (attached by the loop once the member is connected).
    pub source: Option<Source>,
}

/// The read side of a union list: one source per member and the merged snapshot of the
/// last refresh (see `fleet::union::refresh`).
pub struct UnionFeed {
    /// Per member, in the union's order.
    pub members: Vec<MemberFeed>,
    /// `(epoch, rev)` of each member's snapshot the merge was built from (`None`: none yet).
    pub(crate) built_from: Vec<Option<(u64, u64)>>,
    /// The merged snapshot: every member's rows, ordered by (namespace, name, origin).
    pub merged: Option<Arc<Snapshot>>,
    /// Bumped per merge: the merged snapshot's `rev` (memoisation downstream keys on it).
    pub(crate) rev: u64,
    /// The members the merge was narrowed to by the filter's `ctx:` terms (`None`: all).
    pub(crate) only: Option<Vec<u16>>,
}

impl UnionFeed {
    /// A feed waiting for `origins`' sources.
    pub fn new(origins: impl IntoIterator<Item = u16>) -> UnionFeed {
        let members: Vec<MemberFeed> = origins
            .into_iter()
            .map(|origin| MemberFeed { origin, source: None })
            .collect();
        UnionFeed {
            built_from: vec![None; members.len()],
            members,
            merged: None,
            rev: 0,
            only: None,
        }
    }

    /// Hands member `origin` its source; false when the union has no such member.
    pub fn attach(&mut self, origin: u16, source: Source) -> bool {
        match self.members.iter_mut().find(|m| m.origin == origin) {
            Some(m) => {
                m.source = Some(source);
                true
            }
            None => false,
        }
    }

    /// Each member's latest snapshot (`None` before its source is attached), in order.
    pub fn snapshots(&self) -> Vec<(u16, Option<Arc<Snapshot>>)> {
        self.members
            .iter()
            .map(|m| (m.origin, m.source.as_ref().map(|s| s.slot.load())))
            .collect()
    }
}
