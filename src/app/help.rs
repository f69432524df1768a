//! The `?` help: its lines, built when it opens from the keymap in use and what applies to
//! the view below (so it can never drift from behaviour), the filter language's terms for
//! that view, the commands; and its keys — it scrolls both ways, wraps (`w`), and `/`
//! filters its lines like a list (`esc` clears the filter, then closes). Pure; must not draw.

pub mod model;

use crate::keys::{Action, KeyMode};
use crate::kube::builtin::BuiltinKind;
use crate::view::{Query, TextFilter};

use crate::app::help::model::{HelpLine, HelpState};
use crate::app::scroll::{self, Page};
use crate::app::state::{Prompt, Screen, UiState};

/// The help's lines for the view on top, built from the keymap and what applies now (each
/// key and each draw builds them again: a few dozen lines, and they follow the RBAC gate's
/// answers and the selection as they change).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HelpContent {
    /// Every line.
    pub lines: Vec<HelpLine>,
    /// Width of the key column, in cells.
    pub key_width: usize,
}

impl HelpContent {
    /// The help of the view on top of `state`.
    pub fn of(state: &UiState) -> HelpContent {
        let lines = build(state);
        let key_width = lines
            .iter()
            .filter_map(|l| match l {
                HelpLine::Key { keys, .. } => Some(crate::view::cut::width(keys)),
                _ => None,
            })
            .max()
            .unwrap_or(0)
            .clamp(12, 24)
            + 2;
        HelpContent { lines, key_width }
    }

    /// The text of `line` as drawn (keys padded to the key column).
    pub fn text(&self, line: &HelpLine) -> String {
        match line {
            HelpLine::Heading(t) => t.clone(),
            HelpLine::Key { keys, desc } => {
                let w = self.key_width;
                format!("  {keys:<w$}{desc}")
            }
            HelpLine::Text(t) => t.clone(),
        }
    }

    /// The lines `filter` keeps (the filter language of lists on each line's text), in
    /// order; a heading stays when a line of its section does. An empty or invalid filter
    /// keeps everything.
    pub fn shown(&self, filter: &str) -> Vec<&HelpLine> {
        let query = match Query::parse(filter) {
            Ok(q) if !q.is_empty() && q.selectors().is_empty() => q,
            _ => return self.lines.iter().collect(),
        };
        let filter = TextFilter::new(&query);
        let mut out: Vec<&HelpLine> = Vec::new();
        let mut heading: Option<&HelpLine> = None;
        for l in &self.lines {
            if let HelpLine::Heading(_) = l {
                heading = Some(l);
                continue;
            }
            if filter.keeps(&self.text(l)) {
                if let Some(h) = heading.take() {
                    out.push(h);
                }
                out.push(l);
            }
        }
        out
    }

    /// The lines `filter` keeps, as text (for the scrolling arithmetic).
    pub fn shown_text(&self, filter: &str) -> Vec<String> {
        self.shown(filter).into_iter().map(|l| self.text(l)).collect()
    }
}

/// `?`: opens the help of the view on top.
pub fn open(state: &mut UiState) {
    state.screens.overlays.help_view = HelpState::default();
    state.screens.overlays.help = true;
}

