//! The footer's key hints, generated from the keymap in use and filtered by what applies in
//! the view on top (`UiState::applies`, the rule dispatch uses too). Whole hints only, as
//! many as fit the width, in order of usefulness; the quit hint always stays.

use ratatui::text::{Line, Span};

use crate::app::state::{Screen, UiState};
use crate::keys::Action;

use super::theme::Theme;

/// The hinted actions, most useful first; `Quit` is kept whatever the width.
const WANTED: [Action; 28] = [
    Action::CommandMode,
    Action::FilterMode,
    Action::Help,
    Action::Enter,
    Action::Back,
    Action::ToggleWarnings,
    Action::Yaml,
    Action::Describe,
    Action::ObjectEvents,
    Action::JumpOwner,
    Action::ToggleManaged,
    Action::Reveal,
    Action::Save,
    Action::Delete,
    Action::Edit,
    Action::Shell,
    Action::Attach,
    Action::PortForward,
    Action::Scale,
    Action::Restart,
    Action::Cordon,
    Action::Uncordon,
    Action::Drain,
    Action::Trigger,
    Action::Suspend,
    Action::Rollback,
    Action::Mark,
    Action::Copy,
];

/// The keys most useful for the selected row's kind, hinted right after `:`, `/`, `?` and the
/// plugins (a pod: `l logs  s shell  F forward  h history`); the rest follow in [`WANTED`]'s
/// order. Only those that apply are shown, as everywhere.
fn for_the_row(state: &UiState) -> &'static [Action] {
    use crate::kube::builtin::BuiltinKind as K;
    use Action::*;
    let Some(kind) = state
        .top_list()
        .filter(|l| !l.is_timeline())
        .and_then(|l| l.key.kind.builtin())
    else {
        return &[];
    };
    match kind {
        K::Pod => &[Logs, Shell, Attach, PortForward, History, Xray],
        K::Deployment | K::StatefulSet | K::DaemonSet => &[Logs, Scale, Restart, History, Xray],
        K::ReplicaSet | K::Job => &[Logs, History, Xray],
        K::CronJob => &[Trigger, Suspend, History, Xray],
        K::Node => &[Cordon, Uncordon, Drain, Xray],
        K::Service => &[PortForward, Xray],
        _ => &[History],
    }
}

/// Gap after each hint.
const GAP: &str = "  ";

/// Footer hints for a footer `width` cells wide: the first binding of each action that
/// applies, `<key> word`, then `<key> quit`.
pub(super) fn line(state: &UiState, theme: &Theme, width: u16) -> Line<'static> {
    let hint = |a: Action| {
        let b = state
            .settings
            .keymap
            .effective(state.top().key_mode())
            .into_iter()
            .find(|b| b.run == a)?;
        let short = state
            .settings
            .plugins
            .name_of(a)
            .or_else(|| word(state, a))
            .unwrap_or_else(|| b.desc.split([' ', ':', '(']).next().unwrap_or(""));
        Some((format!("<{}>", b.on), format!(" {short}")))
    };
    let cells = |(k, w): &(String, String)| k.chars().count() + w.chars().count();
    let quit = Some(Action::Quit).filter(|a| state.offers(*a)).and_then(hint);
    let mut budget = usize::from(width).saturating_sub(quit.as_ref().map_or(0, cells));
    let mut shown = Vec::new();
    // The plugins in scope come after `?`: they are the user's own keys.
    let plugins =
        (0..state.settings.plugins.active.len()).filter_map(|i| u16::try_from(i).ok().map(Action::Plugin));
    let first = for_the_row(state);
    let wanted = WANTED[..3]
        .iter()
        .copied()
        .chain(plugins)
        .chain(first.iter().copied())
        .chain(WANTED[3..].iter().copied().filter(|a| !first.contains(a)));
    for h in wanted.filter(|a| state.offers(*a)).filter_map(hint) {
        let need = cells(&h) + GAP.len();
        if need > budget {
            break;
        }
        budget -= need;
        shown.push(h);
    }
    shown.extend(quit);
    let mut spans = Vec::new();
    for (key, word) in shown {
        spans.push(Span::styled(key, theme.label));
        spans.push(Span::styled(format!("{word}{GAP}"), theme.dim));
    }
    Line::from(spans)
}

/// Words for actions whose help text does not start with one.
fn word(state: &UiState, a: Action) -> Option<&'static str> {
    let list = matches!(state.top(), Screen::List(_));
    match a {
        Action::Yaml => Some("yaml"),
        Action::JumpOwner => Some("owner"),
        Action::History => Some("history"),
        Action::ToggleManaged => Some("managed"),
        Action::Reveal => Some("decode"),
        Action::Restart => Some("restart"),
        Action::Rollback => Some("rollback"),
        Action::Suspend => Some("suspend/resume"),
        Action::Drain => Some("drain"),
        Action::Back if !list => Some("back"),
        Action::Enter if matches!(state.top(), Screen::Revisions(_)) => Some("roll back"),
        Action::Enter if matches!(state.top(), Screen::Can(_)) => Some("what it may do"),
        Action::Enter if state.top_list().is_some_and(|l| l.shows_service_accounts()) => {
            Some("what it may do")
        }
        Action::Enter if !list => Some("open"),
        _ => None,
    }
}
