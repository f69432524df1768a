//! The list-watch loop under repeated faults, against the scripted API server in paused
//! time: a server that answers every watch with 410 Gone gets one immediate relist, then
//! relists that back off like any other failure (issue 13, break 5: `gone=1` made 54
//! relists in 30 s); a failed page is fetched again with its continue token and
//! `Retry-After` is honoured, on lists and on watches (break 6); a malformed listed object is skipped and named, not
//! fatal to the list, nor in a watch stream fatal to the watch (break 9).

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

/// A pod whose `metadata.name` is the number 42.
fn malformed(rv: u64) -> serde_json::Value {
    let mut p = pod("bad", rv, "Running");
    p["metadata"]["name"] = serde_json::json!(42);
    p
}

#[tokio::test(start_paused = true)]
async fn one_malformed_object_is_skipped_and_named_and_the_rest_show() {
    let mut h = start();
    let (_, send) = next(&mut h.handle).await;
    respond(
        send,
        200,
        list_body(
            vec![pod("a", 1, "Running"), malformed(2), pod("c", 3, "Running")],
            10,
            None,
        ),
    );
    // The list is published before the watch starts (answered at once: paused time runs).
    let (_, send) = next(&mut h.handle).await;
    assert!(h.slot.peek().listed);
    assert_eq!(names(&h.slot), ["a", "c"]);
    let line = h.slot.unreadable().expect("the skipped object is named");
    assert!(
        line.starts_with("1 object could not be read: pod/default/42: invalid type: integer `42`"),
        "{line}"
    );
    // The watch starts from the list's resourceVersion: nothing blocked.
    respond(send, 200, watch_body(&[ev("ADDED", pod("d", 12, "Running"))]));
    h.wait_until("d from the watch", |s| s.rows.iter().any(|r| &*r.name == "d"))
        .await;
    h.task.abort();
}

#[tokio::test(start_paused = true)]
async fn a_failed_page_is_retried_with_its_continue_token() {
    let mut h = start();
    let (uri, send) = next(&mut h.handle).await;
    assert!(!uri.contains("continue="), "{uri}");
    respond(
        send,
        200,
        list_body(vec![pod("a", 1, "Running")], 10, Some("tok1")),
    );
    for code in [500u16, 429, 503] {
        let (uri, send) = next(&mut h.handle).await;
        assert!(
            uri.contains("continue=tok1"),
            "after a {code}, the same page again: {uri}"
        );
        respond(send, code, serde_json::to_vec(&status(code, "Flaky")).unwrap());
    }
    let (uri, send) = next(&mut h.handle).await;
    assert!(uri.contains("continue=tok1"), "{uri}");
    respond(send, 200, list_body(vec![pod("b", 2, "Running")], 10, None));
    h.wait_until("both pages", |s| s.listed).await;
    assert_eq!(names(&h.slot), ["a", "b"]);
    h.task.abort();
}

#[tokio::test(start_paused = true)]
async fn retry_after_is_honoured() {
    let mut h = start();
    let (_, send) = next(&mut h.handle).await;
    send.send_response(throttled());
    let t = Instant::now();
    let _ = next(&mut h.handle).await;
    assert!(
        t.elapsed() >= Duration::from_secs(20),
        "retried after {:?}",
        t.elapsed()
    );
    h.task.abort();
}

/// A 429 answer with `Retry-After: 20`.
fn throttled() -> http::Response<kube::client::Body> {
    let mut res = http::Response::new(kube::client::Body::from(
        serde_json::to_vec(&status(429, "TooManyRequests")).unwrap(),
    ));
    *res.status_mut() = http::StatusCode::TOO_MANY_REQUESTS;
    res.headers_mut()
        .insert(http::header::RETRY_AFTER, "20".parse().unwrap());
    res
}

