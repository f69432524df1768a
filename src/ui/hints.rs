//! The footer's key hints, generated from the keymap in use and filtered by what applies in
//! the view on top (`UiState::applies`, the rule dispatch uses too).

use ratatui::text::{Line, Span};

use crate::app::state::UiState;

use super::theme::Theme;

/// Footer hints, generated from the keymap (first binding of the most useful actions).
pub(super) fn line(state: &UiState, theme: &Theme) -> Line<'static> {
    use crate::app::action::Action;
    use crate::app::keymap::KeyMode;
    let wanted = [
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
        Action::Quit,
    ];
    // Words for actions whose help text does not start with one.
    let word = |a: Action| match a {
        Action::Yaml => Some("yaml"),
        Action::JumpOwner => Some("owner"),
        Action::ToggleManaged => Some("managed"),
        Action::Reveal => Some("decode"),
        Action::Back if !matches!(state.top(), crate::app::state::Screen::List(_)) => Some("back"),
        Action::Enter if !matches!(state.top(), crate::app::state::Screen::List(_)) => Some("open"),
        _ => None,
    };
    let mut spans = Vec::new();
    for a in wanted {
        if !state.applies(a) {
            continue;
        }
        if let Some(b) = state
            .settings
            .keymap
            .bindings(KeyMode::Normal)
            .iter()
            .find(|b| b.run == a)
        {
            spans.push(Span::styled(format!("<{}>", b.on), theme.label));
            let short = word(a)
                .unwrap_or_else(|| b.desc.split([' ', ':', '(']).next().unwrap_or(""))
                .to_owned();
            spans.push(Span::styled(format!(" {short}  "), theme.dim));
        }
    }
    Line::from(spans)
}
