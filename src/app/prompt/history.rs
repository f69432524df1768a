//! ↑/↓ history of the `:` and `/` prompts, one list per prompt kind, newest last, bounded,
//! kept across runs in `<state dir>/prompt-history` (mode 0600; `c <text>` and `f <text>`
//! lines). Owns recall and the file format; the loop reads and writes the file
//! ([`load`], `Effect::SaveHistory`), `update` never does I/O.

/// Entries kept per prompt kind.
pub const MAX: usize = 200;

/// Which prompt a history belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `:` commands.
    Command,
    /// `/` filters.
    Filter,
}

impl Kind {
    fn tag(self) -> &'static str {
        match self {
            Kind::Command => "c",
            Kind::Filter => "f",
        }
    }
}

/// Both histories and where the user is in one while pressing ↑/↓.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PromptHistory {
    command: Vec<String>,
    filter: Vec<String>,
    /// While recalling: the index shown and the text typed before the first ↑.
    browsing: Option<(usize, String)>,
}

impl PromptHistory {
    fn list(&self, kind: Kind) -> &Vec<String> {
        match kind {
            Kind::Command => &self.command,
            Kind::Filter => &self.filter,
        }
    }

    fn list_mut(&mut self, kind: Kind) -> &mut Vec<String> {
        match kind {
            Kind::Command => &mut self.command,
            Kind::Filter => &mut self.filter,
        }
    }

    /// Records a submitted line (blank ones and a repeat of the newest are not); ends any
    /// recall.
    pub fn push(&mut self, kind: Kind, text: &str) {
        self.browsing = None;
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        let list = self.list_mut(kind);
        list.retain(|t| t != text);
        list.push(text.to_owned());
        let over = list.len().saturating_sub(MAX);
        list.drain(..over);
    }

    /// Ends a recall without recording (the prompt was cancelled or closed).
    pub fn reset(&mut self) {
        self.browsing = None;
    }

    /// ↑: the entry before the one shown (the newest at first), remembering `current`;
    /// `None` at the oldest or with no history.
    pub fn older(&mut self, kind: Kind, current: &str) -> Option<String> {
        let len = self.list(kind).len();
        let at = match &self.browsing {
            None if len == 0 => return None,
            None => len - 1,
            Some((0, _)) => return None,
            Some((i, _)) => i - 1,
        };
        let draft = self
            .browsing
            .take()
            .map_or_else(|| current.to_owned(), |(_, d)| d);
        self.browsing = Some((at, draft));
        self.list(kind).get(at).cloned()
    }

    /// ↓: the entry after the one shown, or the text typed before recalling after the
    /// newest; `None` when not recalling.
    pub fn newer(&mut self, kind: Kind) -> Option<String> {
        let (at, draft) = self.browsing.take()?;
        if at + 1 < self.list(kind).len() {
            self.browsing = Some((at + 1, draft));
            return self.list(kind).get(at + 1).cloned();
        }
        Some(draft)
    }

    /// The file's text: one `c <text>` / `f <text>` line per entry, oldest first.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for kind in [Kind::Command, Kind::Filter] {
            for t in self.list(kind) {
                out.push_str(kind.tag());
                out.push(' ');
                out.push_str(t);
                out.push('\n');
            }
        }
        out
    }

    /// Parses [`PromptHistory::to_text`]'s format; unknown lines are skipped, each list is
    /// bounded to [`MAX`], and every entry is sanitized (the file is outside our control).
    pub fn from_text(text: &str) -> PromptHistory {
        let mut h = PromptHistory::default();
        for line in text.lines() {
            let kind = match line.split_once(' ') {
                Some(("c", _)) => Kind::Command,
                Some(("f", _)) => Kind::Filter,
                _ => continue,
            };
            let entry = crate::kube::sanitize::sanitize(&line[2..]).into_owned();
            h.push(kind, &entry);
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn up_recalls_newest_first_and_down_returns_to_the_draft() {
        let mut h = PromptHistory::default();
        for t in ["pods", "deploy", "svc"] {
            h.push(Kind::Command, t);
        }
        h.push(Kind::Filter, "web");
        assert_eq!(h.older(Kind::Command, "no").as_deref(), Some("svc"));
        assert_eq!(h.older(Kind::Command, "ignored").as_deref(), Some("deploy"));
        assert_eq!(h.older(Kind::Command, "").as_deref(), Some("pods"));
        assert_eq!(h.older(Kind::Command, ""), None);
        assert_eq!(h.newer(Kind::Command).as_deref(), Some("deploy"));
        assert_eq!(h.newer(Kind::Command).as_deref(), Some("svc"));
        assert_eq!(h.newer(Kind::Command).as_deref(), Some("no"));
        assert_eq!(h.newer(Kind::Command), None);
        assert_eq!(h.older(Kind::Filter, "").as_deref(), Some("web"));
    }

    #[test]
    fn bounded_deduplicated_and_round_trips() {
        let mut h = PromptHistory::default();
        for i in 0..(MAX + 50) {
            h.push(Kind::Filter, &format!("q{i}"));
        }
        h.push(Kind::Filter, "q300");
        h.push(Kind::Filter, "  ");
        h.push(Kind::Command, "pods all");
        assert_eq!(h.filter.len(), MAX);
        assert_eq!(h.filter.last().map(String::as_str), Some("q300"));
        let back = PromptHistory::from_text(&h.to_text());
        assert_eq!(back, h);
        let hostile = PromptHistory::from_text("c evil\u{1b}[2J\nx junk\nf ok\n");
        assert_eq!(hostile.command, vec!["evil^[[2J".to_owned()]);
        assert_eq!(hostile.filter, vec!["ok".to_owned()]);
    }
}
