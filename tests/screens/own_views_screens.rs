//! ktui's own tables at 60×15, 80×24 and 160×45: `:informers` keys are never cut while they
//! fit and its headers never run together (columns that do not fit are dropped whole and
//! named in the title); `:ctx` shows NAME, CLUSTER, AUTHINFO and NAMESPACE as k9s does.

use std::time::{Duration, Instant};

use ktui::app::state::{Screen, UiState};
use ktui::kube::builtin::BuiltinKind;
use ktui::kube::informer::{Encoding, ListMethod};
use ktui::kube::key::ResourceKey;
use ktui::kube::pool::InformerInfo;
use ktui::kube::stats::{ListUse, StatsView};
use ktui::kube::sync::SyncState;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

use crate::screen::{self, NOW};

const SIZES: [(u16, u16); 3] = [(60, 15), (80, 24), (160, 45)];

fn info(key: ResourceKey, objects: u64, subs: usize) -> InformerInfo {
    InformerInfo {
        origin: 0,
        key,
        stats: StatsView {
            lists: 2,
            reconnects: 1,
            events: 12_345,
            bookmarks: 3,
            objects,
            resource_version: Some("918273".into()),
            last_bookmark: None,
            drift_repairs: 0,
            last_drift: None,
            last_list: Some(ListUse {
                method: ListMethod::Streamed,
                encoding: Encoding::Protobuf,
                fallback: None,
            }),
            state: SyncState::Live,
            started: Instant::now(),
        },
        subscribers: subs,
        stops_in: (subs == 0).then(|| Duration::from_secs(42)),
        unreadable: None,
    }
}

fn infos() -> Vec<InformerInfo> {
    vec![
        info(ResourceKey::new(BuiltinKind::Pod, None), 100_000, 2),
        info(ResourceKey::new(BuiltinKind::Deployment, Some("shop")), 12, 1),
        info(
            ResourceKey::new(BuiltinKind::Pod, Some("shop")).with_labels("app=web,tier in (a,b)"),
            3,
            0,
        ),
    ]
}

fn draw(state: &mut UiState, infos: &[InformerInfo], w: u16, h: u16) -> String {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    state.screens.layout.informers_len = infos.len();
    term.draw(|f| ktui::ui::draw(f, state, infos, NOW)).unwrap();
    screen::assert_cuts_marked(state, &term);
    format!("{}", term.backend())
}

/// The table's header line (the first line inside the box under the title).
fn header_line(screen: &str, first: &str) -> String {
    screen
        .lines()
        .find(|l| l.contains(first) && !l.contains('┌'))
        .unwrap_or_default()
        .trim_matches(|c| c == '│' || c == '"')
        .to_owned()
}

#[test]
fn informers_keys_whole_and_headers_apart_at_three_sizes() {
    let infos = infos();
    let headers = [
        "KEY",
        "STATE",
        "LIST",
        "RESOURCE VERSION",
        "BOOKMARK",
        "RELISTS",
        "RECONNECTS",
        "EVENTS",
        "OBJECTS",
        "SUBS",
        "STOPS IN",
    ];
    for (w, h) in SIZES {
        let mut state = screen::ui_state(Screen::Informers { selected: 0 }, None, false);
        screen::connect(&mut state, "prod-eu");
        let text = draw(&mut state, &infos, w, h);
        let line = header_line(&text, "KEY");
        // Every header shown is whole and apart from the next; the others are named.
        let title = text
            .lines()
            .find(|l| l.contains("informers[3]"))
            .unwrap_or_default()
            .to_owned();
        // RESOURCE VERSION is headed RV where its full header does not fit.
        let is_shown = |hd: &str| line.contains(&format!("{hd} ")) || line.trim_end().ends_with(hd);
        let shown = headers
            .iter()
            .filter(|hd| is_shown(hd) || (**hd == "RESOURCE VERSION" && is_shown("RV")))
            .count();
        let hidden = headers.len() - shown;
        if hidden > 0 {
            assert!(
                title.contains(&format!("{hidden} hidden")),
                "{w}x{h}: {hidden} hidden\n{text}"
            );
        }
        assert!(
            !line.contains("VERSIONBOOKMARK") && !line.contains("RELISTSRECONNECTS"),
            "{line}"
        );
        for key in ["pods@*", "deployments@shop"] {
            assert!(text.contains(key), "{w}x{h}: {key} cut\n{text}");
        }
        if w >= 160 {
            assert!(!title.contains("hidden"), "{w}x{h}: all columns fit\n{text}");
            assert!(text.contains("app=web,tier in (a,b)"), "{text}");
        } else {
            assert!(
                title.contains("hidden"),
                "{w}x{h}: dropped columns are named\n{text}"
            );
        }
        insta::assert_snapshot!(format!("informers_{w}x{h}"), text);
    }
}

#[test]
fn informers_name_the_last_drift_repair_in_the_state_column() {
    let mut infos = infos();
    infos[0].stats.drift_repairs = 1;
    infos[0].stats.last_drift = Some((
        Instant::now() - Duration::from_secs(125),
        "drift repaired: 37 removed, 3 added, 0 changed (resourceVersion went back from 728 to 685 in a probe)"
            .into(),
    ));
    let mut state = screen::ui_state(Screen::Informers { selected: 0 }, None, false);
    screen::connect(&mut state, "prod-eu");
    let text = draw(&mut state, &infos, 200, 45);
    let row = text.lines().find(|l| l.contains("pods@*")).unwrap_or_default();
    assert!(
        row.contains("live; drift repaired 2m ago: 37 removed, 3 added"),
        "{text}"
    );
}

