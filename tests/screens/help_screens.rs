//! The `?` help screen per view, generated from the keymap in use (TestBackend at 80×36,
//! fixed clock; the snapshots hold the overlay only): what it lists for pods, the event
//! timeline and the informers view; a user
//! override shows up in it and in dispatch; and cell by cell, the `mono` theme and
//! `NO_COLOR` draw no colour at all (every cell's fg and bg is `Reset`).

use std::path::Path;
use std::sync::Arc;

use ktui::app::configure;
use ktui::app::effect::Effect;
use ktui::app::state::{ListState, Screen, Source, UiState};
use ktui::app::update::update;
use ktui::config::theme::{ColorSupport, ThemeSpec};
use ktui::keys::{Action, KeyMode, KeyPress, Lookup};
use ktui::kube::builtin::BuiltinKind;
use ktui::kube::key::ResourceKey;
use ktui::kube::row::RowCtx;
use ktui::kube::store::{Slot, StoreWriter};
use ktui::table::decode_row;
use ratatui::backend::TestBackend;
use ratatui::style::Color;
use ratatui::Terminal;
use serde_json::json;

use crate::screen;

use screen::NOW;

fn pod(name: &str, phase: &str, waiting: Option<&str>) -> Vec<u8> {
    let created = jiff::Timestamp::from_second(NOW - 3600).unwrap().to_string();
    let state = match waiting {
        Some(reason) => json!({"waiting": {"reason": reason}}),
        None => json!({"running": {"startedAt": created}}),
    };
    serde_json::to_vec(&json!({
        "metadata": {"name": name, "namespace": "shop", "uid": format!("u-{name}"), "resourceVersion": "1",
                     "creationTimestamp": created},
        "spec": {"containers": [{"name": "app", "image": "nginx"}], "nodeName": "node-1"},
        "status": {"phase": phase, "containerStatuses": [{"name": "app", "ready": waiting.is_none(),
                   "restartCount": 3, "state": state}]},
    }))
    .unwrap()
}

fn slot(kind: BuiltinKind, objects: &[Vec<u8>]) -> Arc<Slot> {
    let slot = Slot::new(ResourceKey::new(kind, Some("shop")), 1);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let mut w = StoreWriter::new(slot.clone(), tx);
    w.init();
    for o in objects {
        w.init_apply(decode_row(kind, o, &RowCtx::default()).unwrap());
    }
    w.init_done(Some("100".into()));
    slot
}

fn list_state(kind: BuiltinKind, objects: &[Vec<u8>]) -> UiState {
    let mut list = ListState::new(ResourceKey::new(kind, Some("shop")), None);
    list.source = Some(Source::fixed(slot(kind, objects)));
    screen::ui_state(Screen::List(Box::new(list)), Some("shop".into()), false)
}

fn pods_state() -> UiState {
    let pods = [
        pod("web-1", "Running", None),
        pod("worker-2", "Pending", Some("ContainerCreating")),
        pod("cart-3", "Running", Some("CrashLoopBackOff")),
    ];
    list_state(BuiltinKind::Pod, &pods)
}

fn render(state: &mut UiState) -> Terminal<TestBackend> {
    screen::render(state, 80, 36)
}

fn with_help(mut state: UiState) -> Terminal<TestBackend> {
    with_help_of(&mut state)
}

fn with_help_of(state: &mut UiState) -> Terminal<TestBackend> {
    render(state);
    update(state, Action::Help);
    assert!(state.screens.overlays.help);
    render(state)
}

/// The help box after `/` and `text` typed in its filter (then the filter is cleared).
fn filtered(state: &mut UiState, text: &str) -> String {
    update(state, Action::FilterMode);
    for c in text.chars() {
        ktui::app::update::type_char(state, c);
    }
    let shown = help_box(&render(state));
    update(state, Action::Cancel);
    assert!(
        state.screens.overlays.help,
        "esc in the filter prompt leaves the help open"
    );
    shown
}

/// Every line of the help, scrolled through page by page at 80x36.
fn help_text(state: &mut UiState) -> String {
    update(state, Action::Top);
    let mut out = String::new();
    for _ in 0..10 {
        out.push_str(&help_box(&render(state)));
        update(state, Action::PageDown);
    }
    out
}

