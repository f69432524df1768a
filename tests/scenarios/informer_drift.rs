//! Drift repair when the server's resourceVersions go backwards (issue 13, break 4: after an
//! etcd restore ktui kept 37 ghosts and missed 3 objects while saying `live`), against the
//! scripted API server in paused time: a list, a bookmark or a watch event older than the
//! newest resourceVersion seen, or a probe after a failed watch that finds the server behind,
//! relists from scratch; the relist replaces the store (no ghosts) and is counted and named
//! in `:informers` (`drift repaired: 1 removed, 1 added, …`).

use crate::scripted_api::*;

/// Lists `a` and `b` at 100 and starts the watch; returns the watch's responder.
async fn listed(h: &mut Harness) -> tower_test::mock::SendResponse<http::Response<kube::client::Body>> {
    let (_, send) = next(&mut h.handle).await;
    respond(
        send,
        200,
        list_body(vec![pod("a", 90, "Running"), pod("b", 95, "Running")], 100, None),
    );
    let (uri, send) = next(&mut h.handle).await;
    assert!(is_watch(&uri) && uri.contains("resourceVersion=100"), "{uri}");
    send
}

/// Answers the relist with `a` (changed) and `c` at `rv`, and checks the store and the line.
async fn relist_repairs(h: &mut Harness, rv: u64, why: &str) {
    let (uri, send) = next(&mut h.handle).await;
    assert!(
        !is_watch(&uri) && uri.contains("limit=500"),
        "a relist from scratch: {uri}"
    );
    assert!(!uri.contains("continue="), "{uri}");
    respond(
        send,
        200,
        list_body(vec![pod("a", 50, "Pending"), pod("c", 60, "Running")], rv, None),
    );
    let (uri, _send) = next(&mut h.handle).await;
    assert!(
        is_watch(&uri) && uri.contains(&format!("resourceVersion={rv}")),
        "then a watch from the relist's resourceVersion: {uri}"
    );
    assert_eq!(names(&h.slot), ["a", "c"], "no ghost b, c not lost");
    let v = h.stats.view();
    assert_eq!(v.drift_repairs, 1);
    let (_, line) = v.last_drift.expect("the repair is named");
    assert_eq!(
        line,
        format!("drift repaired: 1 removed, 1 added, 1 changed ({why})"),
    );
}

#[tokio::test(start_paused = true)]
async fn a_relist_older_than_the_newest_resource_version_is_a_repair() {
    let mut h = start();
    let send = listed(&mut h).await;
    respond(
        send,
        200,
        watch_body(&[
            ev("MODIFIED", pod("a", 120, "Running")),
            ev("ERROR", status(410, "Expired")),
        ]),
    );
    relist_repairs(&mut h, 70, "resourceVersion went back from 120 to 70 in a list").await;
    h.task.abort();
}

#[tokio::test(start_paused = true)]
async fn an_older_bookmark_relists_from_scratch() {
    let mut h = start();
    let send = listed(&mut h).await;
    respond(
        send,
        200,
        watch_body(&[bookmark(110), bookmark(80), ev("ADDED", pod("z", 81, "Running"))]),
    );
    relist_repairs(
        &mut h,
        85,
        "resourceVersion went back from 110 to 80 in a bookmark",
    )
    .await;
    h.task.abort();
}

#[tokio::test(start_paused = true)]
async fn an_older_watch_event_is_not_applied_and_relists() {
    let mut h = start();
    let send = listed(&mut h).await;
    respond(send, 200, watch_body(&[ev("ADDED", pod("z", 70, "Running"))]));
    relist_repairs(
        &mut h,
        75,
        "resourceVersion went back from 100 to 70 in a watch event",
    )
    .await;
    h.task.abort();
}

#[tokio::test(start_paused = true)]
async fn a_probe_after_a_failed_watch_finds_the_server_restored_from_an_older_backup() {
    let mut h = start();
    let send = listed(&mut h).await;
    respond(
        send,
        200,
        watch_body(&[
            ev("MODIFIED", pod("b", 130, "Running")),
            ev("ERROR", status(500, "InternalError")),
        ]),
    );
    // The probe fails first (the server is still restarting): back off, probe again; never a
    // watch from 130 on a server that stands at 40 (it would be accepted and wait forever).
    let (uri, send) = next(&mut h.handle).await;
    assert!(is_probe(&uri), "{uri}");
    respond(
        send,
        503,
        serde_json::to_vec(&status(503, "ServiceUnavailable")).unwrap(),
    );
    let (uri, send) = next(&mut h.handle).await;
    assert!(is_probe(&uri), "{uri}");
    respond(send, 200, list_body(vec![pod("a", 20, "Running")], 40, None));
    relist_repairs(&mut h, 41, "resourceVersion went back from 130 to 40 in a probe").await;
    assert!(h.slot.peek().state.is_live());
    h.task.abort();
}

