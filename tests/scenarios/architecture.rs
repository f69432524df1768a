//! The layering rule of design.md as a test, not a comment: `src/kube`, `src/table` and
//! `src/view` (each module's root file and everything under its directory) never mention
//! `ratatui`, `crossterm`, `crate::app` or `crate::ui`, and `src/config` never mentions
//! `crate::app`. Reads the source as text: comments are skipped (a module doc may state the
//! rule), string and char literals are not code either; `use crate::{app, …}` groups count.
//! It cannot see a path spelled through `super::super::app`; review catches that one.

use std::path::{Path, PathBuf};

/// Names the UI-free layers must not mention: the terminal crates and the two UI modules.
const UI: &[Needle] = &[
    Needle::Word("ratatui"),
    Needle::Word("crossterm"),
    Needle::CratePath("app"),
    Needle::CratePath("ui"),
];

#[test]
fn kube_table_and_view_never_mention_the_ui() {
    let found = scan_layers(&["kube", "table", "view"], UI);
    assert!(
        found.is_empty(),
        "src/kube, src/table and src/view must not depend on the UI (design.md, layers):\n{}",
        found.join("\n")
    );
}

#[test]
fn config_never_mentions_app() {
    let found = scan_layers(&["config"], &[Needle::CratePath("app")]);
    assert!(
        found.is_empty(),
        "src/config must not mention crate::app: this is the config → app cycle of issue 11 \
         (the keymap types config parses live in app). It stays red until keys and actions \
         move to a module both use; do not loosen this check.\n{}",
        found.join("\n")
    );
}

