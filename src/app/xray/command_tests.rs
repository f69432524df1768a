//! Unit tests of `:xray`: the root kind and namespace it takes, and why it refuses others.

use crate::kube::builtin::BuiltinKind;
use crate::kube::key::ResourceKey;

use super::model::Root;

#[test]
fn the_command_takes_a_root_kind_and_a_namespace() {
    use crate::app::state::{ListState, Screen, UiState};
    use crate::app::update::run_command;
    let pods = ResourceKey::new(BuiltinKind::Pod, Some("a"));
    let mut s = UiState::new(
        Screen::List(Box::new(ListState::new(pods, None))),
        Some("a".into()),
        false,
    );
    s.take_effects();
    let root = |s: &UiState| match s.top() {
        Screen::Xray(x) => Some(x.root.clone()),
        _ => None,
    };
    run_command(&mut s, "xray deploy shop");
    assert_eq!(
        root(&s),
        Some(Root {
            kind: BuiltinKind::Deployment,
            namespace: Some("shop".into()),
            only: None
        })
    );
    run_command(&mut s, "xray svc -n web");
    assert_eq!(
        root(&s).map(|r| (r.kind, r.namespace)),
        Some((BuiltinKind::Service, Some("web".into())))
    );
    run_command(&mut s, "xray sts -A");
    assert_eq!(
        root(&s).map(|r| (r.kind, r.namespace)),
        Some((BuiltinKind::StatefulSet, None))
    );
    run_command(&mut s, "xray nodes");
    assert_eq!(
        root(&s).map(|r| (r.kind, r.namespace)),
        Some((BuiltinKind::Node, None))
    );
    for (line, says) in [
        ("xray", "which kind?"),
        ("xray configmaps", "is not one of"),
        ("xray deploy a b", "unexpected"),
        ("xray deploy Bad_NS", "xray:"),
    ] {
        run_command(&mut s, line);
        let msg = s.screens.footer.message.clone().unwrap_or_default();
        assert!(msg.contains(says), "{line}: {msg}");
        assert_eq!(
            root(&s).map(|r| r.kind),
            Some(BuiltinKind::Node),
            "{line} opened nothing"
        );
    }
}
