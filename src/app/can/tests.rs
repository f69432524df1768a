//! `:can`'s command syntax, its fetch, its rows and `enter` (src/app/can.rs); no cluster.

use std::sync::Arc;

use k8s_openapi::api::rbac::v1::{
    ClusterRole, ClusterRoleBinding, PolicyRule, RoleBinding, RoleRef, Subject as ApiSubject,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

use super::model::{CanMode, CanState};
use crate::app::effect::Effect;
use crate::app::state::{ListState, Screen, UiState};
use crate::app::update::{run_command, update};
use crate::keys::Action;
use crate::kube::builtin::BuiltinKind;
use crate::kube::key::ResourceKey;
use crate::kube::rbac::{Ask, Policy, Subject, SubjectKind};

fn state(ns: Option<&str>) -> UiState {
    let key = ResourceKey::new(BuiltinKind::Pod, ns);
    let mut s = UiState::new(
        Screen::List(Box::new(ListState::new(key, None))),
        ns.map(str::to_owned),
        false,
    );
    s.take_effects();
    s
}

fn top(s: &UiState) -> &CanState {
    match s.top() {
        Screen::Can(c) => c,
        _ => panic!("a :can view on top; footer: {:?}", s.screens.footer.message),
    }
}

fn ask(verb: &str, group: &str, resource: &str, sub: &str, ns: Option<&str>) -> CanMode {
    CanMode::WhoCan(Ask {
        verb: verb.into(),
        group: group.into(),
        resource: resource.into(),
        subresource: sub.into(),
        namespace: ns.map(str::to_owned),
    })
}

#[test]
fn the_command_resolves_the_resource_and_its_scope() {
    let mut s = state(Some("team-a"));
    run_command(&mut s, "can delete po");
    assert_eq!(top(&s).mode, ask("delete", "", "pods", "", Some("team-a")));
    run_command(&mut s, "can create pods/exec -n team-b");
    assert_eq!(top(&s).mode, ask("create", "", "pods", "exec", Some("team-b")));
    run_command(&mut s, "can patch deploy/scale -A");
    assert_eq!(top(&s).mode, ask("patch", "apps", "deployments", "scale", None));
    // A cluster-scoped resource is asked about cluster-wide whatever the current namespace.
    run_command(&mut s, "who-can list nodes");
    assert_eq!(top(&s).mode, ask("list", "", "nodes", "", None));
    assert_eq!(top(&s).question(), "who can list nodes cluster-wide");
}

#[test]
fn the_reverse_forms_name_their_subject() {
    let mut s = state(Some("team-a"));
    run_command(&mut s, "can sa deployer");
    let sa = Subject {
        kind: SubjectKind::ServiceAccount,
        name: "deployer".into(),
        namespace: "team-a".into(),
    };
    assert_eq!(
        top(&s).mode,
        CanMode::MayDo {
            subject: sa,
            namespace: None
        }
    );
    run_command(&mut s, "can sa ci/builder -n prod");
    assert_eq!(
        top(&s).question(),
        "what ServiceAccount ci/builder may do in prod"
    );
    run_command(&mut s, "can group devs");
    assert_eq!(top(&s).question(), "what Group devs may do");
}

#[test]
fn bad_lines_say_why_and_open_nothing() {
    let mut s = state(None);
    for (line, why) in [
        ("can delete", "usage: :can"),
        ("can delete nosuchthing", "nosuchthing: unknown resource"),
        ("can list nodes -n x", "nodes is cluster-scoped"),
        ("can delete pods --as bob", "unknown flag --as"),
        ("can sa deployer", "which namespace"),
    ] {
        run_command(&mut s, line);
        assert!(matches!(s.top(), Screen::List(_)), "{line}");
        let msg = s.screens.footer.message.clone().unwrap_or_default();
        assert!(msg.contains(why), "{line}: {msg}");
    }
}

fn policy() -> Policy {
    let meta = |ns: Option<&str>, name: &str| ObjectMeta {
        namespace: ns.map(str::to_owned),
        name: Some(name.into()),
        ..Default::default()
    };
    let role_ref = |kind: &str, name: &str| RoleRef {
        api_group: Some("rbac.authorization.k8s.io".into()),
        kind: kind.into(),
        name: name.into(),
    };
    let subj = |kind: &str, name: &str, ns: Option<&str>| ApiSubject {
        kind: kind.into(),
        name: name.into(),
        namespace: ns.map(str::to_owned),
        ..Default::default()
    };
    Policy {
        cluster_roles: vec![ClusterRole {
            metadata: meta(None, "pod-admin"),
            rules: Some(vec![PolicyRule {
                verbs: vec!["delete".into(), "get".into()],
                api_groups: Some(vec![String::new()]),
                resources: Some(vec!["pods".into()]),
                ..Default::default()
            }]),
            aggregation_rule: None,
        }],
        role_bindings: vec![RoleBinding {
            metadata: meta(Some("team-a"), "deployers"),
            role_ref: role_ref("ClusterRole", "pod-admin"),
            subjects: Some(vec![subj("ServiceAccount", "deployer", None)]),
        }],
        cluster_role_bindings: vec![ClusterRoleBinding {
            metadata: meta(None, "ops"),
            role_ref: role_ref("ClusterRole", "pod-admin"),
            subjects: Some(vec![subj("Group", "ops", None)]),
        }],
        missing: vec!["forbidden: list roles".into()],
        ..Default::default()
    }
}

#[test]
fn the_answer_fills_the_view_and_enter_asks_what_a_subject_may_do() {
    let mut s = state(Some("team-a"));
    run_command(&mut s, "can delete pods");
    let id = s.screens.stack.views.last().map(|(id, _)| *id).expect("a view");
    assert!(top(&s).policy.is_none());
    super::answered(&mut s, id, policy());
    let rows: Vec<Vec<&str>> = top(&s)
        .rows
        .iter()
        .map(|r| r.iter().map(String::as_str).collect())
        .collect();
    assert_eq!(
        rows,
        vec![
            vec![
                "Group",
                "ops",
                "",
                "ClusterRoleBinding ops",
                "ClusterRole/pod-admin",
                ""
            ],
            vec![
                "ServiceAccount",
                "deployer",
                "team-a",
                "RoleBinding team-a/deployers",
                "ClusterRole/pod-admin",
                ""
            ],
        ]
    );
    assert_eq!(top(&s).policy.as_ref().map(|p| p.missing.len()), Some(1));
    update(&mut s, Action::Down);
    assert!(s.applies(Action::Enter));
    let fx = update(&mut s, Action::Enter);
    assert!(
        !fx.iter().any(|e| matches!(e, Effect::FetchRbac(_))),
        "the fetched objects answer: {fx:?}"
    );
    assert_eq!(
        top(&s).question(),
        "what ServiceAccount team-a/deployer may do in team-a"
    );
    let rows: Vec<Vec<&str>> = top(&s)
        .rows
        .iter()
        .map(|r| r.iter().map(String::as_str).collect())
        .collect();
    assert_eq!(
        rows,
        vec![vec![
            "team-a",
            "pods",
            "delete,get",
            "",
            "RoleBinding team-a/deployers → ClusterRole/pod-admin"
        ]]
    );
    // On the reverse view there is no subject to go to.
    assert!(!s.applies(Action::Enter));
    update(&mut s, Action::Back);
    assert_eq!(top(&s).rows.len(), 2, "esc comes back to the who-can answer");
}

#[test]
fn an_answer_for_a_view_that_left_is_dropped() {
    let mut s = state(Some("team-a"));
    run_command(&mut s, "can delete pods");
    let id = s.screens.stack.views.last().map(|(id, _)| *id).expect("a view");
    run_command(&mut s, "pods");
    super::answered(&mut s, id, policy());
    assert!(matches!(s.top(), Screen::List(_)));
}

#[test]
fn enter_on_a_service_account_row_asks_what_it_may_do() {
    use crate::kube::row::{Health, Row};
    use crate::kube::store::{Slot, StoreWriter};
    let mut s = state(Some("team-a"));
    let sa = crate::kube::kind::ApiResource {
        version: "v1".into(),
        plural: "serviceaccounts".into(),
        singular: "serviceaccount".into(),
        kind: "ServiceAccount".into(),
        short: vec!["sa".into()],
        namespaced: true,
        verbs: vec!["list".into(), "watch".into()],
        ..Default::default()
    };
    let registry = crate::kube::registry::Registry::from_discovery(crate::kube::discovery::Discovery {
        resources: vec![Arc::new(sa)],
        ..Default::default()
    });
    crate::app::discovered::adopt(&mut s, registry);
    run_command(&mut s, "sa");
    assert!(!s.applies(Action::Enter), "no row yet");
    let key = s
        .top_list()
        .map(|l| l.key.clone())
        .expect("the serviceaccounts list");
    assert!(s.top_list().is_some_and(|l| l.shows_service_accounts()));
    let slot = Slot::new(key, 1);
    let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
    let mut writer = StoreWriter::new(slot.clone(), tx);
    writer.init();
    writer.init_apply(Row {
        capacity: None,
        namespace: Some(Arc::from("team-a")),
        name: "deployer".into(),
        uid: "uid-deployer".into(),
        created: Some(0),
        labels: Arc::from(Vec::new()),
        cells: Vec::new().into(),
        health: Health::Ok,
        drill: None,
        event: None,
        owner: None,
        uses: None,
        origin: 0,
    });
    writer.init_done(Some("1".into()));
    writer.publish();
    let id = s.top_id();
    assert!(s.attach(
        id,
        crate::app::state::Feed::Rows(crate::app::state::Source::fixed(slot))
    ));
    crate::app::refresh_top::refresh_top(&mut s);
    assert!(s.applies(Action::Enter));
    let fx = update(&mut s, Action::Enter);
    assert!(fx.iter().any(|e| matches!(e, Effect::FetchRbac(_))), "{fx:?}");
    assert_eq!(top(&s).question(), "what ServiceAccount team-a/deployer may do");
}