/// The help overlay alone, as text (the view behind it belongs to other tests).
fn help_box(term: &Terminal<TestBackend>) -> String {
    let buf = term.backend().buffer();
    let (w, h) = (buf.area.width, buf.area.height);
    let row = |y: u16| {
        (0..w)
            .map(|x| buf[(x, y)].symbol().to_owned())
            .collect::<String>()
    };
    let top = (0..h)
        .find(|&y| row(y).contains("┌ help"))
        .expect("help overlay drawn");
    let at = |x: u16, text: &str| {
        text.chars()
            .enumerate()
            .all(|(i, c)| buf[(x + i as u16, top)].symbol() == c.to_string())
    };
    let x0 = (0..w - 6).find(|&x| at(x, "┌ help")).unwrap();
    let x1 = (x0 + 1..w).find(|&x| buf[(x, top)].symbol() == "┐").unwrap();
    let bottom = (top..h).find(|&y| buf[(x0, y)].symbol() == "└").unwrap();
    (top..=bottom)
        .map(|y| (x0..=x1).map(|x| buf[(x, y)].symbol()).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn help_per_view() {
    let pods = with_help(pods_state());
    let text = format!("{}", pods.backend());
    assert!(
        text.contains("sort by name") && text.contains("events of the selected object"),
        "{text}"
    );
    assert!(
        !text.contains("warnings only"),
        "the timeline's toggle is not offered on pods:\n{text}"
    );
    insta::assert_snapshot!("help_pods_80x36", help_box(&pods));
    // Taller than the screen: it scrolls to its end, never cut without a way there.
    let mut st = pods_state();
    with_help_of(&mut st);
    let all = help_text(&mut st);
    assert!(
        all.contains("Commands") && all.contains(":ar (:api-resources)") && all.contains("'word"),
        "{all}"
    );
    update(&mut st, Action::Bottom);
    let last = help_box(&render(&mut st));
    assert!(
        last.contains(":ar (:api-resources)") && last.contains("-58/58"),
        "{last}"
    );

    let events = with_help(list_state(BuiltinKind::Event, &[]));
    let text = format!("{}", events.backend());
    assert!(
        text.contains("warnings only") && !text.contains("events of the selected object"),
        "{text}"
    );
    insta::assert_snapshot!("help_events_80x36", help_box(&events));

    let informers = with_help(screen::ui_state(Screen::Informers { selected: 0 }, None, false));
    let text = format!("{}", informers.backend());
    assert!(
        !text.contains("sort by name") && !text.contains("filter:"),
        "lists-only keys hidden:\n{text}"
    );
    insta::assert_snapshot!("help_informers_80x36", help_box(&informers));
}

#[test]
fn a_user_override_changes_dispatch_and_help() {
    let cfg = ktui::config::parse(
        Path::new("config.toml"),
        "[keymap.normal]\nbindings = [\n  { on = \"q\", run = \"quit\" },\n  { on = \"ctrl-w\", run = \"none\" },\n  \
         { on = \"W\", run = \"toggle_wide\", desc = \"wide columns (-o wide)\" },\n  { on = \"j\", run = \"page_down\" },\n]\n",
    )
    .unwrap();
    let mut state = pods_state();
    configure::apply(&mut state, &cfg, None, false);
    let press = |s: &str| KeyPress::parse(s).unwrap();
    assert_eq!(
        state
            .settings
            .keymap
            .lookup(KeyMode::Normal, &[], press("ctrl-w")),
        Lookup::None
    );
    assert_eq!(
        state.settings.keymap.lookup(KeyMode::Normal, &[], press("j")),
        Lookup::Action(Action::PageDown)
    );
    let mut with = pods_state_with(&cfg);
    let term = with_help_of(&mut with);
    let all = help_text(&mut with);
    assert!(!all.contains("ctrl-w"), "{all}");
    let text = filtered(&mut with, "wide");
    assert!(
        text.contains("W ") && text.contains("wide columns (-o wide)"),
        "{text}"
    );
    let text = filtered(&mut with, "quit");
    assert!(
        text.contains("ctrl-c, q"),
        "q joins ctrl-c on the quit line:\n{text}"
    );
    insta::assert_snapshot!("help_pods_overridden_80x36", help_box(&term));
    let Lookup::Action(a) = state.settings.keymap.lookup(KeyMode::Normal, &[], press("q")) else {
        panic!("q is bound")
    };
    let effects = update(&mut state, a);
    // The pods view's metrics poll, still unattached, is asked for again with any effect.
    let effects: Vec<Effect> = effects
        .into_iter()
        .filter(|e| !matches!(e, Effect::SubscribeMetrics(..)))
        .collect();
    assert_eq!(effects, [Effect::Quit(0)]);
}

fn pods_state_with(cfg: &ktui::config::Config) -> UiState {
    let mut s = pods_state();
    configure::apply(&mut s, cfg, None, false);
    screen::set_theme(&mut s);
    s
}

/// Cells that carry any colour, as `(x, y, fg, bg)`.
fn coloured(term: &Terminal<TestBackend>) -> Vec<(u16, u16, Color, Color)> {
    let buf = term.backend().buffer();
    let mut out = Vec::new();
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            let c = &buf[(x, y)];
            if c.fg != Color::Reset || c.bg != Color::Reset {
                out.push((x, y, c.fg, c.bg));
            }
        }
    }
    out
}