#[test]
fn informers_say_how_they_listed_and_why_paged() {
    let mut infos = infos();
    infos[1].stats.last_list = Some(ListUse {
        method: ListMethod::Paged,
        encoding: Encoding::Json,
        fallback: Some("streaming list refused (422): sendInitialEvents is forbidden".into()),
    });
    infos[2].stats.last_list = None;
    let mut state = screen::ui_state(Screen::Informers { selected: 0 }, None, false);
    screen::connect(&mut state, "prod-eu");
    let text = draw(&mut state, &infos, 200, 45);
    let row = |key: &str| {
        text.lines()
            .find(|l| l.contains(key))
            .unwrap_or_default()
            .to_owned()
    };
    assert!(row("pods@*").contains(" streamed "), "{text}");
    let deploy = row("deployments@shop");
    assert!(deploy.contains(" paged "), "{text}");
    assert!(
        deploy.contains("live; paged: streaming list refused (422)"),
        "{text}"
    );
    // No list completed yet.
    assert!(row("app=web").contains(" - "), "{text}");
}

#[test]
fn contexts_show_cluster_user_and_namespace_at_three_sizes() {
    for (w, h) in SIZES {
        let mut state = screen::ui_state(Screen::Contexts { selected: 1 }, None, false);
        screen::connect(&mut state, "prod-eu");
        state.conn.contexts = vec!["prod-eu".into(), "staging".into(), "kind-kind".into()];
        state.conn.context = Some("prod-eu".into());
        state.conn.context_details = vec![
            [
                "eks-prod-eu-west-1".into(),
                "arn:aws:iam::1234:role/admin".into(),
                "shop".into(),
            ],
            ["gke-staging".into(), "ci-bot".into(), "".into()],
            ["kind-kind".into(), "kind-kind".into(), "kube-system".into()],
        ];
        let text = draw(&mut state, &[], w, h);
        let line = header_line(&text, "NAME");
        for hd in ["NAME", "CLUSTER"] {
            assert!(line.contains(hd), "{w}x{h}: {hd}\n{text}");
        }
        assert!(
            text.contains("(*)") && text.contains("prod-eu") && text.contains("kind-kind"),
            "{text}"
        );
        // The lists' gap of two cells between columns, even after the widest value.
        assert!(text.contains("(*)  prod-eu"), "{w}x{h}: gap\n{text}");
        if w >= 80 {
            assert!(line.contains("AUTHINFO") && line.contains("NAMESPACE"), "{text}");
            assert!(
                text.contains("eks-prod-eu-west-1") && text.contains("default"),
                "{text}"
            );
            assert!(
                text.contains("eks-prod-eu-west-1  arn:aws"),
                "{w}x{h}: gap\n{text}"
            );
        }
        insta::assert_snapshot!(format!("contexts_{w}x{h}"), text);
    }
}

#[test]
fn api_resources_use_the_lists_gap_and_mark_their_cuts() {
    for (w, h) in [(60, 20), (200, 50)] {
        let mut state = screen::ui_state(
            Screen::ApiResources {
                selected: 0,
                filter: String::new(),
            },
            None,
            false,
        );
        screen::connect(&mut state, "prod-eu");
        state.conn.registry = std::sync::Arc::new(ktui::kube::registry::Registry::builtins());
        let text = draw(&mut state, &[], w, h);
        let line = header_line(&text, "NAME");
        // Headers two cells apart at least, as in every list.
        let words: Vec<&str> = line.trim_matches(|c| c == '│' || c == ' ').split("  ").collect();
        assert!(
            words.iter().all(|w| !w.trim().contains(' ')),
            "{w}x{h}: {line}\n{text}"
        );
        if w >= 200 {
            assert!(
                text.lines().any(|l| l.contains("horizontalpodautoscalers  hpa ")),
                "{w}x{h}\n{text}"
            );
        }
        insta::assert_snapshot!(format!("api_resources_{w}x{h}"), text);
    }
}

#[test]
fn the_rollback_list_keeps_image_tags_and_marks_its_cuts() {
    use ktui::app::history::model::RevisionsState;
    use ktui::kube::write::rollback::Revision;
    use ktui::kube::write::Target;
    let rev = |number: u64, tag: &str, ago: i64| Revision {
        number,
        replicaset: format!("api-gateway-{number}"),
        change_cause: None,
        images: vec![format!("ghcr.io/ktui/api-gateway:{tag}")],
        created: Some(NOW - ago),
    };
    for (w, h) in [(60, 20), (80, 24), (160, 45)] {
        let r = RevisionsState {
            target: Target::new(BuiltinKind::Deployment.into(), Some("shop"), "api-gateway"),
            revisions: vec![
                rev(10, "1.10.0", 60),
                rev(9, "1.9.0", 3600),
                rev(1, "1.0.0", 86_400),
            ],
            selected: 0,
            rollout: None,
            owner_uid: None,
            seen: 0,
        };
        let mut state = screen::ui_state(Screen::Revisions(Box::new(r)), None, false);
        screen::connect(&mut state, "prod-eu");
        let text = draw(&mut state, &[], w, h);
        // The tag tells revisions apart: it stays, the cut (if any) marked in the middle.
        for tag in [":1.10.0", ":1.9.0", ":1.0.0"] {
            assert!(text.contains(tag), "{w}x{h}: {tag}\n{text}");
        }
        assert!(text.contains("10 (in use)"), "{w}x{h}\n{text}");
        let line = header_line(&text, "IMAGES");
        if !line.contains("AGE") {
            assert!(
                text.contains("hidden: AGE"),
                "{w}x{h}: AGE dropped unnamed\n{text}"
            );
        }
        if w >= 80 {
            assert!(
                text.contains("ghcr.io/ktui/api-gateway:1.10.0"),
                "{w}x{h}\n{text}"
            );
        }
    }
}
