//! The architecture test's reader of Rust source as text: which identifiers and `crate::`
//! paths a file mentions once comments, string and char literals are blanked out. Knows no
//! layer rule (that is `super`); must not read files itself.

/// What a layer must not mention.
#[derive(Debug, Clone, Copy)]
pub enum Needle {
    /// An identifier, matched whole (`ratatui`, not `ratatuix`).
    Word(&'static str),
    /// A top-level module of the crate: `crate::NAME…` or an item of `crate::{…}`.
    CratePath(&'static str),
}

impl Needle {
    pub fn label(self) -> String {
        match self {
            Needle::Word(w) => w.to_owned(),
            Needle::CratePath(m) => format!("crate::{m}"),
        }
    }
}

/// The mentions of `needles` in Rust source `src`, as `line: needle` (1-based lines).
pub fn mentions(src: &str, needles: &[Needle]) -> Vec<String> {
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
pub fn code_only(src: &str) -> String {
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

/// The top-level modules `src` names through `crate::` paths (`crate::app::x` and
/// `crate::{app, kube}` alike), each with its 1-based line; comments and literals skipped.
pub fn crate_modules(src: &str) -> Vec<(usize, String)> {
    let code = code_only(src);
    crate_path_items(&code)
        .into_iter()
        .map(|(at, item)| (code[..at].matches('\n').count() + 1, item))
        .collect()
}
