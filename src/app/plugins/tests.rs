//! Unit tests of plugins in the UI: keys bound per scope, variables expanded from the
//! selected row into separate argv items, background vs handover, the confirm dialog
//! (default no), and read-only mode removing the plugins not declared `readonly`.

use std::path::Path;
use std::sync::Arc;

use crate::app::effect::Effect;
use crate::app::handover::Job;
use crate::app::help::model::HelpLine;
use crate::app::help::HelpContent;
use crate::app::input::on_key;
use crate::app::state::{Conn, ListState, Screen, Source, UiState};
use crate::keys::{Action, KeyMode, KeyPress, Lookup};
use crate::kube::builtin::BuiltinKind;
use crate::kube::client::ClusterInfo;
use crate::kube::key::ResourceKey;
use crate::kube::row::{Cell, Health, Row};
use crate::kube::store::{Slot, StoreWriter};

const CONFIG: &str = r#"
[[plugins]]
name = "note"
key = "ctrl-t"
description = "note the pod"
scopes = ["po"]
command = "notes"
args = ["$NAME $NAMESPACE", "$CONTEXT", "$COL-STATUS", "${COL-IP}", "$HOME"]
background = true
readonly = true

[[plugins]]
name = "inspect"
key = "alt-i"
scopes = ["pods"]
command = "inspect"
args = ["--name=$NAME"]

[[plugins]]
name = "careful"
key = "ctrl-o"
scopes = ["all"]
command = "careful"
args = ["$RESOURCE_NAME/$NAME"]
confirm = true
"#;

/// A connected state (context `dev`) listing `kind` in team-a with one row `web-1` whose
/// STATUS is `Running` and IP `10.0.0.7`, the config applied.
fn state(kind: BuiltinKind, readonly: bool) -> (UiState, StoreWriter) {
    let key = ResourceKey::new(kind, Some("team-a"));
    let mut state = UiState::new(
        Screen::List(Box::new(ListState::new(key.clone(), None))),
        Some("team-a".into()),
        false,
    );
    state.take_effects();
    state.conn.context = Some("dev".into());
    state.conn.contexts = vec!["dev".into()];
    state.conn.context_details = vec![["dev-cluster".into(), "dev-user".into(), String::new()]];
    state.conn.status = Conn::Connected(ClusterInfo {
        context: "dev".into(),
        server: "https://127.0.0.1".into(),
        namespace: "team-a".into(),
        contexts: vec!["dev".into()],
    });
    let spec = crate::table::spec(&crate::kube::kind::Kind::Builtin(kind));
    let cells: Vec<Cell> = spec
        .columns
        .iter()
        .map(|c| match &*c.header {
            "STATUS" => Cell::Static("Running"),
            "IP" => Cell::Static("10.0.0.7"),
            _ => Cell::Static("x"),
        })
        .collect();
    let row = Row {
        capacity: None,
        namespace: Some(Arc::from("team-a")),
        name: "web-1".into(),
        uid: "uid-1".into(),
        created: Some(0),
        labels: Arc::from(Vec::new()),
        cells: cells.into(),
        health: Health::Ok,
        drill: None,
        event: None,
        owner: None,
        uses: None,
        origin: 0,
    };
    let slot = Slot::new(key, 1);
    let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
    let mut writer = StoreWriter::new(slot.clone(), tx);
    writer.init();
    writer.init_apply(row);
    writer.init_done(Some("1".into()));
    writer.publish();
    let id = state.top_id();
    assert!(state.attach(id, crate::app::state::Feed::Rows(Source::fixed(slot))));
    crate::app::refresh_top::refresh_top(&mut state);
    let config = crate::config::parse(Path::new("c.toml"), CONFIG).unwrap();
    assert!(config.plugin_clashes.is_empty(), "{:?}", config.plugin_clashes);
    crate::app::configure::apply(&mut state, &config, Some("dev"), readonly);
    (state, writer)
}

fn press(state: &mut UiState, k: &str) -> Vec<Effect> {
    on_key(state, KeyPress::parse(k).unwrap())
}

fn help_text(state: &UiState) -> String {
    HelpContent::of(state)
        .lines
        .iter()
        .filter_map(|l| match l {
            HelpLine::Key { keys, desc } => Some(format!("{keys} {desc}\n")),
            _ => None,
        })
        .collect()
}

