//! The log view: lines with a `pod/container` prefix in a stable colour per source (merged
//! views), optional timestamps, search matches highlighted, wrap or cut; what the streams are
//! doing in words for the header; why the view is empty when it is. Read-only.

use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

use crate::app::logs::model::{source_colour, LogsState};
use crate::kube::logs::{HubState, LogLine, SourceState};
use crate::kube::sanitize::sanitize;
use crate::text::thousands;

use super::theme::Theme;

const PALETTE: [Color; 6] = [
    Color::Cyan,
    Color::Green,
    Color::Magenta,
    Color::Yellow,
    Color::Blue,
    Color::LightRed,
];

/// Seconds behind the clock before the header says `lag`.
const LAG_AFTER: i64 = 5;

pub(super) fn draw(f: &mut Frame, area: Rect, v: &LogsState, theme: &Theme) {
    let mut title = format!(" logs {} [{}] ", sanitize(&v.title), v.window.words());
    if v.previous {
        title.push_str("[previous] ");
    }
    if v.wrap {
        title.push_str("[wrap] ");
    }
    if !v.filter.is_empty() {
        title.push_str(&format!("[/{}] ", sanitize(&v.filter)));
    }
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Span::styled(super::title_in(&title, area.width), theme.value));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let Some(hub) = &v.hub else {
        f.render_widget(
            Paragraph::new(Span::styled("waiting for the client…", theme.warn)),
            inner,
        );
        return;
    };
    let s = hub.lock();
    let page = usize::from(inner.height);
    let width = usize::from(inner.width).max(1);
    if v.visible.seqs.is_empty() {
        f.render_widget(Paragraph::new(empty_lines(v, &s, theme)), inner);
        return;
    }
    let line_of = |seq: u64| s.buffer.get(seq).map(|l| render(v, l, &s, theme));
    let mut lines: Vec<Line> = Vec::with_capacity(page);
    if v.follow {
        // From the newest line upwards until the page is full.
        let mut used = 0;
        for seq in v.visible.seqs.iter().rev() {
            let Some(l) = line_of(*seq) else { continue };
            let h = if v.wrap { height(&l, width) } else { 1 };
            if used + h > page && !lines.is_empty() {
                break;
            }
            used += h;
            lines.push(l);
        }
        lines.reverse();
    } else {
        let mut used = 0;
        for seq in v.visible.seqs.iter().skip(v.first_shown()) {
            let Some(l) = line_of(*seq) else { continue };
            used += if v.wrap { height(&l, width) } else { 1 };
            lines.push(l);
            if used >= page {
                break;
            }
        }
    }
    drop(s);
    let mut p = Paragraph::new(lines);
    if v.wrap {
        p = p.wrap(ratatui::widgets::Wrap { trim: false });
    }
    f.render_widget(p, inner);
}

fn height(l: &Line, width: usize) -> usize {
    l.width().div_ceil(width).max(1)
}

/// One buffer line as drawn.
fn render(v: &LogsState, l: &LogLine, s: &HubState, theme: &Theme) -> Line<'static> {
    let mut spans = Vec::new();
    if let Some(p) = v.prefix(l, &s.sources) {
        let gone = s.sources.get(l.source as usize).is_some_and(|x| x.gone);
        let style = source_style(&p, theme);
        spans.push(Span::styled(p, style));
        if gone {
            spans.push(Span::styled("✝", theme.dim));
        }
        spans.push(Span::raw(" "));
    }
    if v.timestamps {
        if let Some(ts) = l.ts {
            spans.push(Span::styled(
                format!("{} ", ts.strftime("%Y-%m-%dT%H:%M:%S%.6fZ")),
                theme.dim,
            ));
        }
    }
    let text = &*l.text;
    let ranges = v
        .search_match
        .as_ref()
        .map(|m| m.ranges(text))
        .unwrap_or_default();
    let mut at = 0;
    for (a, b) in ranges {
        if a < at || !text.is_char_boundary(a) || !text.is_char_boundary(b) {
            continue;
        }
        spans.push(Span::raw(text[at..a].to_owned()));
        spans.push(Span::styled(text[a..b].to_owned(), theme.highlight));
        at = b;
    }
    spans.push(Span::raw(text[at..].to_owned()));
    Line::from(spans)
}

/// The colour of a `pod/container` prefix: stable per source; plain without colours.
fn source_style(prefix: &str, theme: &Theme) -> Style {
    if theme.label.fg.is_none() {
        return theme.label;
    }
    let (pod, container) = prefix.split_once('/').unwrap_or((prefix, ""));
    Style::new().fg(PALETTE[source_colour(pod, container) % PALETTE.len()])
}

