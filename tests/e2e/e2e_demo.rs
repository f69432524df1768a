//! End-to-end: `ktui --demo` in a pseudo-terminal — no kubeconfig needed: the embedded demo
//! cluster comes up, running pods and a crash-looping one show, and the event timeline moves
//! on its own.
use crate::util;

use std::time::Duration;

use util::*;

#[test]
fn demo_shows_running_pods_and_live_changes() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-kubeconfig");
    let mut k = ktui_with(&missing, &["--demo"], 40);
    k.wait_until("running demo pods", SLOW, |s| {
        s.contains("ktui-demo") && s.contains("Running")
    });
    k.wait_for("CrashLoopBackOff", SLOW);
    k.command("ev all");
    k.wait_until("the demo's timeline", SLOW, |s| {
        s.contains("LAST SEEN") && s.contains("events timeline")
    });
    let before = k.screen();
    // The newest row without its LAST SEEN cell (which changes every second by itself).
    let newest = |s: &str| {
        let lines: Vec<&str> = s.lines().collect();
        let h = lines.iter().position(|l| l.contains("LAST SEEN")).unwrap_or(0);
        let row = lines.get(h + 1).copied().unwrap_or_default().trim_matches('│');
        let mut words: Vec<&str> = row.split_whitespace().collect();
        if words.len() > 1 {
            words.remove(1);
        }
        words.join(" ")
    };
    let start = newest(&before);
    k.wait_until("a new event on top", SLOW, |s| {
        newest(s) != start && !newest(s).trim().is_empty()
    });
    k.command("q");
    let (status, _) = k.wait_exit(SLOW).expect("ktui exits on :q");
    assert!(status.success(), "{status:?}");
}

#[test]
fn redraw_and_informers_navigation_never_end_the_session() {
    let dir = tempfile::tempdir().unwrap();
    let mut k = ktui_with(&dir.path().join("no-kubeconfig"), &["--demo"], 30);
    k.wait_for("Running", SLOW);
    // ctrl-l: a full redraw, without asking the terminal anything it would have to answer.
    k.send("\x0c");
    std::thread::sleep(Duration::from_millis(2500));
    assert!(k.try_wait().is_none(), "ktui ended after ctrl-l\n{}", k.dump());
    k.wait_for("Running", SLOW);
    k.command("informers");
    k.wait_for("pods@*", SLOW);
    k.type_keys("jGkgg");
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        k.try_wait().is_none(),
        "ktui ended moving in :informers\n{}",
        k.dump()
    );
    k.command("q");
    let (status, _) = k.wait_exit(SLOW).expect("ktui exits on :q");
    assert!(status.success(), "{status:?}");
}

#[test]
fn column_terms_narrow_the_demo_and_a_time_column_term_says_why_it_cannot() {
    let dir = tempfile::tempdir().unwrap();
    let mut k = ktui_with(&dir.path().join("no-kubeconfig"), &["--demo"], 30);
    k.wait_for("CrashLoopBackOff", SLOW);
    k.type_keys("/status:");
    // Incomplete: said in the prompt while typed (the filter typed before it stays applied).
    k.wait_for("incomplete term \"status:\": text expected after status:", SLOW);
    k.type_keys("Running");
    k.wait_until("only Running rows", SLOW, |s| {
        !s.contains("CrashLoopBackOff") && s.contains("Running") && !s.contains("incomplete term")
    });
    k.type_keys(" age:1");
    k.wait_for("AGE is a time column: it has no text to match", SLOW);
    // The last valid terms stay applied.
    assert!(!k.screen().contains("CrashLoopBackOff"), "{}", k.dump());
    k.press_enter();
    k.command("q");
    let (status, _) = k.wait_exit(SLOW).expect("ktui exits on :q");
    assert!(status.success(), "{status:?}");
}
