//! Tests of the demo scenario's pause: a pause returns only once the tick or churn batch in
//! progress has finished writing (the convergence harness compares against the paused state).

use std::time::Duration;

use tokio_util::sync::CancellationToken;

use super::*;
use crate::store::StoreConfig;

/// A pause lands while a churn batch is writing (a batch of 2,000 load-pod changes is in
/// progress as soon as the revision moves): once `set_live(false)` returns, no further write
/// may reach the store, or a caller's snapshot of the "final" state is already stale.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pausing_waits_for_the_write_in_progress() {
    let store = Store::new(StoreConfig::default());
    let opts = DemoOptions {
        pods: 200,
        churn: 20_000,
        tick: Duration::from_secs(3600),
        ..DemoOptions::default()
    };
    let cancel = CancellationToken::new();
    let setup = store.revision();
    let control = start(store.clone(), &opts, cancel.clone()).unwrap();
    let populated = store.revision();
    assert!(populated > setup);
    while store.revision() == populated {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    control.set_live(false);
    let paused = store.revision();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        store.revision(),
        paused,
        "the store changed after set_live(false) returned"
    );
    cancel.cancel();
}