/// A key while the help is open (no prompt over it): the scrolling keys move it, `w` wraps,
/// `/` filters, `esc` clears the filter then closes, `?` and `enter` close; `Quit` and
/// `Redraw` pass through (returns false); any other key does nothing.
pub fn key(state: &mut UiState, action: Action) -> bool {
    let page = Page::new(state.screens.layout.page_rows, state.screens.layout.page_cols);
    let text = HelpContent::of(state).shown_text(&state.screens.overlays.help_view.filter);
    let h = &mut state.screens.overlays.help_view;
    let last = scroll::last_start(&text, page, h.wrap);
    let rows = i64::try_from(page.rows).unwrap_or(1);
    let by = match action {
        Action::Quit | Action::Redraw => return false,
        Action::Up => Some(-1),
        Action::Down => Some(1),
        Action::PageUp => Some(-rows),
        Action::PageDown => Some(rows),
        Action::Top => Some(i64::MIN / 2),
        Action::Bottom => None,
        Action::ScrollLeft => {
            h.hscroll = h.hscroll.saturating_sub(crate::app::detail::keys::HSTEP);
            return true;
        }
        Action::ScrollRight => {
            let max = scroll::max_hscroll(&text, page.cols, h.wrap);
            h.hscroll = (h.hscroll + crate::app::detail::keys::HSTEP).min(max);
            return true;
        }
        Action::Wrap => {
            h.wrap = !h.wrap;
            h.hscroll = 0;
            h.scroll = h.scroll.min(scroll::last_start(&text, page, h.wrap));
            return true;
        }
        Action::FilterMode => {
            state.screens.prompt.cursor = None;
            state.screens.prompt.open = Some(Prompt::Filter(h.filter.clone()));
            return true;
        }
        Action::Back if !h.filter.is_empty() => {
            h.set_filter(String::new());
            return true;
        }
        Action::Back | Action::Help | Action::Enter => {
            state.screens.overlays.help = false;
            state.screens.overlays.help_view = HelpState::default();
            return true;
        }
        _ => return true,
    };
    h.scroll = scroll::step(h.scroll, by, last);
    true
}

/// The help's lines for the view on top.
fn build(state: &UiState) -> Vec<HelpLine> {
    let mut lines = vec![HelpLine::Heading("Keys".into())];
    let mut seen: Vec<(String, String)> = Vec::new();
    for b in state
        .settings
        .keymap
        .effective(state.top().key_mode())
        .into_iter()
        .filter(|b| state.offers(b.run))
    {
        // Several keys for one action share a line: `j, down  down`.
        if let Some(entry) = seen.iter_mut().find(|(_, d)| *d == b.desc) {
            entry.0.push_str(", ");
            entry.0.push_str(&b.on);
        } else {
            seen.push((b.on.clone(), b.desc.clone()));
        }
    }
    for (keys, desc) in seen {
        // Arrow keys by their glyph; a left/right pair as one.
        let keys = keys
            .replace("shift-left, shift-right", "shift-←/→")
            .replace("left, right", "←/→")
            .replace("left", "←")
            .replace("right", "→");
        lines.push(HelpLine::Key { keys, desc });
    }
    if let Some(terms) = filter_terms(state) {
        lines.push(HelpLine::Text(String::new()));
        lines.push(HelpLine::Heading(
            "Filter (/): terms separated by spaces, all must hold".into(),
        ));
        lines.extend(terms);
    }
    lines.push(HelpLine::Text(String::new()));
    lines.push(HelpLine::Heading("Commands".into()));
    // Built-in kinds by their shortest name, a few per line.
    let names: Vec<String> = BuiltinKind::ALL
        .iter()
        .map(|k| {
            let i = k.info();
            format!(":{}", i.short.first().copied().unwrap_or(i.plural))
        })
        .collect();
    let mut line = String::from(" ");
    for n in names {
        if line.len() + 1 + n.len() > 74 {
            lines.push(HelpLine::Text(std::mem::replace(&mut line, String::from(" "))));
        }
        line.push(' ');
        line.push_str(&n);
    }
    lines.push(HelpLine::Text(line));
    for text in [
        "  :<resource> [namespace|all] [-l selector]  (any the server offers)",
        "  :ns <name|all>  namespace of later views (one typed above: that view)",
        "  :ar (:api-resources)  :ctx [name]  :informers (:watches)  :pf  :q",
        "  :ctx all | :ctx a,b  every cluster at once (CONTEXT column, /ctx:a)",
        "  :xray <deploy|sts|ds|job|cj|svc|node|ns> [namespace|all]  live tree",
        "  :pulse [namespace|all]  overview    :top [namespace|-A|nodes]  usage",
        "  :can <verb> <resource> [-n ns|-A]  who may   :can sa|user|group <name>",
    ] {
        lines.push(HelpLine::Text(text.into()));
    }
    lines
}

