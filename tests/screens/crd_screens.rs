//! Custom resources on screen: a CRD with its own `Name` printer column marks only ktui's
//! NAME (the column the sort uses) with the sort arrow, and a view of a version other than
//! the preferred one names that version in its title.

use std::sync::Arc;

use ktui::app::state::{ListState, Screen, Source, UiState};
use ktui::kube::key::ResourceKey;
use ktui::kube::kind::{ApiResource, Kind, PrinterColumn};
use ktui::kube::registry::Registry;
use ktui::kube::row::RowCtx;
use ktui::kube::sink::RowBuilder;
use ktui::kube::store::{Slot, StoreWriter};
use ktui::table::custom::{CustomObj, CustomRows};
use serde_json::json;

use crate::screen;

fn col(name: &str, path: &str) -> PrinterColumn {
    PrinterColumn {
        name: name.into(),
        column_type: "string".into(),
        json_path: path.into(),
        priority: 0,
    }
}

fn widgets(version: &str, columns: Vec<PrinterColumn>) -> Arc<ApiResource> {
    Arc::new(ApiResource {
        group: "example.com".into(),
        version: version.into(),
        plural: "widgets".into(),
        singular: "widget".into(),
        kind: "Widget".into(),
        namespaced: true,
        verbs: vec!["list".into(), "watch".into()],
        columns: columns.into(),
        from_crd: true,
        ..Default::default()
    })
}

/// A list of `res` in namespace shop with two widgets, connected, with `registry`.
fn list_of(res: &Arc<ApiResource>, registry: Registry) -> UiState {
    let key = ResourceKey::new(Kind::Api(res.clone()), Some("shop"));
    let slot = Slot::new(key.clone(), 1);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let mut w = StoreWriter::new(slot.clone(), tx);
    let rows = CustomRows::new(res);
    w.init();
    for (name, shown) in [("w-1", "First widget"), ("w-2", "Second widget")] {
        let obj = json!({"metadata": {"name": name, "namespace": "shop", "creationTimestamp": "2026-11-30T10:00:00Z"},
            "spec": {"displayName": shown, "color": "red"}});
        w.init_apply(rows.build(CustomObj(obj), &RowCtx::default()));
    }
    w.init_done(Some("9".into()));
    let mut list = ListState::new(key, None);
    list.source = Some(Source::fixed(slot));
    let mut state = screen::ui_state(Screen::List(Box::new(list)), Some("shop".into()), false);
    screen::connect(&mut state, "prod");
    state.conn.registry = Arc::new(registry);
    state
}

fn render(state: &mut UiState) -> String {
    format!("{}", screen::render(state, 90, 10).backend())
}

#[test]
fn a_crd_with_its_own_name_column_marks_only_the_sorted_name() {
    let res = widgets(
        "v1",
        vec![col("Name", ".spec.displayName"), col("Color", ".spec.color")],
    );
    let mut state = list_of(&res, Registry::builtins());
    let screen = render(&mut state);
    let header = screen
        .lines()
        .find(|l| l.contains("COLOR"))
        .unwrap_or_else(|| panic!("no header in\n{screen}"));
    assert_eq!(header.matches('↑').count(), 1, "one arrow:\n{screen}");
    let arrow = header.find("NAME↑").unwrap_or_else(|| panic!("{screen}"));
    let theirs = header.rfind("NAME").unwrap();
    assert!(arrow < theirs, "the arrow is on ktui's NAME, first:\n{screen}");
    assert!(screen.contains("First widget"), "{screen}");
}

#[test]
fn a_non_preferred_version_names_its_version_in_the_title() {
    let v1 = widgets("v1", vec![col("Color", ".spec.color")]);
    let beta = widgets("v1beta1", vec![col("Color", ".spec.color")]);
    let registry = || Registry {
        kinds: vec![Kind::Api(v1.clone())],
        other_versions: vec![Kind::Api(beta.clone())],
        ..Registry::builtins()
    };
    let screen = render(&mut list_of(&beta, registry()));
    assert!(
        screen.contains(" widgets.v1beta1.example.com(shop)[2] "),
        "{screen}"
    );
    let screen = render(&mut list_of(&v1, registry()));
    assert!(screen.contains(" widgets.example.com(shop)[2] "), "{screen}");
    assert!(!screen.contains("v1"), "{screen}");
}
