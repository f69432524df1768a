//! Informer and store scenarios against a scripted API server (a tower mock service behind a
//! real `kube::Client`) under paused tokio time: the edge cases of kube-notes.md.

use crate::scripted_api;

use std::collections::BTreeMap;
use std::time::Duration;

use ktui::kube::sync::SyncState;
use tokio::time::Instant;

use scripted_api::*;

#[tokio::test(start_paused = true)]
async fn multi_page_list_shows_rows_after_the_first_page_and_is_live_after_the_last() {
    let mut h = start();
    let (uri, send) = next(&mut h.handle).await;
    assert!(
        !is_watch(&uri) && uri.contains("limit=500") && !uri.contains("continue="),
        "{uri}"
    );
    respond(
        send,
        200,
        list_body(
            vec![pod("a", 5, "Running"), pod("b", 6, "Running")],
            10,
            Some("tok1"),
        ),
    );
    let (uri, send) = next(&mut h.handle).await;
    assert!(uri.contains("continue=tok1"), "{uri}");
    let mid = h.slot.peek();
    assert!(!mid.listed, "a partial list is never called complete");
    assert_eq!(
        names(&h.slot),
        ["a", "b"],
        "the first page shows before the second is asked for"
    );
    assert_eq!(mid.state, SyncState::Syncing { received: 2 });
    respond(send, 200, list_body(vec![pod("c", 7, "Pending")], 10, None));
    let (uri, _send) = next(&mut h.handle).await;
    assert!(
        is_watch(&uri) && uri.contains("resourceVersion=10") && uri.contains("allowWatchBookmarks=true"),
        "{uri}"
    );
    let snap = h.slot.peek();
    assert!(snap.listed);
    assert_eq!(names(&h.slot), ["a", "b", "c"]);
    assert_eq!(snap.state, SyncState::Live);
    h.task.abort();
}

#[tokio::test(start_paused = true)]
async fn clean_stream_end_resumes_from_the_last_bookmark_without_a_list() {
    let mut h = start();
    let (_, send) = next(&mut h.handle).await;
    respond(send, 200, list_body(vec![pod("a", 5, "Running")], 10, None));
    let (uri, send) = next(&mut h.handle).await;
    assert!(uri.contains("resourceVersion=10"));
    respond(
        send,
        200,
        watch_body(&[ev("ADDED", pod("b", 11, "Running")), bookmark(15)]),
    );
    let (uri, _send) = next(&mut h.handle).await;
    assert!(is_watch(&uri), "a clean end re-watches, never relists: {uri}");
    assert!(
        uri.contains("resourceVersion=15"),
        "resumes from the bookmark: {uri}"
    );
    assert_eq!(names(&h.slot), ["a", "b"]);
    let stats = h.stats.view();
    assert_eq!(stats.bookmarks, 1);
    assert_eq!(stats.lists, 1);
    assert_eq!(stats.resource_version.as_deref(), Some("15"));
    h.task.abort();
}

#[tokio::test(start_paused = true)]
async fn gone_relists_without_ghosts_or_lost_rows() {
    let mut h = start();
    let (_, send) = next(&mut h.handle).await;
    respond(
        send,
        200,
        list_body(
            vec![
                pod("a", 1, "Running"),
                pod("b", 2, "Running"),
                pod("c", 3, "Running"),
            ],
            10,
            None,
        ),
    );
    let (_, send) = next(&mut h.handle).await;
    respond(
        send,
        200,
        watch_body(&[
            ev("MODIFIED", pod("a", 11, "Failed")),
            ev("ERROR", status(410, "Expired")),
        ]),
    );
    let (uri, send) = next(&mut h.handle).await;
    assert!(!is_watch(&uri), "410 must relist: {uri}");
    // While relisting, the old rows stay on screen.
    assert_eq!(names(&h.slot), ["a", "b", "c"]);
    // b was deleted and d created during the gap.
    respond(
        send,
        200,
        list_body(
            vec![
                pod("a", 11, "Failed"),
                pod("c", 3, "Running"),
                pod("d", 15, "Running"),
            ],
            20,
            None,
        ),
    );
    let (uri, _send) = next(&mut h.handle).await;
    assert!(is_watch(&uri) && uri.contains("resourceVersion=20"), "{uri}");
    assert_eq!(names(&h.slot), ["a", "c", "d"]);
    assert_eq!(h.stats.view().lists, 2);
    h.task.abort();
}

