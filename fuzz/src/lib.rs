//! What every ktui fuzz target checks of text that can reach the terminal, written apart from
//! ktui's sanitizer (`ktui::kube::sanitize`) so that a target checks the sanitizer's output
//! against an independent rule rather than against itself.

/// Whether `c` may be drawn: no C0/C1 control character or DEL, no bidi override or isolate,
/// no invisible format or line-separator character. The zero-width joiner is allowed (the
/// sanitizer keeps it inside a grapheme cluster, where it draws nothing by itself).
pub fn drawable(c: char) -> bool {
    !(c.is_control()
        || matches!(
            c,
            '\u{061c}'
                | '\u{200b}'
                | '\u{200c}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
                | '\u{feff}'
        ))
}

/// Panics, naming `what` and the offending character, when `s` holds a character that is not
/// [`drawable`].
pub fn assert_clean(what: &str, s: &str) {
    if let Some(c) = s.chars().find(|&c| !drawable(c)) {
        panic!("{what}: undrawable U+{:04X} in {s:?}", c as u32);
    }
}

/// [`assert_clean`], allowing `\n` (texts shown line by line, such as an event's message).
pub fn assert_clean_lines(what: &str, s: &str) {
    for line in s.split('\n') {
        assert_clean(what, line);
    }
}

/// Checks every cell a row draws (name, namespace/name, cells at a fixed clock, owner,
/// event message) and returns nothing: panics on the first undrawable character.
pub fn assert_row_clean(row: &ktui::kube::row::Row) {
    assert_clean("row name", &row.name);
    assert_clean("row display name", &ktui::view::display_name(row, true));
    for (i, cell) in row.cells.iter().enumerate() {
        let text = ktui::table::format::format_cell(cell, 1_796_040_000);
        assert_clean(&format!("cell {i}"), &text);
    }
    for (k, v) in row.labels.iter() {
        assert_clean("label key", k);
        assert_clean("label value", v);
    }
    if let Some(owner) = &row.owner {
        assert_clean("owner name", &owner.name);
        assert_clean("owner kind", &owner.kind);
    }
    if let Some(ev) = &row.event {
        assert_clean_lines("event message", &ev.message);
    }
}
