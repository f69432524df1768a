//! Runs confirmed writes for the loop: each `WriteOp` becomes one task on the network
//! runtime calling `crate::kube::write`, with its outcome sent back as an [`Event`] (a
//! footer line, drain steps, RBAC answers, revisions). Owns spawning these and phrasing
//! their outcomes; must not touch UI state (the loop applies them with `app::outcome::apply`).

use tokio::sync::mpsc::UnboundedSender;

use crate::kube::write::{self, Target, WriteError};

use crate::app::effect::{WriteOp, WriteRequest};
use crate::app::outcome::WriteEvent;
use crate::app::writes::model::AccessQuery;
use crate::runtime::run::Event;

/// Starts `req` on `net`; returns the drain task's handle for a drain (so it can be
/// cancelled).
pub fn spawn(
    net: &tokio::runtime::Handle,
    client: kube::Client,
    req: WriteRequest,
    tx: UnboundedSender<Event>,
) -> Option<tokio::task::AbortHandle> {
    if let WriteOp::Drain(node, opts) = req.op {
        let (dtx, mut drx) = tokio::sync::mpsc::unbounded_channel();
        let fwd = tx.clone();
        net.spawn(async move {
            while let Some(e) = drx.recv().await {
                if fwd.send(Event::Write(WriteEvent::Drain(e))).is_err() {
                    return;
                }
            }
        });
        let task = net.spawn(write::drain::drain(client, node, opts, dtx));
        return Some(task.abort_handle());
    }
    if let WriteOp::Replace(t, obj, rv) = req.op {
        net.spawn(async move {
            let r = write::replace::replace(&client, &t, *obj, &rv).await.map(|_| ());
            let _ = tx.send(Event::Write(WriteEvent::Replaced(r)));
        });
        return None;
    }
    net.spawn(async move {
        let result = run(&client, req.op).await;
        let _ = tx.send(Event::Write(WriteEvent::Wrote {
            context: req.context,
            summary: req.summary,
            result,
        }));
    });
    None
}

/// `label: message` for a failed write on one object of several.
fn on(t: &Target, e: WriteError) -> String {
    format!("{}: {}", t.label(), e.message)
}

/// Runs each target in turn; the count done, or the first errors (all are tried).
async fn each<F, Fut>(targets: &[Target], verb: &str, mut f: F) -> Result<String, String>
where
    F: FnMut(Target) -> Fut,
    Fut: std::future::Future<Output = Result<(), WriteError>>,
{
    let mut errors = Vec::new();
    for t in targets {
        if let Err(e) = f(t.clone()).await {
            errors.push(on(t, e));
        }
    }
    let done = targets.len() - errors.len();
    let what = match targets {
        [one] => one.label(),
        many => format!("{} {}", many.len(), many.first().map_or("", |t| t.kind.plural())),
    };
    match errors.len() {
        0 => Ok(format!("{verb} {what}")),
        n if n == targets.len() => Err(errors.join("; ")),
        _ => Err(format!("{verb} {done} of {what}; {}", errors.join("; "))),
    }
}

async fn run(client: &kube::Client, op: WriteOp) -> Result<String, String> {
    match op {
        WriteOp::Delete(targets, opts) => {
            let verb = if opts.force { "force deleted" } else { "deleted" };
            each(&targets, verb, |t| async move {
                write::delete::delete(client, &t, &opts).await
            })
            .await
        }
        WriteOp::Scale(t, n) => write::scale::scale(client, &t, n)
            .await
            .map(|_| format!("scaled {} to {n}", t.label()))
            .map_err(|e| on(&t, e)),
        WriteOp::Restart(targets) => {
            each(&targets, "restarted", |t| async move {
                write::restart::restart(client, &t).await
            })
            .await
        }
        WriteOp::Cordon(targets, on_) => {
            let verb = if on_ { "cordoned" } else { "uncordoned" };
            each(&targets, verb, |t| async move {
                write::cordon::set_unschedulable(client, &t, on_).await
            })
            .await
        }
        WriteOp::Suspend(targets, s) => {
            let verb = if s { "suspended" } else { "resumed" };
            each(&targets, verb, |t| async move {
                write::cronjob::set_suspend(client, &t, s).await
            })
            .await
        }
        WriteOp::Trigger(targets) => {
            let mut jobs = Vec::new();
            let mut errors = Vec::new();
            for t in &targets {
                match write::cronjob::trigger(client, t).await {
                    Ok(job) => jobs.push(format!("job/{job}")),
                    Err(e) => errors.push(on(t, e)),
                }
            }
            if errors.is_empty() {
                Ok(format!("created {}", jobs.join(", ")))
            } else {
                Err(errors.join("; "))
            }
        }
        WriteOp::Rollback(t, n) => write::rollback::rollback(client, &t, n)
            .await
            .map(|_| format!("rolled {} back to revision {n}", t.label()))
            .map_err(|e| on(&t, e)),
        WriteOp::Drain(t, _) => Err(format!("{}: a drain runs as its own task", t.label())),
        WriteOp::Replace(t, ..) => Err(format!("{}: a replace runs as its own task", t.label())),
    }
}

/// Asks the server about `q` on `net`.
pub fn check(net: &tokio::runtime::Handle, client: kube::Client, q: AccessQuery, tx: UnboundedSender<Event>) {
    net.spawn(async move {
        let r = write::access::can_i(&client, &q.permission)
            .await
            .map_err(|e| e.message);
        let _ = tx.send(Event::Write(WriteEvent::Access(q, r)));
    });
}

/// Fetches the revisions of deployment `t` on `net`.
pub fn revisions(net: &tokio::runtime::Handle, client: kube::Client, t: Target, tx: UnboundedSender<Event>) {
    net.spawn(async move {
        let r = write::rollback::list(&client, &t).await.map_err(|e| e.message);
        let _ = tx.send(Event::Write(WriteEvent::Revisions(t, r)));
    });
}

/// GETs the object `t` for editing on `net`.
pub fn fetch(net: &tokio::runtime::Handle, client: kube::Client, t: Target, tx: UnboundedSender<Event>) {
    net.spawn(async move {
        let r = write::get(&client, &t.path()).await.map_err(|e| e.message);
        let _ = tx.send(Event::Write(WriteEvent::EditFetched(t, r)));
    });
}
