//! Unit tests of the RBAC gate's questions, the revisions view's rollback, and read-only
//! mode enumerated over every action in every kind of view. Helpers are the parent module's.

use super::*;

#[test]
fn the_gate_asks_once_per_ttl_for_what_the_view_offers() {
    let mut f = pods(&["web"]);
    let now = std::time::Instant::now();
    let asked = crate::app::writes::access::wanted(&mut f.state, now);
    let perms: Vec<String> = asked.iter().map(|q| q.permission.to_string()).collect();
    assert_eq!(
        perms,
        [
            "delete pods in team-a",
            "update pods in team-a",
            "create pods/exec in team-a",
            "create pods/attach in team-a",
            "create pods/portforward in team-a"
        ]
    );
    assert!(crate::app::writes::access::wanted(&mut f.state, now).is_empty());
}

type Build = Box<dyn Fn() -> UiState>;

fn on_pods(screen: impl Fn() -> Screen + 'static) -> Build {
    Box::new(move || {
        let mut st = pods(&["x"]).state;
        st.push(screen());
        st.take_effects();
        st
    })
}

/// Every kind of view (a list of every built-in kind with a selected row, and every other
/// `Screen` variant, the describe flavour of the detail view too), as builders. The match
/// below has no catch-all: a new `Screen` variant fails to compile here until it joins.
fn every_screen() -> Vec<(String, Build)> {
    let mut out: Vec<(String, Build)> = Vec::new();
    for kind in BuiltinKind::ALL {
        let build: Build =
            Box::new(move || fixture(kind, &["x"], vec![Cell::Static("Running")], "dev").state);
        out.push((format!("list of {kind}"), build));
    }
    let detail = |describe: bool| {
        move || {
            let mut d = crate::app::detail::model::DetailState::new(
                ResourceKey::new(BuiltinKind::Pod, Some("team-a")),
                "x",
            );
            d.describe = describe;
            Screen::Yaml(Box::new(d))
        }
    };
    let builds: Vec<Build> = vec![
        on_pods(|| Screen::Informers { selected: 0 }),
        on_pods(|| Screen::Contexts { selected: 0 }),
        on_pods(|| Screen::Forwards { selected: 0 }),
        on_pods(|| Screen::Pulse(Box::new(crate::app::pulse::model::PulseState::new(None)))),
        on_pods(|| Screen::Revisions(Box::new(two_revisions()))),
        on_pods(|| Screen::ApiResources {
            selected: 0,
            filter: String::new(),
        }),
        on_pods(|| {
            Screen::Can(Box::new(crate::app::can::model::CanState::new(
                crate::app::can::model::CanMode::WhoCan(crate::kube::rbac::Ask {
                    verb: "delete".into(),
                    group: String::new(),
                    resource: "pods".into(),
                    subresource: String::new(),
                    namespace: Some("team-a".into()),
                }),
            )))
        }),
        on_pods(detail(false)),
        on_pods(detail(true)),
        on_pods(|| {
            Screen::Containers(Box::new(crate::app::containers::model::ContainersState::new(
                "team-a", "x",
            )))
        }),
        Box::new(xray_of_pods),
        on_pods(|| {
            Screen::Logs(Box::new(crate::app::logs::model::LogsState::new(
                crate::kube::logs::LogTarget {
                    namespace: "team-a".into(),
                    pods: crate::kube::logs::PodPick::Named("x".into()),
                    containers: crate::kube::logs::ContainerPick::Default,
                },
                "pod/x".into(),
                Default::default(),
            )))
        }),
    ];
    let mut seen = Vec::new();
    for build in builds {
        let name = name_of(build().top());
        seen.push(name);
        out.push((name.to_owned(), build));
    }
    for variant in [
        "list",
        "informers",
        "contexts",
        "api-resources",
        "yaml",
        "describe",
        "logs",
        "containers",
        "forwards",
        "revisions",
        "can",
        "xray",
    ] {
        assert!(
            variant == "list" || seen.contains(&variant),
            "{variant} is not enumerated"
        );
    }
    out
}

/// deployment/web in team-a at revision 2 (in use) with revision 1 before it.
fn two_revisions() -> crate::app::history::model::RevisionsState {
    use crate::kube::write::rollback::Revision;
    let rev = |n: u64, image: &str| Revision {
        number: n,
        replicaset: format!("web-{n}"),
        change_cause: None,
        images: vec![image.into()],
        created: Some(1_700_000_000),
    };
    crate::app::history::model::RevisionsState {
        target: Target::new(BuiltinKind::Deployment.into(), Some("team-a"), "web"),
        revisions: vec![rev(2, "app:2"), rev(1, "app:1")],
        selected: 1,
        rollout: None,
        owner_uid: None,
        seen: 0,
    }
}

