//! Plugins in the footer hints: the plugins in scope come right after `<?> help`, named by
//! their name, on a pods list; a deployments list does not offer a pods-only plugin; with
//! `--readonly` the plugin not declared `readonly` is gone from the footer.

use std::path::Path;

use ktui::app::state::{ListState, Screen, Source, UiState};
use ktui::kube::builtin::BuiltinKind;
use ktui::kube::key::ResourceKey;
use ktui::kube::row::RowCtx;
use ktui::kube::store::{Slot, StoreWriter};
use ktui::table::decode_row;
use serde_json::json;

use crate::screen::{self, render};

const CONFIG: &str = r#"
[[plugins]]
name = "stern"
key = "ctrl-t"
scopes = ["pods"]
command = "stern"
readonly = true

[[plugins]]
name = "dbg"
key = "ctrl-g"
scopes = ["all"]
command = "kubectl"
args = ["debug", "$NAME"]
"#;

fn state(kind: BuiltinKind, readonly: bool) -> UiState {
    let key = ResourceKey::new(kind, None);
    let slot = Slot::new(key.clone(), 1);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let mut w = StoreWriter::new(slot.clone(), tx);
    w.init();
    let o = serde_json::to_vec(&json!({
        "metadata": {"name": "web-1", "namespace": "shop", "uid": "u-1",
                     "resourceVersion": "1", "creationTimestamp": "2026-11-30T10:00:00Z"},
        "spec": {"containers": [{"name": "app", "image": "nginx"}]},
        "status": {"phase": "Running"}
    }))
    .unwrap();
    w.init_apply(decode_row(kind, &o, &RowCtx::default()).unwrap());
    w.init_done(Some("9".into()));
    let mut list = ListState::new(key, None);
    list.source = Some(Source::fixed(slot));
    let mut state = screen::ui_state(Screen::List(Box::new(list)), None, readonly);
    let config = ktui::config::parse(Path::new("c.toml"), CONFIG).unwrap();
    ktui::app::configure::apply(&mut state, &config, Some("prod-eu"), readonly);
    screen::set_theme(&mut state);
    screen::connect(&mut state, "prod-eu");
    state
}

/// The last line of the screen: the key hints.
fn hints(state: &mut UiState) -> String {
    let lines = screen::screen_lines(&render(state, 160, 20));
    lines.last().cloned().unwrap_or_default()
}

#[test]
fn plugins_in_scope_follow_the_help_hint() {
    let line = hints(&mut state(BuiltinKind::Pod, false));
    assert!(
        line.contains("<?> help  <ctrl-t> stern  <ctrl-g> dbg  "),
        "{line}"
    );
    let line = hints(&mut state(BuiltinKind::Deployment, false));
    assert!(line.contains("<?> help  <ctrl-g> dbg  "), "{line}");
    assert!(!line.contains("stern"), "{line}");
}

#[test]
fn readonly_keeps_only_the_readonly_plugin_in_the_footer() {
    let line = hints(&mut state(BuiltinKind::Pod, true));
    assert!(line.contains("<?> help  <ctrl-t> stern  "), "{line}");
    assert!(!line.contains("dbg"), "{line}");
}