/// The filter language of the view on top, when it has a `/` filter of rows.
fn filter_terms(state: &UiState) -> Option<Vec<HelpLine>> {
    let key = |keys: &str, desc: &str| HelpLine::Key {
        keys: keys.into(),
        desc: desc.into(),
    };
    let list = match state.top() {
        Screen::List(l) => l,
        _ => return None,
    };
    if state.top().key_mode() != KeyMode::Normal {
        return None;
    }
    let mut out = vec![
        key("word", "fuzzy on the name (smart case); exact hits rank first"),
        key("'word", "exact substring"),
        key("^pre  suf$", "prefix, suffix (^whole$: the whole name)"),
        key("!term", "not (before any term: !^pre, !'word)"),
        key("a | b", "either"),
        key("re:regex", "regular expression on the name"),
        key("-l selector", "labels: app=web, env in (a,b), !canary"),
        key(
            "col:text",
            "one column by header: status:Crash, node:^w-3, ns:prod",
        ),
    ];
    if list.is_timeline() {
        out.push(key("type:Warning", "event type"));
        out.push(key("reason:Back", "event reason contains"));
        out.push(key("obj:pod/web", "involved object contains"));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::state::ListState;
    use crate::kube::key::ResourceKey;

    fn state() -> UiState {
        let key = ResourceKey::new(BuiltinKind::Pod, Some("a"));
        UiState::new(
            Screen::List(Box::new(ListState::new(key, None))),
            Some("a".into()),
            false,
        )
    }

    #[test]
    fn help_scrolls_to_its_last_page_filters_and_closes() {
        let mut s = state();
        s.screens.layout.page_rows = 10;
        s.screens.layout.page_cols = 70;
        open(&mut s);
        let n = HelpContent::of(&s).shown("").len();
        assert!(n > 30, "keys, filter terms and commands: {n}");
        assert!(key(&mut s, Action::Bottom));
        assert_eq!(
            s.screens.overlays.help_view.scroll,
            n - 10,
            "G shows the last full page"
        );
        key(&mut s, Action::Down);
        assert_eq!(
            s.screens.overlays.help_view.scroll,
            n - 10,
            "no scrolling past it"
        );
        key(&mut s, Action::Top);
        assert_eq!(s.screens.overlays.help_view.scroll, 0);
        s.screens.overlays.help_view.set_filter("'sort".into());
        let shown = HelpContent::of(&s).shown_text(&s.screens.overlays.help_view.filter);
        assert_eq!(shown[0], "Keys", "the heading of a kept line stays: {shown:?}");
        assert!(shown[1..].iter().all(|l| l.contains("sort")), "{shown:?}");
        assert_eq!(shown.len(), 4, "{shown:?}");
        s.screens.overlays.help_view.set_filter("'zzz-nothing".into());
        assert!(HelpContent::of(&s).shown("'zzz-nothing").is_empty());
        s.screens.overlays.help_view.set_filter("'(".into());
        key(&mut s, Action::Back);
        assert!(
            s.screens.overlays.help && s.screens.overlays.help_view.filter.is_empty(),
            "esc clears the filter first"
        );
        assert!(key(&mut s, Action::SortName));
        assert!(s.screens.overlays.help, "other keys do not close it");
        key(&mut s, Action::Back);
        assert!(!s.screens.overlays.help);
    }

    #[test]
    fn help_lists_the_filter_terms_of_the_view() {
        let mut s = state();
        open(&mut s);
        let text: Vec<String> = HelpContent::of(&s).shown_text("");
        assert!(text
            .iter()
            .any(|l| l.contains("'word") && l.contains("exact substring")));
        assert!(
            !text.iter().any(|l| l.contains("reason:")),
            "no event terms on pods"
        );
        let key = ResourceKey::new(BuiltinKind::Event, Some("a"));
        let mut s = UiState::new(Screen::List(Box::new(ListState::new(key, None))), None, false);
        open(&mut s);
        let text: Vec<String> = HelpContent::of(&s).shown_text("");
        assert!(text.iter().any(|l| l.contains("reason:Back")), "{text:?}");
    }
}
