//! Who may write, against `ktui --demo`: the demo's viewer context (`--demo --context
//! ktui-demo-viewer`: get, list and watch only) is not offered delete and is told
//! `forbidden: …` without a request, and `--readonly` leaves no write action in the footer or
//! the `?` help of any view — the write actions enumerated from the embedded keymap
//! (`Action::writes`), not a hand-picked list.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use ktui::keys::{Action, KeyMode, Keymap};

use crate::e2e_demo_actions::{demo, CTRL_D};
use crate::util::{row_of, state_words, Ktui, SLOW};

/// Help lines and footer hints of the write actions in force in `mode` (its own bindings and
/// its fallback's): `(descs, footer keys)`. A desc or key that `mode` also binds to an action
/// that does not write is left out: that one may be shown. `stop_forward` (ctrl-d) applies
/// only in the `:pf` view, which is not visited here.
fn writes_of(mode: KeyMode) -> (BTreeSet<String>, BTreeSet<String>) {
    let km = Keymap::defaults();
    let (w, r): (Vec<_>, Vec<_>) = km
        .effective(mode)
        .into_iter()
        .filter(|b| b.run != Action::StopForward)
        .partition(|b| b.run.writes());
    let shown_desc: BTreeSet<&str> = r.iter().map(|b| b.desc.as_str()).collect();
    let shown_key: BTreeSet<&str> = r.iter().map(|b| b.on.as_str()).collect();
    let descs = w
        .iter()
        .map(|b| b.desc.as_str())
        .filter(|d| !shown_desc.contains(d))
        .map(str::to_owned)
        .collect();
    let keys = w
        .iter()
        .map(|b| b.on.as_str())
        .filter(|k| !shown_key.contains(k))
        .map(|k| format!("<{k}>"))
        .collect();
    (descs, keys)
}

/// [`writes_of`] for a view that may be in any of `modes`: what writes in all of them.
fn write_bindings(modes: &[KeyMode]) -> (BTreeSet<String>, BTreeSet<String>) {
    let mut it = modes.iter().map(|m| writes_of(*m));
    let first = it.next().unwrap_or_default();
    it.fold(first, |(d, k), (d2, k2)| (&d & &d2, &k & &k2))
}

/// The footer (last line) and the `?` help of the view on screen; help closed again.
fn footer_and_help(k: &mut Ktui) -> (String, String) {
    let footer = k.lines().last().cloned().unwrap_or_default();
    k.type_keys("?");
    k.wait_for("Keys", SLOW);
    let help = k.screen();
    assert!(
        !help.contains("help 1-") || help.lines().any(help_is_whole),
        "help does not fit: the test must see all of it\n{help}"
    );
    k.press_esc();
    k.wait_gone("Keys", SLOW);
    (footer, help)
}

/// Whether a help title `help 1-N/M` shows all its lines (N == M).
fn help_is_whole(line: &str) -> bool {
    let Some(at) = line.find("help 1-") else {
        return false;
    };
    let rest = &line[at + "help 1-".len()..];
    let mut parts = rest
        .split(|c: char| !c.is_ascii_digit())
        .filter(|p| !p.is_empty());
    matches!((parts.next(), parts.next()), (Some(a), Some(b)) if a == b)
}

