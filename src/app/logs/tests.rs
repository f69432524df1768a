//! Unit tests of the log view's state (src/app/logs/model.rs): colours per source, following
//! and pausing, filtering over a moving buffer; pure, no stream.

use std::sync::Arc;

use super::model::*;
use crate::kube::logs::PodPick;
use crate::kube::logs::{ContainerPick, LogHub, LogTarget};

#[test]
fn colours_are_stable_per_source_and_spread() {
    assert_eq!(source_colour("web-1", "app"), source_colour("web-1", "app"));
    let slots: std::collections::HashSet<_> = (0..20)
        .map(|i| source_colour(&format!("web-{i}"), "app"))
        .collect();
    assert!(slots.len() >= 4, "{slots:?}");
}

#[test]
fn a_one_pod_view_asks_for_its_lines_and_its_pods_events_a_merged_one_only_lines() {
    use crate::app::effect::Effect;
    use crate::app::state::{ListState, Screen, UiState};
    use crate::kube::builtin::BuiltinKind;
    use crate::kube::key::ResourceKey;
    let list = ListState::new(ResourceKey::new(BuiltinKind::Pod, Some("a")), None);
    let mut s = UiState::new(Screen::List(Box::new(list)), Some("a".into()), true);
    s.take_effects();
    let pod = PodPick::Named("web-1".into());
    crate::app::logs::update::open(
        &mut s,
        "a".into(),
        pod,
        ContainerPick::Default,
        "pod/web-1".into(),
    );
    let fx = s.take_effects();
    assert!(matches!(&fx[0], Effect::StreamLogs(_, r) if r.plan.follow && r.plan.tail == Some(1000)));
    assert!(
        matches!(&fx[1], Effect::Subscribe(_, k) if k.fields.as_deref().is_some_and(|f| f.contains("involvedObject.name=web-1"))),
        "{fx:?}"
    );
    let sel = PodPick::Selector("app=web".into());
    crate::app::logs::update::open(
        &mut s,
        "a".into(),
        sel,
        ContainerPick::Default,
        "-l app=web".into(),
    );
    let fx = s.take_effects();
    assert_eq!(fx.len(), 1, "{fx:?}");
    // `--readonly` (the state above) does not hide logs.
    assert!(matches!(s.top(), Screen::Logs(_)));
}

#[test]
fn windows_map_to_requests() {
    let target = LogTarget {
        namespace: "a".into(),
        pods: PodPick::Named("p".into()),
        containers: ContainerPick::Default,
    };
    let mut v = LogsState::new(target, "pod/p".into(), LogSettings::default());
    assert_eq!((v.plan().tail, v.plan().follow), (Some(1000), true));
    v.window = Window::from_key(3, 1000).unwrap();
    assert_eq!((v.plan().since_seconds, v.plan().tail), (Some(300), None));
    v.window = Window::from_key(1, 1000).unwrap();
    assert_eq!((v.plan().head, v.plan().follow), (Some(1000), false));
    v.window = Window::Tail(10);
    v.previous = true;
    assert_eq!((v.plan().previous, v.plan().follow), (true, false));
    assert_eq!(Window::Since(3600).words(), "last 1h");
}

#[test]
fn a_new_filter_fills_the_page_first_and_a_paused_view_keeps_its_line_meanwhile() {
    let hub = Arc::new(LogHub::new(100_000, 64 << 20, 5, Box::new(|| {})));
    {
        let mut s = hub.lock();
        for i in 0..50_000u64 {
            let word = if i.is_multiple_of(2) { "even" } else { "odd" };
            s.buffer.push(0, None, format!("{word} seq={i}").into());
        }
    }
    let target = LogTarget {
        namespace: "a".into(),
        pods: PodPick::Named("p".into()),
        containers: ContainerPick::Default,
    };
    let mut v = LogsState::new(target, "pod/p".into(), LogSettings::default());
    v.hub = Some(hub.clone());
    v.refresh();
    assert!(!v.refiltering() && v.visible.seqs.len() == 50_000);
    v.set_filter("even".into());
    v.refresh();
    // One frame's budget, from the newest line: the page is full, the rest is pending.
    assert_eq!(v.visible.seqs.len(), REFILTER_BUDGET / 2);
    assert_eq!(v.visible.seqs.back(), Some(&49_998));
    assert!(v.refiltering());
    // The user pauses a few lines up meanwhile: that line stays on top of the page while
    // the older lines are read in below the first one.
    v.follow = false;
    v.scroll = v.visible.seqs.len() - 10;
    let line = v.visible.seqs[v.scroll];
    while v.refiltering() {
        v.refresh();
        assert_eq!(v.visible.seqs[v.scroll], line);
    }
    assert_eq!(v.visible.seqs.len(), 25_000);
    assert_eq!(v.visible.seqs.front(), Some(&0));
    // A filter changed while paused starts from the top, and stays there.
    v.set_filter("odd".into());
    v.refresh();
    v.settle();
    assert_eq!((v.scroll, v.visible.seqs.front()), (0, Some(&1)));
    assert!(!v.refiltering());
}
