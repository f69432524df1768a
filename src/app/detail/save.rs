//! `ctrl-s` in the YAML or describe view: writes what the view shows to
//! `<state dir>/saved/<context>_<kind>_<namespace>_<name>.yaml` (or `.describe.txt`), readable
//! by the user only, and says where. Owns file naming and permissions; must not decide what
//! is written (that is `DetailState::save_text`: Secret values are always masked).

use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use crate::app::state::{Screen, UiState, ViewId};
use crate::kube::builtin::BuiltinKind;

/// Saves view `id`, if it is a YAML or describe view still on the stack (the loop runs this
/// for `Effect::Save`); the outcome goes to the footer.
pub fn save(state: &mut UiState, id: ViewId) {
    if crate::app::logs::save::save(state, id) {
        return;
    }
    let Some((_, Screen::Yaml(y))) = state.views().find(|(i, _)| *i == id) else {
        return;
    };
    if y.lines.is_empty() || y.history.as_ref().is_some_and(|h| h.is_empty()) {
        state.screens.message = Some("nothing to save yet".into());
        return;
    }
    let context = state.conn.context.as_deref().unwrap_or("default");
    let ns = y.key.namespace.as_deref();
    let parts: Vec<&str> = [Some(context), Some(y.key.kind.singular()), ns, Some(&y.name)]
        .into_iter()
        .flatten()
        .collect();
    let path = match (&y.history, y.blame) {
        (Some(_), _) => saved_path_ext(&parts, "history.txt"),
        (None, true) => saved_path_ext(&parts, "blame.txt"),
        (None, false) => saved_path(&parts, y.describe),
    };
    let masked = y.reveal && !y.describe && y.key.kind == BuiltinKind::Secret;
    let text = y.save_text();
    match write_private(&path, &text) {
        Ok(()) if masked => state.note(format!("saved {} (secret values masked)", path.display())),
        Ok(()) => state.note(format!("saved {}", path.display())),
        Err(e) => state.screens.message = Some(format!("cannot save {}: {e}", path.display())),
    }
}

/// `s` with every character outside `[A-Za-z0-9._-]` replaced by `_` (names may hold `/`,
/// `:` or control characters).
pub(crate) fn file_safe(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Writes `text` to `path` with mode 0600, creating its directory with mode 0700.
pub(crate) fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)?;
    }
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)?;
    // An older file keeps its mode on open: narrow it too.
    f.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    f.write_all(text.as_bytes())
}

/// `<state dir>/saved/<parts joined by _>.yaml` (or `.describe.txt`), each part file-safe.
pub fn saved_path(parts: &[&str], describe: bool) -> PathBuf {
    saved_path_ext(parts, if describe { "describe.txt" } else { "yaml" })
}

/// `<state dir>/saved/<parts joined by _>.<ext>`, each part file-safe.
pub fn saved_path_ext(parts: &[&str], ext: &str) -> PathBuf {
    let stem: Vec<String> = parts.iter().map(|p| file_safe(p)).collect();
    crate::logging::state_dir()
        .join("saved")
        .join(format!("{}.{ext}", stem.join("_")))
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
    fn names_are_file_safe_and_files_private() {
        assert_eq!(file_safe("a/b:c\u{1b}[2J"), "a_b_c__2J");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("saved").join("x.yaml");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "old").unwrap();
        write_private(&path, "new").unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(
            (std::fs::read_to_string(&path).unwrap().as_str(), mode),
            ("new", 0o600)
        );
    }

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