#[test]
fn readonly_offers_no_write_in_the_footer_or_help_of_any_view() {
    let (descs, keys) = write_bindings(&[KeyMode::Normal]);
    assert!(
        descs.len() >= 10 && keys.contains("<ctrl-d>") && keys.contains("<s>"),
        "the keymap's write actions: {descs:?} {keys:?}"
    );
    let mut k = demo(&["--readonly", "-c", "pods"], 80);
    k.wait_for("[read-only]", SLOW);
    let mut seen = Vec::new();
    let mut check = |k: &mut Ktui, view: &str, modes: &[KeyMode]| {
        let (descs, keys) = write_bindings(modes);
        let (footer, help) = footer_and_help(k);
        for d in &descs {
            assert!(!help.contains(d.as_str()), "{view}: help offers {d:?}\n{help}");
        }
        for key in &keys {
            assert!(
                !footer.contains(key.as_str()),
                "{view}: footer offers {key}: {footer}"
            );
        }
        seen.push(view.to_owned());
    };
    // Every namespace, so each list has rows to act on (and so actions to offer).
    for (view, kind) in [
        ("pods", "pods"),
        ("deploy", "deployments"),
        ("sts", "statefulsets"),
        ("ds", "daemonsets"),
        ("rs", "replicasets"),
        ("jobs", "jobs"),
        ("cj", "cronjobs"),
        ("nodes", "nodes"),
        ("svc", "services"),
        ("cm", "configmaps"),
        ("secrets", "secrets"),
        ("pvc", "persistentvolumeclaims"),
        ("ns", "namespaces"),
        ("pdb", "poddisruptionbudgets"),
        ("ev", "events"),
        ("gizmos", "gizmos"),
        ("crd", "customresourcedefinitions"),
    ] {
        k.command(view);
        k.wait_until(&format!("{view} listed"), SLOW, |s| {
            state_words(s).first().is_some_and(|w| w.starts_with(kind)) && s.contains("● live")
        });
        check(&mut k, view, &[KeyMode::Normal]);
    }
    // The views of one object, opened from a running pod.
    k.command("pods");
    k.type_keys("/'cart-");
    k.press_enter();
    k.wait_until("a cart pod", SLOW, |s| {
        s.lines().any(|l| l.contains("cart-") && l.contains("Running"))
    });
    const NORMAL: &[KeyMode] = &[KeyMode::Normal];
    const DETAIL: &[KeyMode] = &[KeyMode::Detail];
    const EITHER: &[KeyMode] = &[KeyMode::Normal, KeyMode::Detail];
    for (keys_in, what, view, modes) in [
        ("y", "yaml pod/cart-", "yaml", DETAIL),
        ("d", "describe pod/cart-", "describe", DETAIL),
        ("l", "logs pod/cart-", "logs", &[KeyMode::Logs]),
        ("E", "events(", "object events", NORMAL),
        ("h", "history pod/cart-", "history", EITHER),
        ("b", "blame pod/cart-", "blame", EITHER),
        ("\r", "containers of pod/cart-", "containers", NORMAL),
    ] {
        k.type_keys(keys_in);
        k.wait_for(what, SLOW);
        check(&mut k, view, modes);
        k.press_esc();
        k.wait_gone(what, SLOW);
    }
    assert_eq!(seen.len(), 24, "{seen:?}");
    // The keys themselves do nothing that writes: no dialog opens.
    for key in [CTRL_D, b"\x0b".as_slice(), b"e", b"s"] {
        k.send(key);
        std::thread::sleep(Duration::from_millis(300));
        assert!(
            !k.screen().contains("y yes · n/esc no"),
            "a dialog opened in read-only:\n{}",
            k.screen()
        );
    }
}

#[test]
fn the_viewer_context_is_not_offered_delete_and_is_told_forbidden() {
    let mut k = demo(&["--context", "ktui-demo-viewer", "-n", "shop", "-c", "pods"], 70);
    k.wait_for("context: ktui-demo-viewer", SLOW);
    k.type_keys("/^cart-");
    k.press_enter();
    k.wait_until("a cart pod", SLOW, |s| {
        s.lines().any(|l| l.contains("cart-") && l.contains("Running"))
    });
    // The gate asks the server (SelfSubjectAccessReview) in the background; once it knows,
    // neither the footer nor help offers delete.
    let t0 = Instant::now();
    loop {
        let (footer, help) = footer_and_help(&mut k);
        if !footer.contains("<ctrl-d>") && !help.contains("ctrl-d") {
            break;
        }
        assert!(
            t0.elapsed() < SLOW,
            "the viewer is still offered delete\n{footer}\n{help}"
        );
        std::thread::sleep(Duration::from_millis(300));
    }
    let name = k
        .screen()
        .lines()
        .find_map(|l| {
            l.trim_start_matches('│')
                .split_whitespace()
                .next()
                .filter(|n| n.starts_with("cart-"))
                .map(str::to_owned)
        })
        .unwrap();
    k.send(CTRL_D);
    k.wait_for("forbidden: delete pods in shop", SLOW);
    assert!(
        !k.screen().contains("y yes · n/esc no"),
        "a dialog opened for the viewer\n{}",
        k.screen()
    );
    // Nothing was sent: the pod stays as it was.
    std::thread::sleep(Duration::from_secs(3));
    assert!(
        row_of(&k.screen(), &name).is_some_and(|r| r.contains("Running")),
        "\n{}",
        k.dump()
    );
    // Scale is refused the same way on deployments (patch deployments/scale).
    k.command("deploy");
    k.wait_until("the deployments", SLOW, |s| row_of(s, "cart").is_some());
    k.type_keys("/^cart");
    k.press_enter();
    k.wait_for("</^cart>", SLOW);
    let t0 = Instant::now();
    loop {
        k.type_keys("s");
        std::thread::sleep(Duration::from_millis(300));
        if k.screen().contains("forbidden:") {
            break;
        }
        if k.screen().contains("y yes · n/esc no") {
            k.press_esc();
        }
        assert!(t0.elapsed() < SLOW, "scale not refused\n{}", k.dump());
    }
    let s = k.screen();
    assert!(
        s.contains("forbidden: patch deployments/scale in shop")
            || s.contains("forbidden: update deployments/scale in shop"),
        "\n{s}"
    );
}
