//! `ctrl-s` in a log view: writes the whole buffer as shown (prefixes and timestamps when
//! they are on, the filter applied) to `<state dir>/saved/<context>_logs_<namespace>_<what>_
//! <time>.log`, mode 0600, and says where. Owns the file name; the writing is `save`'s.

use crate::app::state::{Screen, UiState, ViewId};

/// Saves log view `id`; false when `id` is not a log view.
pub fn save(state: &mut UiState, id: ViewId) -> bool {
    // The whole buffer: a filter changed just before is finished first.
    if let Some((_, Screen::Logs(v))) = state.screens.views.iter_mut().find(|(i, _)| *i == id) {
        v.settle();
    }
    let Some((_, Screen::Logs(v))) = state.views().find(|(i, _)| *i == id) else {
        return false;
    };
    let Some(hub) = v.hub.clone() else {
        state.screens.message = Some("nothing to save yet".into());
        return true;
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
    let what = crate::app::detail::save::file_safe(&v.title);
    let name = format!(
        "{}_logs_{}_{what}_{stamp}.log",
        crate::app::detail::save::file_safe(context),
        crate::app::detail::save::file_safe(&v.target.namespace)
    );
    let path = crate::logging::state_dir().join("saved").join(name);
    match crate::app::detail::save::write_private(&path, &text) {
        Ok(()) => state.note(format!(
            "saved {} lines to {}",
            crate::text::thousands(n as u64),
            path.display()
        )),
        Err(e) => state.screens.message = Some(format!("cannot save {}: {e}", path.display())),
    }
    true
}
