//! Unit tests of the stream actions' gates and flows: shell, attach and port-forward refused
//! with why by RBAC or read-only mode, "run a command…" when no shell exists, the `:pf`
//! view's keys and the debug-container dialog. Helpers are the parent module's.

use super::*;

#[test]
fn forbidden_shell_attach_and_port_forward_say_why_and_send_nothing() {
    let mut f = pods(&["web"]);
    for (action, key, says) in [
        (Action::Shell, "s", "forbidden: create pods/exec in team-a"),
        (Action::Attach, "a", "forbidden: create pods/attach in team-a"),
        (
            Action::PortForward,
            "F",
            "forbidden: create pods/portforward in team-a",
        ),
    ] {
        let q = crate::app::writes::access::query(&f.state, action).unwrap();
        assert!(f.state.offers(action));
        f.state
            .conn
            .access
            .answer(q, Ok(false), std::time::Instant::now());
        assert!(!f.state.offers(action), "{action:?} not offered");
        let fx = press(&mut f.state, key);
        assert!(fx.is_empty(), "{action:?}: nothing sent, got {fx:?}");
        assert_eq!(f.state.screens.footer.message.as_deref(), Some(says));
    }
}

#[test]
fn without_a_shell_the_prompt_offers_to_run_a_command() {
    use crate::app::session::model::{Prepared, SessionRequest};
    use crate::app::session::prepared;
    use crate::kube::exec::{ExecTarget, Resolved, SessionKind, ShellSearch};
    let mut f = pods(&["web"]);
    let target = ExecTarget {
        context: None,
        namespace: "team-a".into(),
        pod: "web".into(),
        container: None,
    };
    let resolved = Resolved {
        container: "app".into(),
        windows: false,
        tty: false,
    };
    let fx = prepared(
        &mut f.state,
        Prepared {
            request: SessionRequest {
                target: target.clone(),
                kind: SessionKind::Shell,
            },
            found: Ok((resolved, Some(ShellSearch::None(vec!["bash", "ash", "sh"])))),
        },
    );
    assert!(fx.is_empty());
    assert_eq!(
        f.state.screens.footer.message.as_deref(),
        Some(
            "no shell in app (tried bash, ash, sh): type a command after --, \
             or :debug pod/web -n team-a -c app --image busybox:1.36"
        )
    );
    typed(&mut f.state, "/busybox ls -l");
    let fx = press(&mut f.state, "enter");
    let req = fx
        .iter()
        .find_map(|e| match e {
            Effect::PrepareSession(r) => Some(r),
            _ => None,
        })
        .expect("the command runs");
    assert_eq!(
        req.kind,
        SessionKind::Command(vec!["/busybox".into(), "ls".into(), "-l".into()])
    );
    assert_eq!(req.target.container.as_deref(), Some("app"));
    // Typed in read-only mode, nothing runs.
    f.state.settings.readonly = true;
    crate::app::command::run(&mut f.state, "exec pod/web -- ls", false);
    assert!(f.state.take_effects().is_empty());
    assert_eq!(
        f.state.screens.footer.message.as_deref(),
        Some("exec: read-only: nothing was run")
    );
}

#[test]
fn a_typed_port_forward_starts_nothing_in_read_only_mode() {
    let mut f = pods(&["web"]);
    crate::app::command::run(&mut f.state, "pf pod/web -n team-a 8080:80", false);
    let fx = f.state.take_effects();
    assert!(fx.iter().any(|e| matches!(e, Effect::StartForward(_))), "{fx:?}");
    f.state.settings.readonly = true;
    crate::app::command::run(&mut f.state, "pf pod/web -n team-a 8080:80", false);
    let fx = f.state.take_effects();
    assert!(fx.is_empty(), "{fx:?}");
    assert_eq!(
        f.state.screens.footer.message.as_deref(),
        Some("read-only: port-forwards are off; nothing was started")
    );
    // Listing them is no write.
    crate::app::command::run(&mut f.state, "pf", false);
    assert!(matches!(f.state.top(), Screen::Forwards { .. }));
}

