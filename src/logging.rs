//! File logging through `tracing`. Owns where logs go; must never write to the terminal and
//! never log credentials (tokens, client keys, exec plugin output).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use tracing_subscriber::EnvFilter;

/// The state directory (`$XDG_STATE_HOME/ktui`, else `~/.local/state/ktui`, else a temp dir).
pub fn state_dir() -> PathBuf {
    directories::ProjectDirs::from("", "", "ktui")
        .and_then(|d| d.state_dir().map(|p| p.to_path_buf()))
        .unwrap_or_else(|| std::env::temp_dir().join("ktui"))
}

/// Opens `path` for appending, readable by the user only (mode 0600): logs hold server URLs
/// and object names. A file that already existed with wider permissions is narrowed.
///
/// Errors: the file cannot be created or opened, or its permissions cannot be changed.
fn open_private(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .open(path)?;
    file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    Ok(file)
}

/// Sends `tracing` output to `path` (default `state_dir()/ktui.log`), filtered by
/// `KTUI_LOG`, else by `level` (the config's `[log] level`). Returns the path used.
pub fn init_with(path: Option<PathBuf>, level: &str) -> Result<PathBuf> {
    let path = path.unwrap_or_else(|| state_dir().join("ktui.log"));
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let file = open_private(&path).with_context(|| format!("opening log file {}", path.display()))?;
    let filter = EnvFilter::try_from_env("KTUI_LOG").unwrap_or_else(|_| EnvFilter::new(level));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::sync::Mutex::new(file))
        .with_ansi(false)
        .try_init()
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::open_private;

    fn mode(path: &std::path::Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn log_files_are_readable_by_the_user_only() {
        let dir = tempfile::tempdir().unwrap();
        let fresh = dir.path().join("new.log");
        open_private(&fresh).unwrap();
        assert_eq!(mode(&fresh), 0o600);

        let old = dir.path().join("old.log");
        std::fs::write(&old, "kept\n").unwrap();
        std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o644)).unwrap();
        open_private(&old).unwrap();
        assert_eq!(mode(&old), 0o600);
        assert_eq!(std::fs::read_to_string(&old).unwrap(), "kept\n");
    }
}
