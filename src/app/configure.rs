//! Applies a loaded [`Config`] to the UI state: keymap, theme, aliases, read-only, and the
//! per-context overrides once the context is known. Owns that mapping; must not read files
//! (the config is loaded by `main`) or perform I/O.

use crate::config::theme::ThemeSpec;
use crate::config::Config;

use crate::app::state::UiState;

/// Settings that depend on the context: call at start (with `--context`, if given) and again
/// whenever the context in use is known or changes. `cli_readonly` is `--readonly`, which a
/// context's `readonly = false` cannot undo.
pub fn apply(state: &mut UiState, config: &Config, context: Option<&str>, cli_readonly: bool) {
    state.settings.readonly = cli_readonly || config.readonly_for(context);
    state.settings.plugins.active = crate::app::plugins::in_force(config, state.settings.readonly);
    state.settings.keymap = crate::app::plugins::bind(&config.keymap(), &state.settings.plugins.active);
    state.settings.theme = theme_for(config, context);
    state.settings.aliases = config.aliases.clone();
    state.settings.favourites = config.favourites_for(context).to_vec();
    state.settings.fallback = config.fallback_for(context).to_vec();
    state.settings.icons = config.ui.icons;
    state.settings.logs = crate::app::logs::model::LogSettings::from_config(&config.logs);
    state.settings.protected = config.actions.protected.iter().map(|p| p.0.clone()).collect();
    state.settings.usage = crate::app::usage::model::UsageSettings::from_config(&config.metrics);
}

/// The theme of `context` with the configured colour support (`[ui] colors`; `auto` reads
/// `NO_COLOR`, `COLORTERM` and `TERM` here, never in `UiState::new`).
pub fn theme_for(config: &Config, context: Option<&str>) -> ThemeSpec {
    ThemeSpec::load(config.theme_for(context), config.ui.colors.support()).unwrap_or_else(ThemeSpec::dark)
}

/// `line` with its first word replaced by the alias it names, if it does (`[aliases]`,
/// `web = "pods -l app=web"`: `:web prod` runs `pods -l app=web prod`). Aliases do not
/// expand recursively.
pub fn expand_alias(state: &UiState, line: &str) -> Option<String> {
    let line = line.trim();
    let (first, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let target = state.settings.aliases.get(first)?;
    Some(if rest.trim().is_empty() {
        target.clone()
    } else {
        format!("{target} {}", rest.trim())
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::app::state::{ListState, Screen};
    use crate::keys::Action;
    use crate::keys::{KeyMode, KeyPress, Lookup};
    use crate::kube::builtin::BuiltinKind;
    use crate::kube::key::ResourceKey;

    fn state() -> UiState {
        let key = ResourceKey::new(BuiltinKind::Pod, Some("default"));
        UiState::new(
            Screen::List(Box::new(ListState::new(key, None))),
            Some("default".into()),
            false,
        )
    }

    #[test]
    fn overrides_reach_the_state() {
        let cfg = crate::config::parse(
            Path::new("c.toml"),
            "[aliases]\nweb = \"pods -l app=web\"\n[keymap.normal]\nbindings = [{ on = \"q\", run = \"quit\" }]\n\
             [context.prod]\nreadonly = true\ntheme = \"mono\"\n",
        )
        .unwrap();
        let mut s = state();
        apply(&mut s, &cfg, Some("prod"), false);
        assert!(s.settings.readonly);
        assert_eq!(s.settings.theme.ok.fg, None);
        let q = KeyPress::parse("q").unwrap();
        assert_eq!(
            s.settings.keymap.lookup(KeyMode::Normal, &[], q),
            Lookup::Action(Action::Quit)
        );
        assert_eq!(expand_alias(&s, "web").as_deref(), Some("pods -l app=web"));
        assert_eq!(
            expand_alias(&s, " web  shop ").as_deref(),
            Some("pods -l app=web shop")
        );
        assert_eq!(expand_alias(&s, "pods"), None);
        apply(&mut s, &cfg, Some("dev"), false);
        assert!(!s.settings.readonly);
    }

    #[test]
    fn an_alias_runs_its_command() {
        let cfg = crate::config::parse(
            Path::new("c.toml"),
            "[aliases]
web = \"deploy -l app=web\"\n",
        )
        .unwrap();
        let mut s = state();
        apply(&mut s, &cfg, None, false);
        crate::app::update::run_command(&mut s, "web shop");
        let key = &s.top_list().unwrap().key;
        assert_eq!(key.kind, BuiltinKind::Deployment);
        assert_eq!(key.labels.as_deref(), Some("app=web"));
        assert_eq!(key.namespace.as_deref(), Some("shop"));
    }
}