#[test]
fn a_background_plugin_gets_the_rows_variables_as_separate_arguments() {
    let (mut s, _w) = state(BuiltinKind::Pod, false);
    let fx = press(&mut s, "ctrl-t");
    let [Effect::RunPlugin(run)] = &fx[..] else {
        panic!("{fx:?}")
    };
    assert_eq!(run.job.program, "notes");
    assert_eq!(
        run.job.args,
        ["web-1 team-a", "dev", "Running", "10.0.0.7", "$HOME"],
        "one argv item per argument, unknown variables as written"
    );
    assert!(run.job.env.contains(&("NAMESPACE".into(), "team-a".into())));
    assert!(run.job.env.contains(&("CLUSTER".into(), "dev-cluster".into())));
    assert!(run.background);
    assert!(s
        .screens
        .footer
        .message
        .as_deref()
        .unwrap_or("")
        .contains("plugin note"));
    crate::app::plugins::finished(
        &mut s,
        crate::app::plugins::model::PluginDone {
            name: "note".into(),
            outcome: crate::app::handover::Outcome::Exited(2),
            last_line: Some("no such pod\u{1b}[31m".into()),
        },
    );
    let msg = s.screens.footer.message.clone().unwrap();
    assert!(msg.starts_with("plugin note: exit code 2 — no such pod"), "{msg}");
    assert!(!msg.contains('\u{1b}') && !s.screens.footer.info);
}

#[test]
fn a_foreground_plugin_hands_the_terminal_over() {
    let (mut s, _w) = state(BuiltinKind::Pod, false);
    let fx = press(&mut s, "alt-i");
    let [Effect::HandOver(h)] = &fx[..] else {
        panic!("{fx:?}")
    };
    let Job::Command(c) = &h.job else { panic!() };
    assert_eq!(
        (c.program.as_str(), c.args.as_slice()),
        ("inspect", &["--name=web-1".to_owned()][..])
    );
    assert!(
        h.label.starts_with("plugin inspect: inspect ") && h.label.contains("--name=web-1"),
        "{}",
        h.label
    );
}

#[test]
fn confirm_asks_first_with_no_selected_and_names_the_context() {
    let (mut s, _w) = state(BuiltinKind::Pod, false);
    assert!(press(&mut s, "ctrl-o").is_empty());
    let d = s.screens.overlays.dialog.as_ref().expect("a dialog");
    assert!(!d.yes);
    assert!(d.lines.iter().any(|l| l == "context: dev"), "{:?}", d.lines);
    assert!(
        d.lines.iter().any(|l| l.contains("careful pods/web-1")),
        "{:?}",
        d.lines
    );
    assert!(
        press(&mut s, "enter").is_empty(),
        "enter on the default no cancels"
    );
    assert!(s.screens.overlays.dialog.is_none());
    press(&mut s, "ctrl-o");
    let fx = press(&mut s, "y");
    assert!(matches!(&fx[..], [Effect::HandOver(_)]), "{fx:?}");
}

#[test]
fn plugins_keep_to_their_scopes_and_show_in_help_and_footer() {
    let (mut s, _w) = state(BuiltinKind::Deployment, false);
    assert!(!s.applies(Action::Plugin(0)) && !s.applies(Action::Plugin(1)));
    assert!(s.applies(Action::Plugin(2)), "scope all");
    assert!(press(&mut s, "ctrl-t").is_empty());
    let help = help_text(&s);
    assert!(
        !help.contains("note the pod") && help.contains("careful (plugin careful)"),
        "{help}"
    );
    let (s, _w) = state(BuiltinKind::Pod, false);
    let help = help_text(&s);
    assert!(help.contains("ctrl-t note the pod (plugin note)"), "{help}");
    assert!(help.contains("alt-i inspect (plugin inspect)"), "{help}");
    assert_eq!(s.settings.plugins.name_of(Action::Plugin(0)), Some("note"));
}

#[test]
fn read_only_mode_removes_the_plugins_not_declared_readonly() {
    let (mut s, _w) = state(BuiltinKind::Pod, true);
    let names: Vec<&str> = s
        .settings
        .plugins
        .active
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(names, ["note"]);
    for k in ["alt-i", "ctrl-o"] {
        let key = KeyPress::parse(k).unwrap();
        assert_eq!(
            s.settings.keymap.lookup(KeyMode::Normal, &[], key),
            Lookup::None,
            "{k}"
        );
        assert!(press(&mut s, k).is_empty(), "{k}");
    }
    let help = help_text(&s);
    assert!(
        help.contains("note the pod")
            && !help.contains("(plugin inspect)")
            && !help.contains("(plugin careful)"),
        "{help}"
    );
    assert!(matches!(&press(&mut s, "ctrl-t")[..], [Effect::RunPlugin(_)]));
}

