//! Names of the files ktui writes: file-safe parts and the `saved/` paths under the state
//! directory. Pure; must not touch the file system (the runtime writes, see
//! `Effect::WriteFile`).

use std::path::{Path, PathBuf};

/// `s` with every character outside `[A-Za-z0-9._-]` replaced by `_` (names may hold `/`,
/// `:` or control characters).
pub fn file_safe(s: &str) -> String {
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

/// `<state>/saved/<parts joined by _>.yaml` (or `.describe.txt`), each part file-safe.
pub fn saved_path(state: &Path, parts: &[&str], describe: bool) -> PathBuf {
    saved_path_ext(state, parts, if describe { "describe.txt" } else { "yaml" })
}

/// `<state>/saved/<parts joined by _>.<ext>`, each part file-safe.
pub fn saved_path_ext(state: &Path, parts: &[&str], ext: &str) -> PathBuf {
    let stem: Vec<String> = parts.iter().map(|p| file_safe(p)).collect();
    state.join("saved").join(format!("{}.{ext}", stem.join("_")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_file_safe() {
        assert_eq!(file_safe("a/b:c\u{1b}[2J"), "a_b_c__2J");
        assert_eq!(
            saved_path(Path::new("/s"), &["ctx", "pod", "a/b"], true),
            Path::new("/s/saved/ctx_pod_a_b.describe.txt")
        );
    }
}
