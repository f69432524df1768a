//! The objects the real fault cycles (`fault_cycles`) run over, and the server's truth about
//! them: configmaps in one namespace, created up front, then changed by a writer — creates,
//! modifications (a label and a data key, so the row changes) and deletions at random among
//! a fixed set of names — that the cycles pause and resume; a heartbeat that touches an
//! annotation of one configmap twice a second (a busy cluster's watch always has something to
//! hear, so a short stale limit is safe, and no row changes); and the truth, a fresh paged
//! list decoded as ktui rows it. Talks to the API server directly, never through the test
//! proxy; must not look at the informer.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::StreamExt;
use k8s_openapi::api::core::v1::ConfigMap;
use ktui::kube::builtin::BuiltinKind;
use ktui::kube::row::{Row, RowCtx};
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams, PostParams};
use kube::core::Request;
use serde_json::{json, Value};
use tokio::sync::{Mutex, OwnedMutexGuard};

use crate::convergence::{keyed, Key};

/// The configmap the heartbeat touches.
pub const HEARTBEAT: &str = "heartbeat";
/// Between two changes of the writer: about 20 changes a second, gentle on a shared machine.
const WRITER_PACE: Duration = Duration::from_millis(50);

/// The namespace's configmaps, the writer and the heartbeat; the tasks stop when dropped.
pub struct World {
    client: kube::Client,
    ns: String,
    /// Held by the writer for each change; holding it here pauses the writer.
    gate: Arc<Mutex<()>>,
    paused: Option<OwnedMutexGuard<()>>,
    /// Changes the writer made (answered 2xx).
    changes: Arc<AtomicU64>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

fn configmap(name: &str, serial: u64) -> ConfigMap {
    serde_json::from_value(json!({
        "metadata": {"name": name, "labels": {"serial": serial.to_string()}},
        "data": {"a": "1", "serial": serial.to_string()},
    }))
    .unwrap()
}

/// A 404 or 409: the writer's guess about a name was wrong, nothing changed.
fn missed(e: &kube::Error) -> bool {
    matches!(e, kube::Error::Api(s) if s.code == 404 || s.code == 409)
}

impl World {
    /// Creates `objects` configmaps (`cm-00000` …) and the heartbeat's in `ns` over `client`
    /// (admin, direct), then starts the heartbeat and the writer (paused).
    pub async fn seed(client: kube::Client, ns: &str, objects: usize) -> World {
        let api: Api<ConfigMap> = Api::namespaced(client.clone(), ns);
        api.create(&PostParams::default(), &configmap(HEARTBEAT, 0))
            .await
            .expect("create the heartbeat configmap");
        let results: Vec<_> = futures::stream::iter(0..objects)
            .map(|i| {
                let api = api.clone();
                async move {
                    api.create(&PostParams::default(), &configmap(&format!("cm-{i:05}"), 0))
                        .await
                }
            })
            .buffer_unordered(8)
            .collect()
            .await;
        for r in results {
            r.expect("create a seed configmap");
        }
        let gate = Arc::new(Mutex::new(()));
        let paused = Some(gate.clone().lock_owned().await);
        let changes = Arc::new(AtomicU64::new(0));
        let tasks = vec![
            tokio::spawn(heartbeat(api.clone())),
            tokio::spawn(writer(
                api.clone(),
                gate.clone(),
                changes.clone(),
                objects * 3 / 2,
            )),
        ];
        World {
            client,
            ns: ns.to_owned(),
            gate,
            paused,
            changes,
            tasks,
        }
    }

    /// Lets the writer run.
    pub fn resume(&mut self) {
        self.paused = None;
    }

    /// Stops the writer after the change in flight (which may wait for a frozen server).
    pub async fn pause(&mut self) {
        if self.paused.is_none() {
            self.paused = Some(self.gate.clone().lock_owned().await);
        }
    }