#[test]
fn a_clash_is_announced_once_in_the_footer() {
    let (mut s, _w) = state(BuiltinKind::Pod, false);
    let cfg = crate::config::parse(
        Path::new("c.toml"),
        "[[plugins]]\nname = \"x\"\nkey = \"d\"\nscopes = [\"all\"]\ncommand = \"ls\"\n",
    )
    .unwrap();
    crate::app::plugins::announce(&mut s, &cfg);
    let msg = s.screens.footer.message.clone().unwrap();
    assert!(
        msg.starts_with("c.toml:3:7: plugins.key: plugin \"x\" dropped"),
        "{msg}"
    );
}

#[test]
fn a_protected_context_asks_for_the_plugin_name_typed() {
    let (mut s, _w) = state(BuiltinKind::Pod, false);
    s.settings.protected = vec![regex::Regex::new("^dev$").unwrap()];
    press(&mut s, "ctrl-o");
    assert!(press(&mut s, "y").is_empty(), "y is typed, not a yes");
    for c in "areful".chars() {
        press(&mut s, &c.to_string());
    }
    let d = s.screens.overlays.dialog.as_ref().expect("still asking");
    assert_eq!(d.typed, "yareful");
    while s
        .screens
        .overlays
        .dialog
        .as_ref()
        .is_some_and(|d| !d.typed.is_empty())
    {
        press(&mut s, "backspace");
    }
    for c in "careful".chars() {
        press(&mut s, &c.to_string());
    }
    let fx = press(&mut s, "enter");
    assert!(matches!(&fx[..], [Effect::HandOver(_)]), "{fx:?}");
}

#[test]
fn in_the_containers_view_pod_and_container_are_set() {
    use crate::app::containers::model::ContainersState;
    use crate::app::state::ObjectFeed;
    use crate::kube::object::ObjectView;
    use crate::kube::sync::SyncState;
    let pod = serde_json::json!({
        "metadata": {"name": "db-0", "namespace": "shop"},
        "spec": {"containers": [{"name": "main", "image": "pg"}, {"name": "exporter", "image": "x"}]},
    });
    let mut c = ContainersState::new("shop", "db-0");
    c.watch = Some(ObjectFeed::fixed(
        ResourceKey::new(BuiltinKind::Pod, Some("shop")),
        ObjectView {
            object: Some(Arc::new(pod)),
            deleted: false,
            state: SyncState::Live,
            rev: 1,
        },
    ));
    c.selected = 1;
    let (mut s, _w) = state(BuiltinKind::Pod, false);
    s.push(Screen::Containers(Box::new(c)));
    s.take_effects();
    let cfg = crate::config::parse(
        Path::new("c.toml"),
        "[[plugins]]\nname = \"c\"\nkey = \"ctrl-t\"\nscopes = [\"containers\"]\ncommand = \"x\"\n\
         args = [\"$POD/$CONTAINER\", \"$NAME\", \"$NAMESPACE\"]\nbackground = true\n",
    )
    .unwrap();
    crate::app::configure::apply(&mut s, &cfg, Some("dev"), false);
    let fx = press(&mut s, "ctrl-t");
    let [Effect::RunPlugin(run)] = &fx[..] else {
        panic!("{fx:?}")
    };
    assert_eq!(run.job.args, ["db-0/exporter", "exporter", "shop"]);
    s.pop();
    assert!(
        !s.applies(Action::Plugin(0)),
        "a containers plugin is not a pods one"
    );
}

#[test]
fn only_a_shells_script_gets_its_values_quoted() {
    let v = super::vars::Vars(
        [("NAME", "web-1"), ("COL-MESSAGE", "a; rm -rf ~")]
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .to_vec(),
    );
    let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        super::expand_args(
            "/bin/bash",
            &args(&["-ec", "echo $NAME $COL-MESSAGE", "$COL-MESSAGE"]),
            &v
        ),
        args(&["-ec", "echo web-1 'a; rm -rf ~'", "a; rm -rf ~"])
    );
    // Not a shell: every argument is one argv item as it is.
    assert_eq!(
        super::expand_args("kubectl", &args(&["-c", "$COL-MESSAGE"]), &v),
        args(&["-c", "a; rm -rf ~"])
    );
}