/// Found while building the real fault suite (tests/real/fault_cycles.rs, whose proxy answers
/// 429 + `Retry-After`): a watch answered 429 was retried after the plain backoff, its
/// `Retry-After` dropped (only lists kept it).
#[tokio::test(start_paused = true)]
async fn retry_after_on_a_watch_is_honoured() {
    let mut h = start();
    let (_, send) = next(&mut h.handle).await;
    respond(send, 200, list_body(vec![pod("a", 1, "Running")], 10, None));
    let (uri, send) = next(&mut h.handle).await;
    assert!(is_watch(&uri), "{uri}");
    send.send_response(throttled());
    let t = Instant::now();
    let (uri, _send) = next(&mut h.handle).await;
    assert!(
        t.elapsed() >= Duration::from_secs(20),
        "{uri} sent {:?} after the throttled watch",
        t.elapsed()
    );
    h.task.abort();
}

#[tokio::test(start_paused = true)]
async fn a_malformed_object_in_the_watch_stream_is_skipped_and_named_and_the_watch_goes_on() {
    let mut h = start();
    let (_, send) = next(&mut h.handle).await;
    respond(send, 200, list_body(vec![pod("a", 1, "Running")], 10, None));
    let (_, send) = next(&mut h.handle).await;
    respond(
        send,
        200,
        watch_body(&[
            ev("ADDED", pod("b", 11, "Running")),
            ev("MODIFIED", malformed(12)),
            ev("ADDED", pod("c", 13, "Running")),
            ev("MODIFIED", malformed(14)),
        ]),
    );
    h.wait_until("c, after the malformed object", |s| {
        s.rows.iter().any(|r| &*r.name == "c")
    })
    .await;
    assert_eq!(names(&h.slot), ["a", "b", "c"]);
    let line = h.slot.unreadable().expect("the skipped object is named");
    assert!(
        line.starts_with("1 object could not be read: pod/default/42: invalid type: integer `42`"),
        "the same object twice is one entry: {line}"
    );
    // The stream ended cleanly: the watch resumes after the malformed object, not before it
    // (a resume before it would replay it forever).
    let (uri, send) = next(&mut h.handle).await;
    assert!(is_watch(&uri) && uri.contains("resourceVersion=14"), "{uri}");
    assert_eq!(h.stats.view().reconnects, 1, "one clean end, no failure");
    respond(send, 200, watch_body(&[ev("ADDED", pod("d", 15, "Running"))]));
    h.wait_until("d", |s| s.rows.iter().any(|r| &*r.name == "d"))
        .await;
    h.task.abort();
}

/// Issue 37, "lists under errors": a 20k-pod paged list at 20 % errors took 185 s, the
/// header at `reconnecting (attempt 13, 17s)`, because the backoff grew across the whole list
/// although pages succeeded between the errors. A page received is progress: the backoff
/// starts over, so a list whose every other page fails once still finishes at about one base
/// delay per failure.
#[tokio::test(start_paused = true)]
async fn pages_between_errors_keep_the_backoff_low() {
    let mut h = start();
    let started = Instant::now();
    let pages = 20u64;
    let mut worst = Duration::ZERO;
    for i in 0..pages {
        let (uri, send) = next(&mut h.handle).await;
        if i > 0 {
            assert!(uri.contains(&format!("continue=tok{i}")), "{uri}");
        }
        respond(send, 500, serde_json::to_vec(&status(500, "Flaky")).unwrap());
        let failed = Instant::now();
        let (uri, send) = next(&mut h.handle).await;
        worst = worst.max(failed.elapsed());
        if i > 0 {
            assert!(uri.contains(&format!("continue=tok{i}")), "the same page: {uri}");
        }
        let cont = format!("tok{}", i + 1);
        let last = i + 1 == pages;
        respond(
            send,
            200,
            list_body(
                vec![pod(&format!("p{i}"), i + 1, "Running")],
                100,
                (!last).then_some(cont.as_str()),
            ),
        );
    }
    h.wait_until("all pages", |s| s.listed).await;
    assert!(
        worst <= Duration::from_secs(1),
        "one failure after a page waits one base delay at most, waited {worst:?}"
    );
    assert!(
        started.elapsed() <= Duration::from_secs(20),
        "{pages} pages with a failure before each took {:?}",
        started.elapsed()
    );
    h.task.abort();
}

