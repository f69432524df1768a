//! The list-watch loop under repeated faults, against the scripted API server in paused
//! time: a server that answers every watch with 410 Gone gets one immediate relist, then
//! relists that back off like any other failure (issue 13, break 5: `gone=1` made 54
//! relists in 30 s).

use std::time::Duration;

use tokio::time::Instant;

use crate::scripted_api::*;

#[tokio::test(start_paused = true)]
async fn repeated_410s_back_off_after_the_first_immediate_relist() {
    let mut h = start();
    let mut gaps = Vec::new();
    let mut gone_at: Option<Instant> = None;
    for i in 0..8u64 {
        let (uri, send) = next(&mut h.handle).await;
        assert!(!is_watch(&uri), "a list after each 410: {uri}");
        if let Some(t) = gone_at {
            gaps.push(t.elapsed());
        }
        respond(send, 200, list_body(vec![pod("a", 1, "Running")], 10 + i, None));
        let (uri, send) = next(&mut h.handle).await;
        assert!(is_watch(&uri), "{uri}");
        respond(send, 200, watch_body(&[ev("ERROR", status(410, "Expired"))]));
        gone_at = Some(Instant::now());
    }
    assert_eq!(gaps[0], Duration::ZERO, "the first 410 relists at once: {gaps:?}");
    assert!(
        gaps[1] >= Duration::from_millis(500),
        "the second waits: {gaps:?}"
    );
    assert!(gaps[5] >= Duration::from_secs(8), "the wait grows: {gaps:?}");
    assert!(
        gaps[6] >= Duration::from_secs(15) && gaps[6] <= Duration::from_secs(30),
        "to the cap: {gaps:?}"
    );
    h.task.abort();
}

#[tokio::test(start_paused = true)]
async fn a_watch_event_between_410s_makes_the_next_relist_immediate_again() {
    let mut h = start();
    let mut gone_at: Option<Instant> = None;
    for round in 0..4u64 {
        let (uri, send) = next(&mut h.handle).await;
        assert!(!is_watch(&uri), "{uri}");
        if let Some(t) = gone_at {
            assert_eq!(
                t.elapsed(),
                Duration::ZERO,
                "round {round}: progress was made, relist at once"
            );
        }
        respond(
            send,
            200,
            list_body(vec![pod("a", 1, "Running")], 10 + round * 10, None),
        );
        let (_, send) = next(&mut h.handle).await;
        respond(
            send,
            200,
            watch_body(&[
                ev("MODIFIED", pod("a", 11 + round * 10, "Running")),
                ev("ERROR", status(410, "Expired")),
            ]),
        );
        gone_at = Some(Instant::now());
    }
    h.task.abort();
}