#[test]
fn enter_in_the_revisions_view_asks_then_rolls_back_to_that_revision() {
    let mut f = pods(&["web"]);
    f.state.push(Screen::Revisions(Box::new(two_revisions())));
    // The one in use is refused.
    press(&mut f.state, "k");
    let fx = press(&mut f.state, "enter");
    assert!(fx.is_empty() && f.state.screens.overlays.dialog.is_none());
    assert_eq!(
        f.state.screens.footer.message.as_deref(),
        Some("revision 2 is the one deployment/web runs; choose an earlier one")
    );
    press(&mut f.state, "j");
    press(&mut f.state, "enter");
    let d = f.state.screens.overlays.dialog.as_ref().expect("a dialog");
    assert_eq!(d.title, "roll back deployment/web?");
    assert!(
        d.lines.iter().any(|l| l.contains("dev")),
        "names the context: {:?}",
        d.lines
    );
    let fx = press(&mut f.state, "n");
    assert!(writes(&fx).is_empty() && f.state.screens.overlays.dialog.is_none());
    press(&mut f.state, "enter");
    let fx = press(&mut f.state, "y");
    assert!(
        matches!(&writes(&fx)[..], [WriteOp::Rollback(t, 1)] if t.name == "web"),
        "{fx:?}"
    );
}

/// The name of a view; no catch-all, so every `Screen` variant must be named (and then
/// enumerated above).
fn name_of(s: &Screen) -> &'static str {
    match s {
        Screen::List(_) => "list",
        Screen::Informers { .. } => "informers",
        Screen::Contexts { .. } => "contexts",
        Screen::ApiResources { .. } => "api-resources",
        Screen::Yaml(y) if y.describe => "describe",
        Screen::Yaml(_) => "yaml",
        Screen::Logs(_) => "logs",
        Screen::Containers(_) => "containers",
        Screen::Forwards { .. } => "forwards",
        Screen::Revisions(_) => "revisions",
        Screen::Can(_) => "can",
        Screen::Pulse(_) => "pulse",
        Screen::Xray(_) => "xray",
    }
}

/// `:xray pods` over the pods fixture's rows, pod `x` selected.
fn xray_of_pods() -> UiState {
    let mut st = pods(&["x"]).state;
    let slot = st
        .top_list()
        .and_then(|l| l.source.as_ref())
        .map(|s| s.slot.clone());
    let x = crate::app::xray::model::XrayState::new(BuiltinKind::Pod, Some("team-a".into()), None);
    let id = st.push(Screen::Xray(Box::new(x)));
    st.take_effects();
    if let Some(slot) = slot {
        assert!(st.attach(id, crate::app::state::Feed::Rows(Source::fixed(slot))));
    }
    crate::app::refresh_top::refresh_top(&mut st);
    assert!(matches!(st.top(), Screen::Xray(x) if x.lines.len() == 1));
    st
}

#[test]
fn writes_exist_somewhere_when_not_read_only() {
    let offered: usize = every_screen()
        .iter()
        .map(|(_, build)| {
            let s = build();
            Action::ALL
                .iter()
                .filter(|(a, _)| a.writes() && s.applies(*a))
                .count()
        })
        .sum();
    assert!(
        offered >= 10,
        "the enumeration reaches the write actions ({offered})"
    );
}

#[test]
fn read_only_reaches_no_write_in_any_view_by_any_key() {
    for (name, build) in every_screen() {
        let mut s = build();
        s.settings.readonly = true;
        if let Some(l) = s.top_list_mut() {
            // Marked rows too.
            let row = l.cache.selected_row(0);
            if let Some(r) = row {
                l.marks.toggle(&r);
            }
        }
        for (action, an) in Action::ALL {
            if action.writes() {
                assert!(!s.applies(action), "{an} applies in read-only {name}");
                assert!(!s.offers(action), "{an} offered in read-only {name}");
            }
        }
        // Every key of every mode, dispatched, opens no dialog and sends no write.
        let km = s.settings.keymap.clone();
        for (mode, _) in KeyMode::ALL {
            for b in km.bindings(mode) {
                if matches!(b.run, Action::Quit) {
                    continue;
                }
                let mut st = build();
                st.settings.readonly = true;
                let mut fx = Vec::new();
                for k in &b.seq {
                    fx.extend(on_key(&mut st, *k));
                }
                fx.extend(update(&mut st, b.run));
                assert!(
                    writes(&fx).is_empty(),
                    "{} ({:?}) wrote in read-only {name}",
                    b.on,
                    b.run
                );
                assert!(
                    st.screens.overlays.dialog.is_none(),
                    "{} opened a dialog in read-only {name}",
                    b.on
                );
            }
        }
    }
}
