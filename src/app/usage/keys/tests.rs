//! Unit tests of the usage sort keys (src/app/usage/keys.rs) through the keymap and `update`:
//! `C` sorts pods by CPU and cordons nodes, the limit sorts are pods-only, nothing applies
//! without usage columns, and a second press reverses.

use std::sync::Arc;
use std::time::Duration;

use crate::app::list::model::{ListState, SortBy, UsageCol};
use crate::app::state::{Screen, Source, UiState};
use crate::app::update::update;
use crate::app::usage::model::UsageSource;
use crate::keys::{Action, KeyMode, KeyPress, Lookup};
use crate::kube::builtin::BuiltinKind;
use crate::kube::key::ResourceKey;
use crate::kube::metrics::{MetricsKey, MetricsSlot, MetricsSnapshot, MetricsState};
use crate::kube::row::{Cell, Health, Row};
use crate::kube::store::{Slot, StoreWriter};

fn row(name: &str, ns: Option<&str>) -> Row {
    Row {
        capacity: None,
        uses: None,
        origin: 0,
        namespace: ns.map(Arc::from),
        name: name.into(),
        uid: format!("u-{name}").into(),
        created: None,
        labels: Arc::from(Vec::new()),
        cells: vec![Cell::Static("Ready"), Cell::Age(None)].into(),
        health: Health::Ok,
        drill: None,
        event: None,
        owner: None,
    }
}

/// A state listing one `kind` row, its metrics in `metrics` (`None`: no usage source).
fn state(kind: BuiltinKind, metrics: Option<MetricsState>) -> UiState {
    let ns = (kind == BuiltinKind::Pod).then_some("shop");
    let key = ResourceKey::new(kind, ns);
    let mut list = ListState::new(key.clone(), None);
    let slot = Slot::new(key, 1);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let mut w = StoreWriter::new(slot.clone(), tx);
    w.init();
    w.init_apply(row("one", ns));
    w.init_done(Some("1".into()));
    list.source = Some(Source::fixed(slot));
    list.usage = metrics.map(|state| {
        let target = if kind == BuiltinKind::Pod {
            MetricsKey::pods(ns)
        } else {
            MetricsKey::nodes()
        };
        let mut snap = MetricsSnapshot::empty(target, 1, Duration::from_secs(15));
        snap.state = state;
        UsageSource::fixed(MetricsSlot::new(snap))
    });
    let mut s = UiState::new(Screen::List(Box::new(list)), ns.map(str::to_owned), false);
    s.take_effects();
    crate::app::refresh_top::refresh_top(&mut s);
    s
}

fn press(s: &UiState, key: &str) -> Option<Action> {
    let k = KeyPress::parse(key).unwrap();
    match s
        .settings
        .keymap
        .lookup_where(KeyMode::Normal, &[], k, |a| s.applies(a))
    {
        Lookup::Action(a) => Some(a).filter(|a| s.applies(*a)),
        _ => None,
    }
}

#[test]
fn c_sorts_pods_by_cpu_and_cordons_nodes() {
    let pods = state(BuiltinKind::Pod, Some(MetricsState::Ok));
    assert_eq!(press(&pods, "C"), Some(Action::SortCpu));
    assert_eq!(press(&pods, "M"), Some(Action::SortMem));
    assert_eq!(press(&pods, "X"), Some(Action::SortCpuPct));
    assert_eq!(press(&pods, "Z"), Some(Action::SortMemPct));
    assert_eq!(press(&pods, "ctrl-x"), Some(Action::SortCpuLimitPct));
    assert_eq!(press(&pods, "ctrl-q"), Some(Action::SortMemLimitPct));
    let nodes = state(BuiltinKind::Node, Some(MetricsState::Ok));
    assert_eq!(press(&nodes, "C"), Some(Action::Cordon));
    assert_eq!(press(&nodes, "X"), Some(Action::SortCpuPct), "nodes: %CPU");
    assert_eq!(press(&nodes, "M"), Some(Action::SortMem));
    assert_eq!(press(&nodes, "ctrl-x"), None, "nodes have no limits");
    // Read-only: cordon does not apply; `C` has nothing left on nodes but the CPU sort,
    // which nodes do not have either.
    let mut ro = state(BuiltinKind::Node, Some(MetricsState::Ok));
    ro.settings.readonly = true;
    assert_eq!(press(&ro, "C"), None);
}

#[test]
fn no_usage_columns_no_usage_sort() {
    for metrics in [
        None,
        Some(MetricsState::Fetching),
        Some(MetricsState::NotServed("no metrics-server".into())),
        Some(MetricsState::Forbidden(
            "forbidden: list pods.metrics.k8s.io".into(),
        )),
    ] {
        let s = state(BuiltinKind::Pod, metrics.clone());
        assert_eq!(press(&s, "C"), None, "{metrics:?}");
        assert!(!s.offers(Action::SortMem), "{metrics:?}");
    }
    let deploys = state(BuiltinKind::Deployment, None);
    assert_eq!(press(&deploys, "M"), None);
}

#[test]
fn a_second_press_reverses_a_usage_sort() {
    let mut s = state(BuiltinKind::Pod, Some(MetricsState::Ok));
    let sort = |s: &UiState| s.top_list().map(|l| (l.sort, l.reverse));
    update(&mut s, Action::SortCpu);
    assert_eq!(sort(&s), Some((SortBy::Usage(UsageCol::Cpu), false)));
    update(&mut s, Action::SortCpu);
    assert_eq!(sort(&s), Some((SortBy::Usage(UsageCol::Cpu), true)));
    update(&mut s, Action::SortMemLimitPct);
    assert_eq!(sort(&s), Some((SortBy::Usage(UsageCol::MemLimitPct), false)));
}
