//! Issue 37, "nothing that erodes trust", in a pty against the demo cluster: keys written in
//! one burst (pasted, fast-typed) are acted on in order, also across a view switch whose rows
//! have not arrived yet; `esc` after a `:` command stays on the view it opened.

use std::time::Duration;

use crate::util::*;

fn demo(rows: u16) -> Ktui {
    let dir = tempfile::tempdir().unwrap();
    let k = ktui_with(&dir.path().join("no-kubeconfig"), &["--demo"], rows);
    k.wait_for("Running", SLOW);
    k
}

#[test]
fn a_burst_after_a_command_acts_on_the_new_lists_rows_in_order() {
    for attempt in 0..3 {
        let mut k = demo(30);
        // One write: the command, a move and a drill-in.
        k.send(":no\rj\r");
        k.wait_until(
            &format!("pods of the second node (attempt {attempt})"),
            SLOW,
            |s| s.contains("pods of node/worker-1"),
        );
        k.command("q");
        assert!(k.wait_exit(SLOW).is_some());
    }
}

#[test]
fn a_burst_across_two_views_keeps_its_order() {
    let mut k = demo(30);
    // Deployments, down twice, back to nodes, down to the last: every key lands in order.
    k.send(":deploy\rjj:no\rG\r");
    k.wait_until("pods of the last node", SLOW, |s| {
        s.contains("pods of node/worker-4")
    });
    std::thread::sleep(Duration::from_millis(200));
    k.command("q");
    assert!(k.wait_exit(SLOW).is_some());
}
