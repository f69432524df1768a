//! Kubeconfig-derived strings as they reach the screen: a kubeconfig (YAML) parsed by kube,
//! turned into the header's facts (`ktui::kube::client::cluster_info`: context, server,
//! namespace) and the contexts screen's rows (`client::context_details`: cluster, user,
//! namespace per context), fed to the UI state as the event loop does (`app::connect::
//! connected`), and drawn by the real draw code on a test terminal — the pods view with its
//! header and title, then the contexts screen.
//!
//! Input: the kubeconfig's bytes.
//!
//! Properties: the screen is the same whether the kubeconfig's strings are given as they are
//! or already sanitized. Since sanitizing is idempotent, this holds exactly when every path
//! from the kubeconfig to the screen sanitizes; a raw string would differ (ratatui silently
//! drops control and zero-width characters, where the sanitizer shows them as `\u{…}`, so a
//! spoofed `prod\u{200b}` would look like `prod`). And no drawn cell holds an undrawable
//! character.
#![no_main]

use ktui::app::state::{ListState, Screen, UiState};
use ktui::kube::builtin::BuiltinKind;
use ktui::kube::client::{cluster_info, context_details, ClusterInfo};
use ktui::kube::key::ResourceKey;
use ktui::kube::sanitize::sanitize;
use kube::config::Kubeconfig;
use libfuzzer_sys::fuzz_target;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(kc) = Kubeconfig::from_yaml(text) else {
        return;
    };
    let (contexts, details) = context_details(&kc);
    assert_eq!(contexts.len(), details.len());
    let Ok(info) = cluster_info(&kc, None) else {
        return;
    };
    assert!(
        contexts.contains(&info.context),
        "the current context is one of the contexts"
    );
    let clean = |s: &String| sanitize(s).into_owned();
    let raw = screens(contexts.clone(), details.clone(), info.clone());
    let pre = screens(
        contexts.iter().map(clean).collect(),
        details.iter().map(|d| d.each_ref().map(clean)).collect(),
        ClusterInfo {
            context: clean(&info.context),
            server: clean(&info.server),
            namespace: clean(&info.namespace),
            contexts: info.contexts.iter().map(clean).collect(),
        },
    );
    for (what, (r, p)) in ["pods view", "contexts screen"].iter().zip(raw.iter().zip(&pre)) {
        for (i, (a, b)) in r.iter().zip(p).enumerate() {
            assert_eq!(
                a, b,
                "{what}, line {i}: drawn from the raw kubeconfig vs pre-sanitized"
            );
        }
    }
});

/// The pods view and the contexts screen drawn for a client connected with `info`, each as
/// its lines of text.
fn screens(contexts: Vec<String>, details: Vec<[String; 3]>, info: ClusterInfo) -> [Vec<String>; 2] {
    let list = ListState::new(ResourceKey::new(BuiltinKind::Pod, None), None);
    let mut state = UiState::new(Screen::List(Box::new(list)), None, false);
    state.settings.theme = ktui::config::theme::ThemeSpec::dark();
    state.conn.contexts = contexts;
    state.conn.context = Some(info.context.clone());
    state.conn.context_details = details;
    let _ = ktui::app::context::connect::connected(&mut state, info);
    let list = draw(&mut state);
    state.push(Screen::Contexts { selected: 0 });
    [list, draw(&mut state)]
}

fn draw(state: &mut UiState) -> Vec<String> {
    let (w, h) = (240, 12);
    let area = ratatui::layout::Rect::new(0, 0, w, h);
    let mut term = Terminal::new(TestBackend::new(w, h)).expect("test terminal");
    state.screens.layout.page_rows = ktui::ui::page_rows(area, state);
    state.screens.layout.page_cols = ktui::ui::page_cols(area, state);
    ktui::app::refresh_top::refresh_top(state);
    term.draw(|f| ktui::ui::draw(f, state, &[], 1_796_040_000))
        .expect("draw");
    let buf = term.backend().buffer();
    let mut lines = Vec::new();
    for y in 0..h {
        let mut line = String::new();
        for x in 0..w {
            let s = buf[(x, y)].symbol();
            ktui_fuzz::assert_clean("drawn cell", s);
            line.push_str(s);
        }
        lines.push(line);
    }
    lines
}
