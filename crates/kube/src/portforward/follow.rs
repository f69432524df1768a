//! Following a forward's pods through ktui's informer pool (list + watch, never polling): a
//! service or workload forward subscribes to its selector's pods and, whenever the informer
//! publishes, keeps its pod while it is ready, else re-targets the newest ready one (state
//! `reconnecting: pod replaced` until there is one); a pod forward subscribes to that pod by
//! name and is `broken: pod deleted` when the pod leaves the list. Idle forwards follow too.
//! Owns the choice of pod; must not pump bytes or draw.

use std::sync::Arc;

use crate::builtin::BuiltinKind;
use crate::key::ResourceKey;
use crate::pool::InformerPool;
use crate::row::{Health, Row};
use crate::sanitize::sanitize;
use crate::sync::SyncState;

use super::forward::Shared;
use super::target::{pod_port_by_name, PodSource, PortRef, ResolvedTarget};
use super::ForwardState;

/// What the latest rows say the forward should do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Verdict {
    /// The current pod is still there (and ready, for a selector).
    Keep,
    /// Connect to this pod from now on.
    Choose(String),
    /// A selector without a ready pod.
    NoneReady,
    /// The named pod left the list.
    Gone,
}

/// A pod row that can take connections: `Running` with every container ready (health `Ok`),
/// not `Terminating` (a pod being deleted shows that status).
pub(super) fn ready(row: &Row) -> bool {
    row.health == Health::Ok && row.cells.get(1).and_then(|c| c.literal()) == Some("Running")
}

/// Judges `rows` (the pods of the forward's informer) for the pod in use, `current`.
/// `failed` is a pod a connection could not reach: not chosen again until the rows change
/// it. A selector chooses the newest ready pod (`metadata.creationTimestamp`, then name).
pub(super) fn judge(
    rows: &[Arc<Row>],
    source: &PodSource,
    current: Option<&str>,
    failed: Option<&str>,
) -> Verdict {
    match source {
        PodSource::Named(name) => {
            if rows.iter().any(|r| *r.name == **name) {
                Verdict::Keep
            } else {
                Verdict::Gone
            }
        }
        PodSource::Selector(_) => {
            let usable = |r: &&Arc<Row>| ready(r) && Some(&*r.name) != failed;
            if let Some(cur) = current {
                if rows.iter().filter(usable).any(|r| *r.name == *cur) {
                    return Verdict::Keep;
                }
            }
            rows.iter()
                .filter(usable)
                .max_by(|a, b| a.created.cmp(&b.created).then_with(|| b.name.cmp(&a.name)))
                .map_or(Verdict::NoneReady, |r| Verdict::Choose(r.name.to_string()))
        }
    }
}

/// The informer key of a forward's pods in `ns`: by label selector, or by
/// `metadata.name=NAME` for one pod.
pub(super) fn key(ns: &str, source: &PodSource) -> ResourceKey {
    let key = ResourceKey::new(BuiltinKind::Pod, Some(ns));
    match source {
        PodSource::Named(name) => key.with_fields(&format!("metadata.name={name}")),
        PodSource::Selector(sel) => key.with_labels(sel),
    }
}

/// Follows the pods of `resolved` in `ns` until the task is aborted (the forward stops).
/// `client` reads a chosen pod's spec when the port is a container port's name.
pub(super) async fn follow(
    pool: InformerPool,
    ns: String,
    resolved: Arc<ResolvedTarget>,
    shared: Arc<Shared>,
) {
    let sub = pool.subscribe(key(&ns, &resolved.pods));
    let mut changes = sub.slot.changes();
    // Whether a pod was ever in use: losing it is "pod replaced", never having had one is
    // "no ready pod for SELECTOR".
    let mut had_pod = shared.current().is_some();
    loop {
        let snap = sub.slot.peek();
        if snap.listed {
            let rows: Vec<Arc<Row>> = match sub.filter_namespace() {
                Some(only) => snap
                    .rows
                    .iter()
                    .filter(|r| r.namespace.as_deref() == Some(only))
                    .cloned()
                    .collect(),
                None => snap.rows.to_vec(),
            };
            let current = shared.current().map(|(p, _)| p);
            let failed = shared.failed();
            match judge(&rows, &resolved.pods, current.as_deref(), failed.as_deref()) {
                Verdict::Keep => {
                    if current.is_some() && !matches!(shared.state(), ForwardState::Active) {
                        shared.set(ForwardState::Active);
                    }
                }
                Verdict::Choose(pod) => match port_on(pool.client(), &ns, &pod, &resolved.port).await {
                    Ok(port) => {
                        had_pod = true;
                        shared.choose(Some((pod, port)));
                        shared.set(ForwardState::Active);
                    }
                    Err(e) => shared.set(ForwardState::Reconnecting(e)),
                },
                Verdict::NoneReady => {
                    shared.choose(None);
                    shared.set(ForwardState::Reconnecting(match &resolved.pods {
                        _ if had_pod => "pod replaced".into(),
                        PodSource::Selector(sel) => format!("no ready pod for {}", sanitize(sel)),
                        PodSource::Named(_) => "pod replaced".into(),
                    }));
                }
                Verdict::Gone => {
                    shared.choose(None);
                    shared.set(ForwardState::Broken("pod deleted".into()));
                }
            }
        } else if let SyncState::Forbidden { .. } | SyncState::NotFound = snap.state {
            // The pods cannot be listed here: nothing will ever be chosen.
            shared.choose(None);
            shared.set(ForwardState::Broken(
                sanitize(&snap.state.to_string()).into_owned(),
            ));
        }
        tokio::select! {
            r = changes.changed() => if r.is_err() { return },
            () = shared.kicked() => {}
        }
    }
}

