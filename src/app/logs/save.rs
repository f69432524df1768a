//! `ctrl-s` in a log view: the whole buffer as shown (prefixes and timestamps when they are
//! on, the filter applied) for `<state dir>/saved/<context>_logs_<namespace>_<what>_
//! <time>.log`, and the footer line once written. Owns the file name; must not write (the
//! runtime does, mode 0600, see `Effect::WriteFile`).

use crate::app::effect::{AfterWrite, Effect, FileWrite};
use crate::app::files::file_safe;
use crate::app::state::{Screen, UiState, ViewId};

/// The file of log view `id`: `None` when `id` is not a log view (`Some(None)` when it has
/// nothing yet, said in the footer).
pub fn save(state: &mut UiState, id: ViewId) -> Option<Option<Effect>> {
    // The whole buffer: a filter changed just before is finished first.
    if let Some((_, Screen::Logs(v))) = state.screens.stack.views.iter_mut().find(|(i, _)| *i == id) {
        v.settle();
    }
    let Some((_, Screen::Logs(v))) = state.views().find(|(i, _)| *i == id) else {
        return None;
    };
    let Some(hub) = v.hub.clone() else {
        state.screens.footer.message = Some("nothing to save yet".into());
        return Some(None);
    };
    let s = hub.lock();
    let mut text = String::new();
    for seq in &v.visible.seqs {
        if let Some(l) = s.buffer.get(*seq) {
            text.push_str(&v.line_text(l, &s.sources));
            text.push('\n');
        }
    }
    drop(s);
    let n = v.visible.seqs.len();
    let context = state.conn.context.as_deref().unwrap_or("default");
    let stamp = jiff::Timestamp::now().strftime("%Y%m%dT%H%M%SZ").to_string();
    let what = file_safe(&v.title);
    let name = format!(
        "{}_logs_{}_{what}_{stamp}.log",
        file_safe(context),
        file_safe(&v.target.namespace)
    );
    let path = state.settings.dirs.state.join("saved").join(name);
    let note = format!(
        "saved {} lines to {}",
        crate::text::thousands(n as u64),
        path.display()
    );
    Some(Some(Effect::WriteFile(Box::new(FileWrite {
        path,
        text,
        create_new: false,
        then: AfterWrite::Note(note),
    }))))
}