#[test]
fn the_port_forwards_view_moves_with_j_k_and_the_arrows() {
    use crate::kube::portforward::{ForwardInfo, ForwardState};
    let mut f = pods(&["web"]);
    let fwd = |id: u64| ForwardInfo {
        id,
        local: std::net::SocketAddr::from(([127, 0, 0, 1], 8000 + id as u16)),
        target: format!("pod/web:{id}"),
        state: ForwardState::Active,
        pod: Some("web".into()),
        open: 0,
        total: 0,
        bytes_in: 0,
        bytes_out: 0,
    };
    f.state.screens.layout.forwards = vec![fwd(1), fwd(2), fwd(3)];
    crate::app::command::run(&mut f.state, "pf", false);
    let selected = |s: &UiState| match s.top() {
        Screen::Forwards { selected } => *selected,
        _ => panic!("not the forwards view"),
    };
    assert_eq!(selected(&f.state), 0);
    press(&mut f.state, "j");
    assert_eq!(selected(&f.state), 1);
    press(&mut f.state, "down");
    assert_eq!(selected(&f.state), 2);
    press(&mut f.state, "j");
    assert_eq!(selected(&f.state), 2, "stays on the last");
    press(&mut f.state, "k");
    assert_eq!(selected(&f.state), 1);
    press(&mut f.state, "up");
    assert_eq!(selected(&f.state), 0);
    press(&mut f.state, "G");
    assert_eq!(selected(&f.state), 2);
    // ctrl-d stops the selected one.
    let fx = press(&mut f.state, "ctrl-d");
    assert!(fx.iter().any(|e| matches!(e, Effect::StopForward(3))), "{fx:?}");
}

#[test]
fn a_debug_container_is_confirmed_naming_the_context_then_prepared() {
    use crate::kube::exec::SessionKind;
    let mut f = pods(&["web"]);
    crate::app::command::run(&mut f.state, "debug pod/web -n team-a -c app", false);
    let d = f.state.screens.overlays.dialog.as_ref().expect("a dialog");
    assert_eq!(d.title, "add a debug container to pod/web?");
    assert!(d.lines.contains(&"context: dev".to_owned()), "{:?}", d.lines);
    assert!(
        d.lines
            .contains(&"image: busybox:1.36, sharing the processes of container app".to_owned()),
        "{:?}",
        d.lines
    );
    assert!(!d.yes, "no is selected");
    // enter takes the selected button: no.
    let fx = press(&mut f.state, "enter");
    assert!(f.state.screens.overlays.dialog.is_none());
    assert!(
        !fx.iter().any(|e| matches!(e, Effect::PrepareSession(_))),
        "{fx:?}"
    );
    crate::app::command::run(
        &mut f.state,
        "debug pod/web -n team-a -c app --image alpine:3.20",
        false,
    );
    let fx = press(&mut f.state, "y");
    let req = fx
        .iter()
        .find_map(|e| match e {
            Effect::PrepareSession(r) => Some(r),
            _ => None,
        })
        .expect("confirmed: the preparation adds the container");
    assert_eq!(
        req.kind,
        SessionKind::Debug {
            image: "alpine:3.20".into()
        }
    );
    assert_eq!(req.target.container.as_deref(), Some("app"));
    // Read-only: refused, nothing asked.
    f.state.settings.readonly = true;
    crate::app::command::run(&mut f.state, "debug pod/web -n team-a", false);
    assert!(f.state.screens.overlays.dialog.is_none());
    assert_eq!(
        f.state.screens.footer.message.as_deref(),
        Some("debug: read-only: nothing was started")
    );
}

#[test]
fn a_forbidden_debug_container_is_neither_offered_nor_asked() {
    let mut f = pods(&["web"]);
    let q = crate::app::session::debug::query(&f.state, "team-a").unwrap();
    assert_eq!(
        q.permission.to_string(),
        "patch pods/ephemeralcontainers in team-a"
    );
    f.state
        .conn
        .access
        .answer(q, Ok(false), std::time::Instant::now());
    crate::app::command::run(&mut f.state, "debug pod/web -n team-a", false);
    assert!(f.state.screens.overlays.dialog.is_none());
    assert_eq!(
        f.state.screens.footer.message.as_deref(),
        Some("forbidden: patch pods/ephemeralcontainers in team-a")
    );
}