/// The scanner itself: it must find each kind of mention, and not the look-alikes.
#[test]
fn the_scanner_finds_mentions_and_ignores_comments_strings_and_look_alikes() {
    let hits = |src: &str| mentions(src, UI);
    assert_eq!(hits("use ratatui::style::Style;"), ["1: ratatui"]);
    assert_eq!(
        hits("fn f() {\n    crossterm::terminal::size();\n}"),
        ["2: crossterm"]
    );
    assert_eq!(hits("use crate::app::keymap::Keymap;"), ["1: crate::app"]);
    assert_eq!(hits("pub fn k() -> crate::ui::theme::Theme {}"), ["1: crate::ui"]);
    assert_eq!(hits("use crate::{kube::key, app::Action};"), ["1: crate::app"]);
    assert_eq!(hits("use crate :: {\n    ui,\n    text,\n};"), ["1: crate::ui"]);
    assert_eq!(hits("use crate::{self as k, ui::{draw}};"), ["1: crate::ui"]);
    // Look-alikes and text that is not code.
    assert!(hits("use crate::uid::Uid; use crate::application; let ratatuix = 1;").is_empty());
    assert!(hits("//! Must never import `ratatui` or `crate::app`.").is_empty());
    assert!(hits("let x = 1; // crossterm would be wrong here").is_empty());
    assert!(hits("/* use crate::ui;\n   /* nested crate::app */ */ fn f() {}").is_empty());
    assert!(hits(r#"let s = "ratatui \" crate::app";"#).is_empty());
    assert!(hits(r##"let s = r#"crate::ui "quoted" crossterm"#;"##).is_empty());
    assert!(hits("let q = '\"'; let t = 'a'; fn g<'a>(x: &'a str) {}").is_empty());
    // Code after a literal or a comment on the same line still counts.
    assert_eq!(hits(r#"let s = "x"; use ratatui::Frame;"#), ["1: ratatui"]);
    assert_eq!(hits("/* c */ use crossterm::event;"), ["1: crossterm"]);
    assert_eq!(hits("let q = '\"'; use crate::app;"), ["1: crate::app"]);
}

/// What a layer must not mention.
#[derive(Debug, Clone, Copy)]
pub(super) enum Needle {
    /// An identifier, matched whole (`ratatui`, not `ratatuix`).
    Word(&'static str),
    /// A top-level module of the crate: `crate::NAME…` or an item of `crate::{…}`.
    CratePath(&'static str),
}

impl Needle {
    fn label(self) -> String {
        match self {
            Needle::Word(w) => w.to_owned(),
            Needle::CratePath(m) => format!("crate::{m}"),
        }
    }
}

/// Every mention of `needles` in the layers `layers` (`src/NAME.rs` and `src/NAME/**.rs`),
/// as `path:line: needle`.
pub(super) fn scan_layers(layers: &[&str], needles: &[Needle]) -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for layer in layers {
        let root = src.join(format!("{layer}.rs"));
        let dir = src.join(layer);
        assert!(
            root.is_file() || dir.is_dir(),
            "layer src/{layer} not found: the architecture test scans nothing"
        );
        if root.is_file() {
            files.push(root);
        }
        rust_files(&dir, &mut files);
    }
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("read {}: {e}", file.display()));
        let shown = file.strip_prefix(src.parent().unwrap()).unwrap_or(&file);
        for hit in mentions(&text, needles) {
            found.push(format!("{}:{hit}", shown.display()));
        }
    }
    found
}

/// The `.rs` files under `dir`, recursively (nothing when `dir` does not exist).
pub(super) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.map(|e| e.expect("dir entry").path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The mentions of `needles` in Rust source `src`, as `line: needle` (1-based lines).
fn mentions(src: &str, needles: &[Needle]) -> Vec<String> {
    let code = code_only(src);
    let mut out = Vec::new();
    for (i, line) in code.lines().enumerate() {
        for n in needles {
            if let Needle::Word(w) = n {
                if has_word(line, w) {
                    out.push(format!("{}: {}", i + 1, n.label()));
                }
            }
        }
    }
    // `crate::` paths may span lines (`use crate::{\n app,\n};`): scan the whole text.
    for (at, item) in crate_path_items(&code) {
        for n in needles {
            if let Needle::CratePath(m) = n {
                if item == *m {
                    let line = code[..at].matches('\n').count() + 1;
                    out.push(format!("{line}: {}", n.label()));
                }
            }
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

/// Whether `word` occurs in `line` as a whole identifier.
fn has_word(line: &str, word: &str) -> bool {
    line.match_indices(word).any(|(at, _)| {
        let before = line[..at].chars().next_back();
        let after = line[at + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

/// The first segment of every path after `crate::`, with the byte offset of its `crate`:
/// `crate::app::x` gives `app`; `crate::{kube, app::y}` gives `kube` and `app`.
fn crate_path_items(code: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices("crate") {
        if code[..at].chars().next_back().is_some_and(is_ident) {
            continue;
        }
        let rest = code[at + "crate".len()..].trim_start();
        let Some(rest) = rest.strip_prefix("::") else {
            continue;
        };
        let rest = rest.trim_start();
        if let Some(group) = rest.strip_prefix('{') {
            // Top-level items of the group: split on commas outside nested braces.
            let mut depth = 0;
            let mut item_start = true;
            for (j, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => item_start = true,
                    c if item_start && is_ident(c) && depth == 0 => {
                        item_start = false;
                        out.push((at, leading_ident(&group[j..])));
                    }
                    _ => {}
                }
            }
        } else {
            out.push((at, leading_ident(rest)));
        }
    }
    out
}

fn leading_ident(s: &str) -> String {
    s.chars().take_while(|c| is_ident(*c)).collect()
}

/// `src` with comments, string literals and char literals replaced by spaces (newlines
/// kept, so line numbers stay).
pub(super) fn code_only(src: &str) -> String {
    let chars: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let blank = |out: &mut String, c: char| out.push(if c == '\n' { '\n' } else { ' ' });
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                blank(&mut out, chars[i]);
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, chars[i]);
                    i += 1;
                }
            }
        } else if c == 'r'
            && matches!(next, Some('"' | '#'))
            && !out.chars().next_back().is_some_and(is_ident)
        {
            // Raw string r"…" / r#"…"#: ends at a quote followed by as many hashes.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            while j < chars.len() {
                if chars[j] == '"' && (1..=hashes).all(|k| chars.get(j + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            for &ch in &chars[i..j.min(chars.len())] {
                blank(&mut out, ch);
            }
            i = j;
        } else if c == '"' {
            blank(&mut out, c);
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    blank(&mut out, chars[i]);
                    i += 1;
                }
                if i < chars.len() {
                    blank(&mut out, chars[i]);
                    i += 1;
                }
            }
            if i < chars.len() {
                blank(&mut out, chars[i]);
                i += 1;
            }
        } else if c == '\'' {
            // A char literal ('x', '\n', '\u{1b}') or a lifetime ('a): only the former closes.
            let end = if next == Some('\\') {
                chars[i + 2..]
                    .iter()
                    .position(|&ch| ch == '\'')
                    .map(|p| i + 2 + p)
            } else if chars.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(e) => {
                    for &ch in &chars[i..=e] {
                        blank(&mut out, ch);
                    }
                    i = e + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}