/// A page received after a long streak of failures is real progress too: the next failure
/// waits one base delay again (the attempt the header shows starts over).
#[tokio::test(start_paused = true)]
async fn a_page_after_a_streak_starts_the_backoff_over() {
    let mut h = start();
    let (_, send) = next(&mut h.handle).await;
    respond(
        send,
        200,
        list_body(vec![pod("a", 1, "Running")], 10, Some("tok1")),
    );
    for _ in 0..6 {
        let (uri, send) = next(&mut h.handle).await;
        assert!(uri.contains("continue=tok1"), "{uri}");
        respond(send, 500, serde_json::to_vec(&status(500, "Flaky")).unwrap());
    }
    let (_, send) = next(&mut h.handle).await;
    respond(
        send,
        200,
        list_body(vec![pod("b", 2, "Running")], 10, Some("tok2")),
    );
    let (_, send) = next(&mut h.handle).await;
    respond(send, 500, serde_json::to_vec(&status(500, "Flaky")).unwrap());
    let failed = Instant::now();
    // (The streak's own state said attempt 6.)
    let snap = h
        .wait_until(
            "reconnecting after the page",
            |s| matches!(s.state, ktui::kube::sync::SyncState::Reconnecting { attempt, .. } if attempt != 6),
        )
        .await;
    let ktui::kube::sync::SyncState::Reconnecting { attempt, .. } = snap.state else {
        unreachable!()
    };
    assert_eq!(attempt, 1, "the page started the backoff over: {:?}", snap.state);
    let (uri, send) = next(&mut h.handle).await;
    assert!(uri.contains("continue=tok2"), "{uri}");
    assert!(
        failed.elapsed() <= Duration::from_secs(1),
        "one base delay: {:?}",
        failed.elapsed()
    );
    respond(send, 200, list_body(vec![pod("c", 3, "Running")], 10, None));
    h.wait_until("listed", |s| s.listed).await;
    h.task.abort();
}

/// A page that fails again and again mid-list: the first `PAGE_RETRIES` tries come quickly
/// (the server answered the pages before), then the informer's own backoff takes over and
/// grows, and the attempt the header shows counts on across both.
#[tokio::test(start_paused = true)]
async fn a_page_failing_again_and_again_falls_back_to_the_backoff() {
    use ktui::kube::informer::{PAGE_RETRIES, PAGE_RETRY_CAP};
    let mut h = start();
    let (_, send) = next(&mut h.handle).await;
    respond(
        send,
        200,
        list_body(vec![pod("a", 1, "Running")], 10, Some("tok1")),
    );
    let tries = PAGE_RETRIES + 4;
    let mut waits = Vec::new();
    let mut failed = None::<Instant>;
    for _ in 0..tries {
        let (uri, send) = next(&mut h.handle).await;
        if let Some(at) = failed {
            waits.push(at.elapsed());
        }
        assert!(uri.contains("continue=tok1"), "{uri}");
        respond(send, 500, serde_json::to_vec(&status(500, "Flaky")).unwrap());
        failed = Some(Instant::now());
    }
    let snap = h
        .wait_until("the last failure shown", |s| {
            matches!(s.state, ktui::kube::sync::SyncState::Reconnecting { attempt, .. } if attempt == tries)
        })
        .await;
    assert!(matches!(
        snap.state,
        ktui::kube::sync::SyncState::Reconnecting { .. }
    ));
    let quick = &waits[..PAGE_RETRIES as usize];
    assert!(
        quick
            .iter()
            .all(|w| *w <= PAGE_RETRY_CAP + Duration::from_millis(50)),
        "short waits first: {waits:?}"
    );
    // Then the informer's backoff (1 s doubling, jittered to [d/2, d]): its third delay is
    // at least 2 s.
    assert!(
        waits[waits.len() - 1] >= Duration::from_secs(2),
        "then the backoff grows: {waits:?}"
    );
    h.task.abort();
}
