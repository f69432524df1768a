//! The files ktui writes and reads for the UI: `Effect::WriteFile` (mode 0600, directories
//! 0700), an edit's file read back and removed, the prompt history, and the directories and
//! editor the app is told about at start ([`dirs`]). Owns that I/O; must not decide what is
//! written (the app's transitions do).

use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use crate::app::effect::FileWrite;
use crate::app::prompt::history::PromptHistory;
use crate::app::state::Dirs;

/// The state and temp directories and the editor of `e`, read once from the environment.
pub fn dirs() -> Dirs {
    Dirs {
        state: crate::logging::state_dir(),
        temp: std::env::temp_dir(),
        editor: editor_line(|k| std::env::var(k).ok()),
    }
}

/// `$KUBE_EDITOR`, else `$EDITOR`, as `kubectl edit` chooses (blank counts as unset).
pub fn editor_line(env: impl Fn(&str) -> Option<String>) -> Option<String> {
    ["KUBE_EDITOR", "EDITOR"]
        .into_iter()
        .filter_map(env)
        .find(|s| !s.trim().is_empty())
}

/// Writes `file` (see [`write_private`]); the error in words.
pub fn write(file: &FileWrite) -> Result<(), String> {
    write_private(&file.path, &file.text, file.create_new).map_err(|e| e.to_string())
}

/// Writes `text` to `path` with mode 0600, creating its directory with mode 0700; an older
/// file is truncated and its mode narrowed; `create_new` refuses an existing file.
pub fn write_private(path: &Path, text: &str, create_new: bool) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)?;
    }
    let mut o = std::fs::OpenOptions::new();
    o.write(true).truncate(true).mode(0o600);
    if create_new {
        o.create_new(true);
    } else {
        o.create(true);
    }
    let mut f = o.open(path)?;
    // An older file (or one an editor saved by rename) keeps its mode on open: narrow it.
    f.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    f.write_all(text.as_bytes())
}

/// The text of a file an editor edited, the error in words.
pub fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| e.to_string())
}

/// Where the prompt history lives.
pub fn history_path() -> PathBuf {
    crate::logging::state_dir().join("prompt-history")
}

/// Reads the prompt history (empty when missing or unreadable).
pub fn load_history() -> PromptHistory {
    std::fs::read_to_string(history_path())
        .map_or_else(|_| PromptHistory::default(), |t| PromptHistory::from_text(&t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_private_and_rewrites_narrow_them() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("saved").join("x.yaml");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "old").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        write_private(&path, "new", false).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(
            (std::fs::read_to_string(&path).unwrap().as_str(), mode),
            ("new", 0o600)
        );
        assert!(
            write_private(&path, "again", true).is_err(),
            "a new file never overwrites"
        );
        let fresh = dir.path().join("new").join("y");
        write_private(&fresh, "y", true).unwrap();
        let dmode = std::fs::metadata(fresh.parent().unwrap())
            .unwrap()
            .permissions()
            .mode()
            & 0o777;
        assert_eq!(dmode, 0o700);
    }

    #[test]
    fn the_editor_is_chosen_as_kubectl_does() {
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |k: &str| vars.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
        };
        assert_eq!(
            editor_line(env(&[("EDITOR", "code -w"), ("KUBE_EDITOR", "nano")])).as_deref(),
            Some("nano")
        );
        assert_eq!(
            editor_line(env(&[("EDITOR", "code -w"), ("KUBE_EDITOR", " ")])).as_deref(),
            Some("code -w")
        );
        assert_eq!(editor_line(env(&[])), None);
    }
}