/// Why there is nothing to show: each source's state, or the pod watch's trouble.
fn empty_lines(v: &LogsState, s: &HubState, theme: &Theme) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    if let Some(e) = &s.pods_error {
        out.push(Line::from(Span::styled(sanitize(e).into_owned(), theme.error)));
    } else if !s.pods_synced {
        out.push(Line::from(Span::styled("looking for pods…", theme.warn)));
    } else if s.sources.is_empty() {
        let what = if v.merged() {
            "no pods match (yet): new ones are attached as they appear"
        } else {
            "pod not found"
        };
        out.push(Line::from(Span::styled(what, theme.warn)));
    } else if !v.filter.is_empty() {
        out.push(Line::from(Span::styled("no line matches the filter", theme.dim)));
    } else {
        out.push(Line::from(Span::styled("no log lines yet", theme.dim)));
    }
    for src in s.sources.iter().take(20) {
        out.push(Line::from(vec![
            Span::styled(format!("{}/{} ", src.pod, src.container), theme.label),
            Span::styled(src.state.words(), state_style(&src.state, theme)),
        ]));
    }
    // No line yet: the pod's live events say what is happening to it.
    let now = v.clock.unwrap_or_else(jiff::Timestamp::now).as_second();
    for l in v.event_lines(now) {
        out.push(Line::from(Span::styled(l, theme.dim)));
    }
    out
}

fn state_style(st: &SourceState, theme: &Theme) -> Style {
    match st {
        SourceState::Following | SourceState::Complete => theme.ok,
        SourceState::Forbidden
        | SourceState::Failed(_)
        | SourceState::NoPrevious(_)
        | SourceState::PodDeleted => theme.error,
        _ => theme.warn,
    }
}

/// The header's second line for a log view: title, stream state in words, counts.
pub(super) fn header(v: &LogsState, theme: &Theme, now: jiff::Timestamp) -> Vec<Span<'static>> {
    let mut spans = vec![Span::styled(
        format!(" logs {}  ", sanitize(&v.title)),
        theme.value,
    )];
    let Some(hub) = &v.hub else {
        spans.push(Span::styled("waiting for the client…", theme.warn));
        return spans;
    };
    let s = hub.lock();
    let (words, style) = stream_words(v, &s, theme);
    spans.push(Span::styled(words, style));
    if !v.follow {
        spans.push(Span::styled(
            format!("  ↑ {} new", thousands(v.new_below as u64)),
            theme.warn,
        ));
    }
    spans.push(Span::styled(
        format!("  {} lines", thousands(v.visible.seqs.len() as u64)),
        theme.dim,
    ));
    if !v.visible.complete(&s.buffer) {
        // A new filter is still reading the older lines (a few frames).
        spans.push(Span::styled("  filtering…", theme.warn));
    }
    if s.buffer.dropped() > 0 {
        spans.push(Span::styled(
            format!("  {} dropped (bound)", thousands(s.buffer.dropped())),
            theme.warn,
        ));
    }
    if let Some(newest) = s
        .newest()
        .filter(|_| v.follow && !v.previous && s.streaming() > 0)
    {
        let lag = now.as_second() - newest.as_second();
        if lag > LAG_AFTER {
            spans.push(Span::styled(format!("  lag {lag}s"), theme.warn));
        }
    }
    spans
}

/// `following`, `paused`, `waiting: …`, `pod deleted`, or for a merged view
/// `following 12 of 14 (cap 50, 2 waiting)`.
fn stream_words(v: &LogsState, s: &HubState, theme: &Theme) -> (String, Style) {
    let (theme_ok, theme_warn, theme_err) = (theme.ok, theme.warn, theme.error);
    if let Some(e) = &s.pods_error {
        return (sanitize(e).into_owned(), theme_err);
    }
    if s.sources.len() == 1
        || (!v.merged() && !s.sources.is_empty() && s.sources.iter().all(|x| x.state == s.sources[0].state))
    {
        let st = &s.sources[0].state;
        let words = match st {
            SourceState::Following if !v.follow => "paused".to_owned(),
            other => other.words(),
        };
        let style = match st {
            SourceState::Following | SourceState::Complete | SourceState::Restarted => theme_ok,
            SourceState::Forbidden
            | SourceState::Failed(_)
            | SourceState::NoPrevious(_)
            | SourceState::PodDeleted => theme_err,
            _ => theme_warn,
        };
        return (words, style);
    }
    let following = s
        .sources
        .iter()
        .filter(|x| matches!(x.state, SourceState::Following | SourceState::Restarted))
        .count();
    let gone = s.sources.iter().filter(|x| x.gone).count();
    let mut w = format!(
        "{} {following} of {} streams (cap {}, {} waiting)",
        if v.follow { "following" } else { "paused" },
        s.sources.len(),
        s.cap,
        s.queued()
    );
    if gone > 0 {
        w.push_str(&format!(", {gone} gone"));
    }
    if let Some(bad) = s
        .sources
        .iter()
        .find(|x| matches!(x.state, SourceState::Forbidden))
    {
        w.push_str(&format!(", {}", bad.state.words()));
    }
    (w, if following > 0 { theme_ok } else { theme_warn })
}