#[tokio::test(start_paused = true)]
async fn non_gone_watch_error_keeps_the_resource_version() {
    let mut h = start();
    let (_, send) = next(&mut h.handle).await;
    respond(send, 200, list_body(vec![pod("a", 1, "Running")], 10, None));
    let (_, send) = next(&mut h.handle).await;
    respond(
        send,
        200,
        watch_body(&[
            ev("ADDED", pod("b", 12, "Running")),
            ev("ERROR", status(500, "InternalError")),
        ]),
    );
    // Before watching again, one probe of where the server stands (it did not go back).
    let (uri, send) = next(&mut h.handle).await;
    assert!(is_probe(&uri), "{uri}");
    respond(send, 200, list_body(vec![pod("a", 13, "Running")], 13, None));
    let (uri, _send) = next(&mut h.handle).await;
    assert!(is_watch(&uri) && uri.contains("resourceVersion=12"), "{uri}");
    h.task.abort();
}

#[tokio::test(start_paused = true)]
async fn persistent_503_backs_off_to_the_cap_and_says_why() {
    let mut h = start();
    let mut last = Instant::now();
    let mut gaps = Vec::new();
    let mut rev_before_answer = 0;
    for _ in 0..10 {
        let (uri, send) = next(&mut h.handle).await;
        assert!(!is_watch(&uri));
        gaps.push(last.elapsed());
        last = Instant::now();
        rev_before_answer = h.slot.peek().rev;
        respond(
            send,
            503,
            serde_json::to_vec(&status(503, "ServiceUnavailable")).unwrap(),
        );
    }
    h.wait_until("the answer to the 10th 503 to be published", |s| {
        s.rev > rev_before_answer
    })
    .await;
    let tail = &gaps[6..];
    assert!(
        tail.iter()
            .all(|g| *g >= Duration::from_secs(15) && *g <= Duration::from_secs(30)),
        "{gaps:?}"
    );
    assert!(
        gaps[1] <= Duration::from_secs(1),
        "first retry is quick: {gaps:?}"
    );
    match h.slot.peek().state.clone() {
        SyncState::Reconnecting { attempt, error, .. } => {
            assert_eq!(attempt, 10);
            assert!(error.contains("503"), "{error}");
        }
        other => panic!("unexpected state {other:?}"),
    }
    assert!(
        !h.slot.peek().listed,
        "never listed: the view must not say 'no resources'"
    );
    h.task.abort();
}

#[tokio::test(start_paused = true)]
async fn forbidden_list_is_shown_and_retried_slowly() {
    let forbidden = SyncState::Forbidden {
        verb: "list".into(),
        resource: "pods".into(),
    };
    answers_are_retried_only_at_the_cap(403, "Forbidden", 4, forbidden).await;
}

#[tokio::test(start_paused = true)]
async fn a_rejected_request_says_why_and_is_retried_slowly() {
    let rejected = SyncState::Rejected {
        reason: "unable to parse requirement: found '==' for test".into(),
    };
    answers_are_retried_only_at_the_cap(400, "unable to parse requirement: found '=='", 3, rejected).await;
}

/// The list fails `times` with `code`: each retry comes 30 s (the cap) or more after the
/// last, and the state shown is `want` every time.
async fn answers_are_retried_only_at_the_cap(code: u16, message: &str, times: usize, want: SyncState) {
    let mut h = start();
    let mut last = Instant::now();
    for i in 0..times {
        let (_, send) = next(&mut h.handle).await;
        if i > 0 {
            assert!(
                last.elapsed() >= Duration::from_secs(30),
                "no retry storm on {code}"
            );
        }
        last = Instant::now();
        respond(send, code, serde_json::to_vec(&status(code, message)).unwrap());
        h.wait_until(&format!("the state {want:?}"), |s| s.state == want)
            .await;
        assert_eq!(h.slot.peek().state, want);
    }
    h.task.abort();
}

