//! `col:text` filter terms: a term scoped to one column of the list, named by its header
//! (`status:Crash`, `node:worker-3`, `ports:8080`, `nominated-node:…`, `namespace:`/`ns:`,
//! `name:`). The text takes fzf's extended forms (`status:^Crash`, `status:!Running`,
//! `ip:.7$`, `node:re:^w-\d$`); a plain text is a substring (smart case). Owns splitting
//! such terms off the filter and testing rows; must not sort, draw or memoise (the list
//! cache memoises per snapshot revision).

use std::borrow::Cow;

use ktui_kube::row::{Cell, Row};
use ktui_table::Column;

use super::terms::{parse_word, Alt, Atom, Test};

/// Which part of a row a term reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// `metadata.namespace` (the NAMESPACE column of all-namespaces lists).
    Namespace,
    /// `metadata.name`.
    Name,
    /// `Row::cells[i]`, under the kind's column `i`.
    Cell(usize),
}

/// One `col:text` term.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColTerm {
    /// What it reads.
    pub target: Target,
    /// The test on the cell's text (a plain word is a substring, never fuzzy).
    pub alt: Alt,
}

/// The header a user types for a column: lower-case, letters and digits kept, any run of
/// other characters one `-` (`NOMINATED NODE` → `nominated-node`, `PORT(S)` → `port-s`).
fn typed_name(header: &str) -> String {
    let mut out = String::new();
    for c in header.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_owned()
}

/// The target of a typed column name among `columns` (the kind's, see
/// [`ktui_table::KindSpec`]); the name may leave out its punctuation (`ports`, `port-s`,
/// `nominatednode`).
fn target(name: &str, columns: &[Column]) -> Option<Target> {
    match name {
        "ns" | "namespace" => return Some(Target::Namespace),
        "name" => return Some(Target::Name),
        _ => {}
    }
    let bare = |s: &str| s.replace('-', "");
    columns
        .iter()
        .position(|c| {
            let typed = typed_name(&c.header);
            typed == name || bare(&typed) == bare(name)
        })
        .map(Target::Cell)
}

/// Splits the column terms off `text` (the `/` filter): a word `name:text` whose `name` is
/// a column of `columns` (or `ns`/`namespace`/`name`). Other words — `re:…`, names that
/// hold a colon (`system:nodes`), label selectors — stay in the rest, in order. Errors: a
/// column term without text (`status:`), or text that is not a valid term (`status:re:(`).
pub fn split(text: &str, columns: &[Column]) -> Result<(Vec<ColTerm>, String), String> {
    let mut terms = Vec::new();
    let mut rest: Vec<&str> = Vec::new();
    for word in text.split_whitespace() {
        let Some((name, value)) = word.split_once(':') else {
            rest.push(word);
            continue;
        };
        let lower = name.to_lowercase();
        let Some(target) = (lower != "re").then(|| target(&lower, columns)).flatten() else {
            rest.push(word);
            continue;
        };
        if value.is_empty() || value == "!" {
            return Err(format!("incomplete term {word:?}: text expected after {name}:"));
        }
        let mut alt = parse_word(value).map_err(|e| format!("{name}: {e}"))?;
        if let Atom::Fuzzy(t) = &alt.atom {
            alt.atom = Atom::Exact(t.clone());
        }
        terms.push(ColTerm { target, alt });
    }
    Ok((terms, rest.join(" ")))
}

/// Refuses a term on a column of times (AGE, DURATION, LAST SEEN, a custom resource's
/// `date` column): their cells are durations drawn from the clock, with no text to match,
/// so such a term would silently keep nothing. Read from the cells of `snap`'s rows (the
/// first row that has the cell); an empty snapshot refuses nothing. Errors: `age: AGE is
/// a time column: …`.
pub fn timeless(
    terms: &[ColTerm],
    columns: &[Column],
    snap: &ktui_kube::store::Snapshot,
) -> Result<(), String> {
    for t in terms {
        let Target::Cell(i) = t.target else { continue };
        let time = snap
            .rows
            .iter()
            .find_map(|r| r.cells.get(i))
            .is_some_and(|c| matches!(c, Cell::Age(_) | Cell::Span(_)));
        if time {
            let header = columns.get(i).map_or("", |c| &c.header);
            return Err(format!(
                "{header} is a time column: it has no text to match (A sorts by age)"
            ));
        }
    }
    Ok(())
}

/// The text of `cell` a term is matched against: literal text as shown, integers in
/// decimal, RESTARTS by its count; `None` for times (AGE, DURATION), which change by
/// themselves.
fn cell_text(cell: &Cell) -> Option<Cow<'_, str>> {
    match cell {
        Cell::Text(t) => Some(Cow::Borrowed(t)),
        Cell::Static(t) => Some(Cow::Borrowed(t)),
        Cell::Shared(t) => Some(Cow::Borrowed(t)),
        Cell::Int(n) => Some(Cow::Owned(n.to_string())),
        Cell::Restarts { count, .. } => Some(Cow::Owned(count.to_string())),
        Cell::Age(_) | Cell::Span(_) => None,
    }
}

/// The text `target` reads of `row` (see [`cell_text`]; the namespace of a cluster-scoped
/// row is `None`).
pub(crate) fn row_text(row: &Row, target: Target) -> Option<Cow<'_, str>> {
    match target {
        Target::Namespace => row.namespace.as_deref().map(Cow::Borrowed),
        Target::Name => Some(Cow::Borrowed(&*row.name)),
        Target::Cell(i) => row.cells.get(i).and_then(cell_text),
    }
}

/// Compiled column terms, all of which must hold.
#[derive(Debug)]
pub struct ColTests(Vec<(Target, Test, bool)>);

impl ColTests {
    /// Compiles `terms`.
    pub fn new(terms: &[ColTerm]) -> ColTests {
        ColTests(
            terms
                .iter()
                .map(|t| (t.target, Test::new(&t.alt.atom), t.alt.negated))
                .collect(),
        )
    }

    /// Whether `row` passes every term. A row without the cell (a time column, a custom
    /// resource's missing value) fails a positive term and passes an inverted one.
    pub fn keeps(&self, row: &Row) -> bool {
        self.0.iter().all(|(target, test, negated)| {
            let text = row_text(row, *target);
            // Lower-cased only for a test that reads it: this runs per row per keystroke.
            let holds = text.is_some_and(|t| match test.reads_lower() {
                true => test.holds(&t, &t.to_ascii_lowercase()),
                false => test.holds(&t, &t),
            });
            holds != *negated
        })
    }

    /// The targets the terms read, one per term in order (for [`super::col_text::ColTexts`]).
    pub fn targets(&self) -> Vec<Target> {
        self.0.iter().map(|(t, _, _)| *t).collect()
    }

    /// [`ColTests::keeps`] for row `i`, read from the laid-out texts (`texts[k]` of term
    /// `k`'s target, as [`ColTests::targets`] lists them).
    pub fn keeps_at(&self, texts: &[std::sync::Arc<super::col_text::ColText>], i: usize) -> bool {
        self.0.iter().zip(texts).all(|((_, test, negated), text)| {
            text.get(i).is_some_and(|(t, lower)| test.holds(t, lower)) != *negated
        })
    }
}

#[cfg(test)]
mod tests;
