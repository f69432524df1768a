//! `ctrl-s` in the YAML or describe view: what to write to
//! `<state dir>/saved/<context>_<kind>_<namespace>_<name>.yaml` (or `.describe.txt`) and the
//! footer line once written. Owns that choice; must not decide what is written (that is
//! `DetailState::save_text`: Secret values are always masked) nor write (the runtime does,
//! with mode 0600, see `Effect::WriteFile`).

use crate::app::effect::{AfterWrite, Effect, FileWrite};
use crate::app::files::{saved_path, saved_path_ext};
use crate::app::state::{Screen, UiState, ViewId};
use crate::kube::builtin::BuiltinKind;

/// The file of view `id`, if it is a YAML or describe view still on the stack (the loop
/// asks for `Effect::Save`); `None` (with a footer line when there is nothing yet) else.
pub fn save(state: &mut UiState, id: ViewId) -> Option<Effect> {
    let Some((_, Screen::Yaml(y))) = state.views().find(|(i, _)| *i == id) else {
        return None;
    };
    if y.lines.is_empty() || y.history.as_ref().is_some_and(|h| h.is_empty()) {
        state.screens.footer.message = Some("nothing to save yet".into());
        return None;
    }
    let context = state.conn.context.as_deref().unwrap_or("default");
    let ns = y.key.namespace.as_deref();
    let parts: Vec<&str> = [Some(context), Some(y.key.kind.singular()), ns, Some(&y.name)]
        .into_iter()
        .flatten()
        .collect();
    let dir = &state.settings.dirs.state;
    let path = match (&y.history, y.blame) {
        (Some(_), _) => saved_path_ext(dir, &parts, "history.txt"),
        (None, true) => saved_path_ext(dir, &parts, "blame.txt"),
        (None, false) => saved_path(dir, &parts, y.describe),
    };
    let masked = y.reveal && !y.describe && y.key.kind == BuiltinKind::Secret;
    let note = match masked {
        true => format!("saved {} (secret values masked)", path.display()),
        false => format!("saved {}", path.display()),
    };
    Some(Effect::WriteFile(Box::new(FileWrite {
        path,
        text: y.save_text(),
        create_new: false,
        then: AfterWrite::Note(note),
    })))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::json;

    use super::*;
    use crate::app::detail::model::DetailState;
    use crate::app::state::ObjectFeed;
    use crate::kube::key::ResourceKey;
    use crate::kube::object::ObjectView;

    #[test]
    fn a_revealed_secret_is_saved_masked_and_text_stays_valid_yaml() {
        let key = ResourceKey::new(BuiltinKind::Secret, Some("a"));
        let secret = json!({"metadata": {"name": "db", "namespace": "a",
            "labels": {"evil": "x\u{202e}y\u{1b}"}}, "data": {"password": "aHVudGVyMg=="}});
        let mut y = DetailState::new(key.clone(), "db");
        y.reveal = true;
        y.watch = Some(ObjectFeed::fixed(
            key,
            ObjectView {
                object: Some(Arc::new(secret)),
                ..Default::default()
            },
        ));
        let text = y.save_text();
        assert!(
            !text.contains("hunter2") && !text.contains("aHVudGVyMg"),
            "{text}"
        );
        let back: serde_json::Value = serde_saphyr::from_str(&text).unwrap();
        assert_eq!(back["metadata"]["labels"]["evil"], "x\u{202e}y\u{1b}");
    }
}