#[tokio::test(start_paused = true)]
async fn burst_of_10k_events_gives_few_snapshots_and_the_servers_final_state() {
    let mut h = start();
    let (_, send) = next(&mut h.handle).await;
    respond(send, 200, list_body(vec![], 1, None));
    let (_, send) = next(&mut h.handle).await;
    let rev_before = h.slot.peek().rev;
    let mut expected: BTreeMap<String, String> = BTreeMap::new();
    let mut events = Vec::new();
    for i in 0..10_000u64 {
        let name = format!("p{:04}", i % 1500);
        let phase = if i % 3 == 0 { "Pending" } else { "Running" };
        if i % 7 == 0 && expected.contains_key(&name) {
            expected.remove(&name);
            events.push(ev("DELETED", pod(&name, i + 2, phase)));
        } else {
            expected.insert(name.clone(), phase.to_owned());
            events.push(ev(
                if i % 2 == 0 { "ADDED" } else { "MODIFIED" },
                pod(&name, i + 2, phase),
            ));
        }
    }
    respond(send, 200, watch_body(&events));
    let (uri, _send) = next(&mut h.handle).await;
    assert!(uri.contains("resourceVersion=10001"), "{uri}");
    let snap = h.slot.peek();
    let got: BTreeMap<String, String> = snap
        .rows
        .iter()
        .map(|r| {
            (
                r.name.to_string(),
                ktui::table::format::format_cell(&r.cells[1], 0).into_owned(),
            )
        })
        .collect();
    assert_eq!(got, expected);
    let published = snap.rev - rev_before;
    assert!(
        (1..=5).contains(&published),
        "10k events coalesced into {published} snapshots"
    );
    assert_eq!(h.stats.view().events, 10_000);
    h.task.abort();
}

#[tokio::test(start_paused = true)]
async fn a_paged_relist_never_shows_a_half_replaced_table() {
    let mut h = start();
    let (_, send) = next(&mut h.handle).await;
    respond(
        send,
        200,
        list_body(
            vec![
                pod("a", 5, "Running"),
                pod("b", 6, "Running"),
                pod("c", 7, "Running"),
            ],
            10,
            None,
        ),
    );
    let (uri, send) = next(&mut h.handle).await;
    assert!(is_watch(&uri), "{uri}");
    let before = h.slot.peek();
    assert!(before.listed);
    respond(send, 200, watch_body(&[ev("ERROR", status(410, "Expired"))]));
    // The relist, in three pages: "b" is gone, "d" is new.
    let (uri, send) = next(&mut h.handle).await;
    assert!(
        !is_watch(&uri) && !uri.contains("continue="),
        "410 relists: {uri}"
    );
    respond(send, 200, list_body(vec![pod("a", 5, "Running")], 20, Some("r1")));
    let (uri, send) = next(&mut h.handle).await;
    assert!(uri.contains("continue=r1"), "{uri}");
    let mid = h.slot.peek();
    assert!(mid.listed, "the old complete table stays listed");
    assert_eq!(
        names(&h.slot),
        ["a", "b", "c"],
        "no half-replaced table after page 1"
    );
    respond(send, 200, list_body(vec![pod("c", 7, "Running")], 20, Some("r2")));
    let (_, send) = next(&mut h.handle).await;
    assert_eq!(
        names(&h.slot),
        ["a", "b", "c"],
        "no half-replaced table after page 2"
    );
    assert!(
        mid.rows
            .iter()
            .zip(h.slot.peek().rows.iter())
            .all(|(x, y)| std::sync::Arc::ptr_eq(x, y)),
        "the very same rows"
    );
    respond(send, 200, list_body(vec![pod("d", 18, "Running")], 20, None));
    let (uri, _send) = next(&mut h.handle).await;
    assert!(is_watch(&uri) && uri.contains("resourceVersion=20"), "{uri}");
    assert_eq!(names(&h.slot), ["a", "c", "d"], "swapped in whole at the end");
    let after = h.slot.peek();
    assert!(
        std::sync::Arc::ptr_eq(&before.rows[0], &after.rows[0]),
        "unchanged rows keep their identity"
    );
    h.task.abort();
}