/// The port number on `pod` for `port`: a number as is; a container port's name looked up
/// in the pod's spec (one GET).
async fn port_on(client: &kube::Client, ns: &str, pod: &str, port: &PortRef) -> Result<u16, String> {
    match port {
        PortRef::Number(n) => Ok(*n),
        PortRef::Named(name) => pod_port_by_name(client, ns, pod, name).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::row::Cell;

    fn pod(name: &str, created: i64, status: &str, health: Health) -> Arc<Row> {
        Arc::new(Row {
            capacity: None,
            uses: None,
            origin: 0,
            namespace: Some(Arc::from("a")),
            name: name.into(),
            uid: name.into(),
            created: Some(created),
            labels: Arc::from(Vec::new()),
            cells: vec![Cell::Text("1/1".into()), Cell::Text(status.into())].into_boxed_slice(),
            health,
            drill: None,
            event: None,
            owner: None,
        })
    }

    fn sel() -> PodSource {
        PodSource::Selector("app=web".into())
    }

    #[test]
    fn a_selector_keeps_its_ready_pod_and_replaces_a_terminating_one() {
        let old = pod("web-a", 10, "Running", Health::Ok);
        let new = pod("web-b", 20, "Running", Health::Ok);
        let rows = [old.clone(), new.clone()];
        assert_eq!(judge(&rows, &sel(), Some("web-a"), None), Verdict::Keep);
        let going = pod("web-a", 10, "Terminating", Health::Warn);
        assert_eq!(
            judge(&[going.clone(), new.clone()], &sel(), Some("web-a"), None),
            Verdict::Choose("web-b".into())
        );
        let starting = pod("web-b", 20, "ContainerCreating", Health::Warn);
        assert_eq!(
            judge(&[going, starting], &sel(), Some("web-a"), None),
            Verdict::NoneReady
        );
        assert_eq!(judge(&[], &sel(), Some("web-a"), None), Verdict::NoneReady);
    }

    #[test]
    fn a_selector_chooses_the_newest_ready_pod_but_not_one_that_failed() {
        let rows = [
            pod("web-a", 10, "Running", Health::Ok),
            pod("web-b", 30, "Running", Health::Ok),
            pod("web-c", 40, "Running", Health::Warn),
        ];
        assert_eq!(judge(&rows, &sel(), None, None), Verdict::Choose("web-b".into()));
        assert_eq!(
            judge(&rows, &sel(), Some("web-b"), Some("web-b")),
            Verdict::Choose("web-a".into())
        );
    }

    #[test]
    fn a_named_pod_is_kept_while_listed_and_gone_after() {
        let named = PodSource::Named("db-0".into());
        let rows = [pod("db-0", 1, "Terminating", Health::Warn)];
        assert_eq!(judge(&rows, &named, Some("db-0"), None), Verdict::Keep);
        assert_eq!(judge(&[], &named, Some("db-0"), None), Verdict::Gone);
    }

    #[test]
    fn keys_select_by_labels_or_by_name() {
        let k = key("a", &sel());
        assert_eq!(k.labels.as_deref(), Some("app=web"));
        let k = key("a", &PodSource::Named("db-0".into()));
        assert_eq!(k.fields.as_deref(), Some("metadata.name=db-0"));
        assert_eq!(k.namespace.as_deref(), Some("a"));
    }
}