    /// Changes the writer made so far.
    pub fn changes(&self) -> u64 {
        self.changes.load(Ordering::Relaxed)
    }

    /// Waits (at most `deadline`) until the writer made `n` more changes than `from`.
    pub async fn wait_changes(&self, from: u64, n: u64, deadline: Duration) -> bool {
        let t = Instant::now();
        while self.changes() < from + n {
            if t.elapsed() > deadline {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        true
    }

    /// The server's configmaps in the namespace as ktui rows them: a fresh paged list
    /// (retried while the server is unavailable, for at most 60 s).
    pub async fn truth(&self) -> BTreeMap<Key, Row> {
        let t = Instant::now();
        loop {
            match self.list().await {
                Ok(rows) => return rows,
                Err(e) if t.elapsed() < Duration::from_secs(60) => {
                    eprintln!("truth: list failed, retrying: {e}");
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Err(e) => panic!("truth: the API server did not answer a list for 60 s: {e}"),
            }
        }
    }

    async fn list(&self) -> Result<BTreeMap<Key, Row>, kube::Error> {
        let ctx = RowCtx::default();
        let mut rows = Vec::new();
        let mut continue_token = None;
        loop {
            let lp = ListParams {
                limit: Some(500),
                continue_token: continue_token.take(),
                ..ListParams::default()
            };
            let req = Request::new(format!("/api/v1/namespaces/{}/configmaps", self.ns))
                .list(&lp)
                .unwrap();
            let page: Value = self.client.request(req).await?;
            for item in page["items"].as_array().into_iter().flatten() {
                let bytes = serde_json::to_vec(item).unwrap();
                rows.push(
                    ktui::table::decode_row(BuiltinKind::ConfigMap, &bytes, &ctx)
                        .expect("a configmap the API server sent decodes"),
                );
            }
            match page["metadata"]["continue"].as_str() {
                Some(c) if !c.is_empty() => continue_token = Some(c.to_owned()),
                _ => return Ok(keyed(rows)),
            }
        }
    }
}

impl Drop for World {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}

/// Touches the heartbeat configmap's annotation every 500 ms; failures (a restarting or
/// frozen server) are ignored.
async fn heartbeat(api: Api<ConfigMap>) {
    let mut tick = tokio::time::interval(Duration::from_millis(500));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    for beat in 0u64.. {
        tick.tick().await;
        let patch = json!({"metadata": {"annotations": {"ktui.test/beat": beat.to_string()}}});
        let _ = api
            .patch(HEARTBEAT, &PatchParams::default(), &Patch::Merge(&patch))
            .await;
    }
}

/// Random changes among `cm-00000` … `cm-<names - 1>`: creates and modifications twice as
/// often as deletions (the population settles near two thirds of the names). A change whose
/// guess was wrong (404, 409) is not counted; other failures are retried after a pause.
async fn writer(api: Api<ConfigMap>, gate: Arc<Mutex<()>>, changes: Arc<AtomicU64>, names: usize) {
    for serial in 1u64.. {
        let name = format!("cm-{:05}", rand::random_range(0..names.max(1)));
        let op = rand::random_range(0..5u8);
        let done = {
            let _turn = gate.lock().await;
            match op {
                0 | 1 => api
                    .create(&PostParams::default(), &configmap(&name, serial))
                    .await
                    .map(drop),
                2 | 3 => {
                    let patch = json!({"metadata": {"labels": {"serial": serial.to_string()}},
                        "data": {format!("k{}", serial % 3): serial.to_string()}});
                    api.patch(&name, &PatchParams::default(), &Patch::Merge(&patch))
                        .await
                        .map(drop)
                }
                _ => api.delete(&name, &DeleteParams::default()).await.map(drop),
            }
        };
        match done {
            Ok(()) => {
                changes.fetch_add(1, Ordering::Relaxed);
            }
            Err(e) if missed(&e) => {}
            Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
        }
        tokio::time::sleep(WRITER_PACE).await;
    }
}
