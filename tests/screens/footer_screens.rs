//! The footer wraps what does not fit one line: the "no shell here" offer (the prompt
//! pre-filled with `exec …`, then the `:debug` line to type) is read whole at 60, 80 and 200
//! columns, in at most five lines, the list above keeping its rows; a message longer than
//! three lines ends in `…`.

use ktui::app::state::{ListState, Screen, Source, UiState};
use ktui::kube::builtin::BuiltinKind;
use ktui::kube::exec::ExecTarget;
use ktui::kube::key::ResourceKey;
use ktui::kube::row::RowCtx;
use ktui::kube::store::{Slot, StoreWriter};
use ktui::table::decode_row;
use serde_json::json;

use crate::screen::{self, render};

fn pods_state() -> UiState {
    let key = ResourceKey::new(BuiltinKind::Pod, None);
    let slot = Slot::new(key.clone(), 1);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let mut w = StoreWriter::new(slot.clone(), tx);
    w.init();
    for name in ["distroless-api-6d5f7c9b8-qx2lp", "web-7d9f8b6c5d-x2x9k"] {
        let o = serde_json::to_vec(&json!({
            "metadata": {"name": name, "namespace": "shop", "uid": format!("u-{name}"),
                         "resourceVersion": "1", "creationTimestamp": "2026-11-30T10:00:00Z"},
            "spec": {"containers": [{"name": "app", "image": "gcr.io/distroless/static"}]},
            "status": {"phase": "Running"}
        }))
        .unwrap();
        w.init_apply(decode_row(BuiltinKind::Pod, &o, &RowCtx::default()).unwrap());
    }
    w.init_done(Some("9".into()));
    let mut list = ListState::new(key, None);
    list.source = Some(Source::fixed(slot));
    let mut state = screen::ui_state(Screen::List(Box::new(list)), None, false);
    screen::connect(&mut state, "prod-eu");
    state
}

/// The lines under the list's box (its bottom border `└…┘`).
fn footer(lines: &[String]) -> Vec<String> {
    let bottom = lines
        .iter()
        .rposition(|l| l.starts_with('└'))
        .expect("a boxed list");
    lines[bottom + 1..]
        .iter()
        .map(|l| l.trim_end().to_owned())
        .collect()
}

#[test]
fn the_no_shell_offer_is_read_whole_at_every_width() {
    let target = ExecTarget {
        context: None,
        namespace: "shop".into(),
        pod: "distroless-api-6d5f7c9b8-qx2lp".into(),
        container: Some("app".into()),
    };
    // A longer namespace and container make the prompt itself take two lines at 60.
    let coredns = ExecTarget {
        context: None,
        namespace: "kube-system".into(),
        pod: "coredns-beegbbbbhf-594xh".into(),
        container: Some("coredns".into()),
    };
    for (w, h) in [(60, 20), (80, 24)] {
        let mut state = pods_state();
        ktui::app::session::command::offer(&mut state, &coredns, "coredns", "bash, ash, sh");
        let foot = footer(&screen::screen_lines(&render(&mut state, w, h)));
        let text = foot.join(" ");
        assert!(
            text.contains(
                ":debug pod/coredns-beegbbbbhf-594xh -n kube-system -c coredns --image busybox:1.36"
            ),
            "{w}x{h}: the :debug line is cut: {foot:?}"
        );
    }
    for (w, h) in [(60, 20), (80, 24), (200, 50)] {
        let mut state = pods_state();
        ktui::app::session::command::offer(&mut state, &target, "app", "bash, ash, sh");
        let term = render(&mut state, w, h);
        let lines = screen::screen_lines(&term);
        let foot = footer(&lines);
        assert!(foot.len() <= 5, "{w}x{h}: {foot:?}");
        let text = foot.join(" ");
        assert!(
            text.starts_with(":exec pod/distroless-api-6d5f7c9b8-qx2lp -n shop -c app --"),
            "{w}x{h}: {foot:?}"
        );
        assert!(
            text.contains("debug pod/distroless-api-6d5f7c9b8-qx2lp -n shop -c app --image busybox:1.36"),
            "{w}x{h}: the :debug line is cut: {foot:?}"
        );
        assert!(
            !text.contains('…') || text.contains("command…"),
            "{w}x{h}: {foot:?}"
        );
        assert!(
            lines.iter().any(|l| l.contains("web-7d9f8b6c5d-x2x9k")),
            "{w}x{h}: the rows stay:\n{}",
            lines.join("\n")
        );
        insta::assert_snapshot!(format!("no_shell_offer_{w}x{h}"), foot.join("\n"));
    }
}

#[test]
fn a_message_longer_than_five_lines_ends_marked() {
    let mut state = pods_state();
    state.screens.footer.message = Some(format!("watch failed: {}", "connection refused; ".repeat(20)));
    let term = render(&mut state, 60, 20);
    let foot = footer(&screen::screen_lines(&term));
    assert_eq!(foot.len(), 5, "{foot:?}");
    assert!(foot[4].ends_with('…'), "{foot:?}");
    // A message that fits keeps one line.
    state.screens.footer.message = Some("deleted pod/web".into());
    let term = render(&mut state, 60, 20);
    assert_eq!(footer(&screen::screen_lines(&term)), ["deleted pod/web"]);
}
