//! File logging through `tracing`. Owns where logs go; must never write to the terminal and
//! never log credentials (tokens, client keys, exec plugin output).

use std::path::PathBuf;

use anyhow::{Context, Result};
use tracing_subscriber::EnvFilter;

/// The state directory (`$XDG_STATE_HOME/ktui`, else `~/.local/state/ktui`, else a temp dir).
pub fn state_dir() -> PathBuf {
    directories::ProjectDirs::from("", "", "ktui")
        .and_then(|d| d.state_dir().map(|p| p.to_path_buf()))
        .unwrap_or_else(|| std::env::temp_dir().join("ktui"))
}

/// Sends `tracing` output to `path` (default `state_dir()/ktui.log`), filtered by
/// `KTUI_LOG`, else by `level` (the config's `[log] level`). Returns the path used.
pub fn init_with(path: Option<PathBuf>, level: &str) -> Result<PathBuf> {
    let path = path.unwrap_or_else(|| state_dir().join("ktui.log"));
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .with_context(|| format!("opening log file {}", path.display()))?;
    let filter = EnvFilter::try_from_env("KTUI_LOG").unwrap_or_else(|_| EnvFilter::new(level));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::sync::Mutex::new(file))
        .with_ansi(false)
        .try_init()
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(path)
}