fn busy_screens(theme: ThemeSpec) -> Vec<Terminal<TestBackend>> {
    let mut filtered = pods_state();
    filtered.settings.theme = theme.clone();
    if let Some(l) = filtered.top_list_mut() {
        l.filter = "wr".into();
    }
    let mut help = pods_state();
    help.settings.theme = theme.clone();
    update(&mut help, Action::Help);
    let mut plain = pods_state();
    plain.settings.theme = theme;
    vec![render(&mut filtered), render(&mut help), render(&mut plain)]
}

#[test]
fn mono_and_no_color_draw_no_colour() {
    // A control: the dark theme does colour these screens.
    assert!(busy_screens(ThemeSpec::dark())
        .iter()
        .all(|t| !coloured(t).is_empty()));
    let no_color = ColorSupport::detect(|k| (k == "NO_COLOR").then(|| "1".to_owned()));
    assert_eq!(no_color, ColorSupport::None);
    let themes = [
        ("mono", ThemeSpec::load("mono", ColorSupport::TrueColor).unwrap()),
        ("dark + NO_COLOR", ThemeSpec::load("dark", no_color).unwrap()),
        ("light + NO_COLOR", ThemeSpec::load("light", no_color).unwrap()),
    ];
    for (name, theme) in themes {
        for term in busy_screens(theme) {
            let cells = coloured(&term);
            assert!(
                cells.is_empty(),
                "{name}: coloured cells {:?}\n{}",
                &cells[..cells.len().min(5)],
                term.backend()
            );
        }
    }
}

#[test]
fn light_theme_falls_back_to_16_colours() {
    let mut state = pods_state();
    state.settings.theme = ThemeSpec::load("light", ColorSupport::Ansi16).unwrap();
    let term = render(&mut state);
    for (x, y, fg, bg) in coloured(&term) {
        for c in [fg, bg] {
            assert!(
                !matches!(c, Color::Rgb(..) | Color::Indexed(_)),
                "cell {x},{y} has {c:?} on a 16-colour terminal"
            );
        }
    }
    state.settings.theme = ThemeSpec::load("light", ColorSupport::Ansi256).unwrap();
    let term = render(&mut state);
    assert!(
        coloured(&term).iter().any(|c| matches!(c.2, Color::Indexed(_))),
        "256 colours used when available"
    );
}

#[test]
fn an_empty_list_still_shows_its_columns() {
    for (w, h) in [(60, 15), (80, 24)] {
        let mut st = list_state(BuiltinKind::Deployment, &[]);
        screen::connect(&mut st, "prod-eu");
        let text = format!("{}", screen::render(&mut st, w, h).backend());
        let header = text.lines().nth(3).unwrap_or_default();
        assert!(
            header.contains("NAME") && header.contains("READY") && header.contains("UP-TO-DATE"),
            "{w}x{h}: the header of an empty list\n{text}"
        );
        assert!(text.contains("no resources"), "{text}");
        insta::assert_snapshot!(format!("empty_deployments_{w}x{h}"), text);
    }
    // Nothing matching the filter: the header too.
    let mut st = pods_state();
    screen::connect(&mut st, "prod-eu");
    if let Some(l) = st.top_list_mut() {
        l.filter = "'nothing-like-this".into();
    }
    let text = format!("{}", screen::render(&mut st, 80, 24).backend());
    assert!(
        text.lines().nth(3).unwrap_or_default().contains("STATUS"),
        "{text}"
    );
    assert!(text.contains("no match for the filter"), "{text}");
}