#[tokio::test(start_paused = true)]
async fn versions_that_are_not_integers_are_never_called_older() {
    let mut h = start();
    let (_, send) = next(&mut h.handle).await;
    let mut body: serde_json::Value =
        serde_json::from_slice(&list_body(vec![pod("a", 1, "Running")], 1, None)).unwrap();
    body["metadata"]["resourceVersion"] = serde_json::json!("zz-opaque");
    respond(send, 200, serde_json::to_vec(&body).unwrap());
    let (uri, send) = next(&mut h.handle).await;
    assert!(
        is_watch(&uri) && uri.contains("resourceVersion=zz-opaque"),
        "{uri}"
    );
    respond(send, 200, watch_body(&[ev("ADDED", pod("b", 5, "Running"))]));
    h.wait_until("b from the watch", |s| s.rows.iter().any(|r| &*r.name == "b"))
        .await;
    assert_eq!(h.stats.view().drift_repairs, 0);
    h.task.abort();
}

/// Verification due at every clean watch end.
fn verifying() -> Harness {
    start_with(ktui::kube::informer::InformerConfig {
        verify_every: std::time::Duration::from_nanos(1),
        ..Default::default()
    })
}

#[tokio::test(start_paused = true)]
async fn periodic_verification_repairs_what_the_watch_missed() {
    let mut h = verifying();
    let (_, send) = next(&mut h.handle).await;
    respond(
        send,
        200,
        list_body(
            vec![
                pod("a", 90, "Running"),
                pod("b", 95, "Running"),
                pod("c", 96, "Running"),
            ],
            100,
            None,
        ),
    );
    let (_, send) = next(&mut h.handle).await;
    respond(send, 200, watch_body(&[ev("MODIFIED", pod("a", 105, "Running"))]));
    // The watch ended cleanly: a verifying list (not a relist: the store stays shown).
    let (uri, send) = next(&mut h.handle).await;
    assert!(!is_watch(&uri) && uri.contains("limit=500"), "{uri}");
    // b changed at 97 and d was created at 98 without the watch saying so; c is gone; e
    // changed after the store's 105 (the watch brings it).
    respond(
        send,
        200,
        list_body(
            vec![
                pod("a", 105, "Running"),
                pod("b", 97, "Failed"),
                pod("d", 98, "Running"),
                pod("e", 110, "Running"),
            ],
            120,
            None,
        ),
    );
    let (uri, send) = next(&mut h.handle).await;
    assert!(
        is_watch(&uri) && uri.contains("resourceVersion=105"),
        "the watch resumes from where the store stands: {uri}"
    );
    assert_eq!(
        names(&h.slot),
        ["a", "b", "c", "d"],
        "b and d put right; c not yet"
    );
    respond(
        send,
        200,
        watch_body(&[ev("ADDED", pod("e", 110, "Running")), bookmark(121)]),
    );
    h.wait_until("c gone", |s| !s.rows.iter().any(|r| &*r.name == "c"))
        .await;
    assert_eq!(names(&h.slot), ["a", "b", "d", "e"]);
    let v = h.stats.view();
    assert_eq!((v.lists, v.drift_repairs), (1, 1), "no relist; one repair");
    assert_eq!(
        v.last_drift.unwrap().1,
        "drift repaired: 1 removed, 1 added, 1 changed (periodic verification)"
    );
    h.task.abort();
}

#[tokio::test(start_paused = true)]
async fn a_verification_that_the_watch_explains_repairs_nothing() {
    let mut h = verifying();
    let (_, send) = next(&mut h.handle).await;
    respond(
        send,
        200,
        list_body(vec![pod("a", 90, "Running"), pod("c", 96, "Running")], 100, None),
    );
    let (_, send) = next(&mut h.handle).await;
    respond(send, 200, watch_body(&[bookmark(101)]));
    let (_, send) = next(&mut h.handle).await;
    // c was deleted at 110, after the store's 101 and before the list's 120.
    respond(send, 200, list_body(vec![pod("a", 90, "Running")], 120, None));
    let (uri, send) = next(&mut h.handle).await;
    assert!(is_watch(&uri) && uri.contains("resourceVersion=101"), "{uri}");
    respond(
        send,
        200,
        watch_body(&[ev("DELETED", pod("c", 110, "Running")), bookmark(125)]),
    );
    h.wait_until("c deleted by the watch", |s| s.rows.len() == 1)
        .await;
    // The next clean end verifies again (due at once here); answer it to see the counters.
    let (uri, _send) = next(&mut h.handle).await;
    assert!(!is_watch(&uri), "{uri}");
    assert_eq!(h.stats.view().drift_repairs, 0, "the deletion was the watch's");
    h.task.abort();
}
