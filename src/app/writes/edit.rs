//! `e`: edit one object in `$KUBE_EDITOR` / `$EDITOR` (fallback `vi`), as `kubectl edit`:
//! the YAML without `managedFields` and `status`, the terminal handed over
//! (`Effect::HandOver`), then a replace guarded by the resourceVersion the edit started
//! from. No change (or an empty file) sends nothing; invalid YAML, a rejected object (422,
//! 400) or a conflict (409) reopen the editor with the error as a comment at the top and
//! the user's text kept (after a conflict the newest resourceVersion is taken, so saving
//! again replaces the newer object, as the comment says). Owns that sequence and what its
//! temp file holds; must not touch files (the runtime writes the file with mode 0600, reads
//! it back and removes it when done, as effects) nor draw.

use std::path::Path;

use serde_json::Value;

use crate::kube::write::{Target, WriteError};

use super::model::EditSession;
use crate::app::effect::{AfterWrite, Effect, FileWrite, WriteOp, WriteRequest};
use crate::app::handover::{CommandJob, Handover, Job, Outcome, Then};
use crate::app::state::UiState;

/// The help comment at the top of the file (kubectl's words).
const HEADER: &str = "# Please edit the object below. Lines beginning with a '#' will be ignored,\n\
# and an empty file will abort the edit. If an error occurs while saving this file will be\n\
# reopened with the relevant failures.\n#\n";

/// `e` on a row: fetch the object (the loop GETs it, see `Effect::EditFetch`).
pub fn start(state: &mut UiState, target: Target) {
    if state.screens.overlays.edit.is_some() {
        state.screens.footer.message = Some("an edit is in progress".into());
        return;
    }
    state.note(format!("reading {} for editing…", target.label()));
    state.emit(Effect::EditFetch(target));
}

/// The object as the editor shows it: without `metadata.managedFields` and `status`; and
/// its resourceVersion.
pub fn editable(obj: &Value) -> (String, String) {
    let mut v = obj.clone();
    if let Some(m) = v.as_object_mut() {
        m.remove("status");
        if let Some(meta) = m.get_mut("metadata").and_then(Value::as_object_mut) {
            meta.remove("managedFields");
        }
    }
    let rv = v
        .pointer("/metadata/resourceVersion")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    (crate::detail::yaml::raw_yaml(&v), rv)
}

/// The text without comment lines (what is parsed and compared).
pub fn strip_comments(text: &str) -> String {
    let mut out = String::new();
    for l in text.lines().filter(|l| !l.trim_start().starts_with('#')) {
        out.push_str(l);
        out.push('\n');
    }
    out
}

/// The file's text: the header, `error` as comment lines, then `body`.
pub fn file_text(error: Option<&str>, body: &str) -> String {
    let mut out = String::from(HEADER);
    if let Some(e) = error {
        for l in e.lines() {
            out.push_str("# ");
            out.push_str(l);
            out.push('\n');
        }
        out.push_str("#\n");
    }
    out.push_str(body);
    out
}

/// What the edited text asks for: `Ok(None)` no change or empty (nothing to send),
/// `Ok(Some(object))` to replace, `Err(why)` to reopen with.
pub fn judge(original: &str, edited: &str, target: &Target) -> Result<Option<Value>, String> {
    let body = strip_comments(edited);
    if body.trim().is_empty() || body.trim_end() == original.trim_end() {
        return Ok(None);
    }
    let v: Value = serde_saphyr::from_str(&body).map_err(|e| format!("error: invalid YAML: {e}"))?;
    if !v.is_object() {
        return Err("error: the file must hold one object (a mapping)".into());
    }
    let name = v.pointer("/metadata/name").and_then(Value::as_str);
    if name != Some(target.name.as_str()) {
        return Err(format!(
            "error: metadata.name must stay {:?} (renaming creates another object)",
            target.name
        ));
    }
    Ok(Some(v))
}

/// The editor command for `path`: `line` (`$KUBE_EDITOR`, else `$EDITOR`, as the runtime
/// found them, see `Dirs::editor`), else `vi`, split at whitespace (`code -w`).
pub fn editor(path: &Path, line: Option<&str>) -> CommandJob {
    let line = line.filter(|s| !s.trim().is_empty()).unwrap_or("vi");
    let mut words = line.split_whitespace().map(str::to_owned);
    let program = words.next().unwrap_or_else(|| "vi".into());
    let mut args: Vec<String> = words.collect();
    args.push(path.display().to_string());
    CommandJob {
        program,
        args,
        env: Vec::new(),
    }
}

/// Asks the runtime to write the edit's file (`create`: a new temp file, never over an
/// existing one); the editor opens once it is written (see [`file_ready`]).
fn write_file(path: &Path, text: String, create: bool) -> Effect {
    Effect::WriteFile(Box::new(FileWrite {
        path: path.to_path_buf(),
        text,
        create_new: create,
        then: AfterWrite::Editor,
    }))
}

/// The edit's file was written (or not): hand the terminal to the editor, or end the edit.
pub fn file_ready(state: &mut UiState, file: &FileWrite, result: Result<(), String>) -> Vec<Effect> {
    let Some(s) = state
        .screens
        .overlays
        .edit
        .clone()
        .filter(|s| s.path == file.path)
    else {
        return Vec::new();
    };
    match result {
        Ok(()) => vec![hand_over(&s, state.settings.dirs.editor.as_deref())],
        Err(e) => {
            state.screens.footer.message = Some(format!("edit: cannot write {}: {e}", s.path.display()));
            if file.create_new {
                // Not ours to remove: the file that was there stays.
                state.screens.overlays.edit = None;
            } else {
                finish(state);
            }
            Vec::new()
        }
    }
}

fn hand_over(s: &EditSession, line: Option<&str>) -> Effect {
    let job = editor(&s.path, line);
    let label =
        crate::kube::sanitize::sanitize(&format!("{} {}", job.program, s.path.display())).into_owned();
    Effect::HandOver(Box::new(Handover {
        label,
        job: Job::Command(job),
        then: Then::Edit(s.path.clone()),
    }))
}

/// The object arrived: write the file and hand the terminal to the editor; after a
/// conflict (an edit pending), take the newest resourceVersion and reopen with the error.
pub fn fetched(state: &mut UiState, target: Target, obj: Result<Value, String>) -> Vec<Effect> {
    let obj = match obj {
        Ok(o) => o,
        Err(e) => {
            state.screens.footer.message = Some(format!("edit {}: {e}", target.label()));
            if let Some(s) = state.screens.overlays.edit.take() {
                state.screens.footer.message = Some(format!(
                    "edit {}: {e}; your text is in {}",
                    target.label(),
                    s.path.display()
                ));
            }
            return Vec::new();
        }
    };
    let (text, rv) = editable(&obj);
    if let Some(s) = state.screens.overlays.edit.as_mut() {
        // After a conflict: the newest version is the base now.
        s.resource_version = rv.clone();
        // Saving this unchanged is meaningful (it replaces the newer version): not compared.
        let body = s.pending.take().unwrap_or_default();
        let error = format!(
            "error: {} was changed on the server since the edit began (resourceVersion now {rv});\n\
             saving again replaces that newer version with this text",
            target.label()
        );
        return vec![write_file(&s.path, file_text(Some(&error), &body), false)];
    }
    let Some(context) = state.conn.context.clone() else {
        return Vec::new();
    };
    let safe: String = format!("{}-{}", target.kind.singular(), target.name)
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let path = state.settings.dirs.temp.join(format!(
        "ktui-edit-{safe}-{}.yaml",
        crate::kube::write::cronjob::suffix()
    ));
    let fx = write_file(&path, file_text(None, &text), true);
    let s = EditSession {
        target,
        context,
        resource_version: rv,
        original: text,
        path,
        pending: None,
    };
    state.screens.overlays.edit = Some(s);
    vec![fx]
}

/// The loop did not send an edit's replace (`why`: read-only, not connected, the context
/// changed): the edit ends and its file is removed, so a later `e` is not refused.
pub fn abandon(state: &mut UiState, why: &str) {
    state.screens.footer.message = Some(match state.screens.overlays.edit.as_ref() {
        Some(s) => format!("edit {}: {why}", s.target.label()),
        None => format!("edit: {why}"),
    });
    finish(state);
}

/// Ends the edit; its file is removed (by the runtime).
fn finish(state: &mut UiState) {
    if let Some(s) = state.screens.overlays.edit.take() {
        state.emit(Effect::RemoveFile(s.path));
    }
}

/// The editor exited and the runtime read the file back (`read`): judge its text; send the
/// replace, reopen with the error, or stop.
pub fn edited(state: &mut UiState, outcome: &Outcome, read: Result<String, String>) -> Vec<Effect> {
    let Some(s) = state.screens.overlays.edit.clone() else {
        return Vec::new();
    };
    if *outcome != Outcome::Exited(0) {
        state.screens.footer.message = Some(format!("editor: {}; nothing was sent", outcome.words()));
        finish(state);
        return Vec::new();
    }
    let text = match read {
        Ok(t) => t,
        Err(e) => {
            state.screens.footer.message = Some(format!("edit: cannot read {}: {e}", s.path.display()));
            finish(state);
            return Vec::new();
        }
    };
    // Reopened after an error and saved as it was: give up, as kubectl does.
    if s.pending.as_deref() == Some(strip_comments(&text).as_str()) {
        state.screens.footer.message = Some(format!(
            "edit {} cancelled: saved unchanged after an error; nothing was sent",
            s.target.label()
        ));
        finish(state);
        return Vec::new();
    }
    match judge(&s.original, &text, &s.target) {
        Ok(None) => {
            state.note(format!("edit {}: no changes; nothing was sent", s.target.label()));
            finish(state);
            Vec::new()
        }
        Ok(Some(obj)) => {
            if let Some(e) = state.screens.overlays.edit.as_mut() {
                // Kept for a reopen after a conflict; a reopen compares against it again.
                e.pending = Some(strip_comments(&text));
            }
            state.note(format!(
                "edit {}: replacing (context {})…",
                s.target.label(),
                s.context
            ));
            vec![Effect::Write(Box::new(WriteRequest {
                context: s.context.clone(),
                summary: format!("edit {}", s.target.label()),
                op: WriteOp::Replace(s.target.clone(), Box::new(obj), s.resource_version.clone()),
            }))]
        }
        Err(why) => reopen(state, &why, &strip_comments(&text)),
    }
}

fn reopen(state: &mut UiState, error: &str, body: &str) -> Vec<Effect> {
    let Some(s) = state.screens.overlays.edit.as_mut() else {
        return Vec::new();
    };
    s.pending = Some(body.to_owned());
    vec![write_file(&s.path, file_text(Some(error), body), false)]
}

/// The replace's answer: done; a conflict (fetch the newest version, then reopen); a
/// rejected object (reopen with the server's message); anything else stops with the text
/// kept in the file.
pub fn replaced(state: &mut UiState, result: Result<(), WriteError>) -> Vec<Effect> {
    let Some(s) = state.screens.overlays.edit.clone() else {
        return Vec::new();
    };
    match result {
        Ok(()) => {
            state.note(format!("edited {} (context {})", s.target.label(), s.context));
            finish(state);
            Vec::new()
        }
        Err(e) if e.code == 409 => vec![Effect::EditFetch(s.target)],
        Err(e) if e.code == 422 || e.code == 400 => {
            let body = s.pending.clone().unwrap_or_default();
            reopen(state, &format!("error: {}", e.message), &body)
        }
        Err(e) => {
            state.screens.footer.message = Some(format!(
                "edit {} failed: {}; your text is in {}",
                s.target.label(),
                e.message,
                s.path.display()
            ));
            state.screens.overlays.edit = None;
            Vec::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kube::builtin::BuiltinKind;
    use serde_json::json;

    fn cm() -> Value {
        json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "cfg", "namespace": "a", "resourceVersion": "42",
                "managedFields": [{"manager": "kubectl"}]},
            "data": {"k": "v"}, "status": {"x": 1}})
    }

    fn target() -> Target {
        Target::new(BuiltinKind::ConfigMap.into(), Some("a"), "cfg")
    }

    #[test]
    fn the_editor_sees_no_managed_fields_nor_status() {
        let (text, rv) = editable(&cm());
        assert_eq!(rv, "42");
        assert!(
            !text.contains("managedFields") && !text.contains("status"),
            "{text}"
        );
        assert!(text.contains("resourceVersion: '42'"), "{text}");
    }

    #[test]
    fn round_trip_no_change_change_and_invalid() {
        let (text, _) = editable(&cm());
        let t = target();
        // Unchanged (comments included): nothing to send; empty: nothing either.
        assert_eq!(judge(&text, &file_text(None, &text), &t), Ok(None));
        assert_eq!(judge(&text, "# only comments\n\n", &t), Ok(None));
        // Changed: the object to replace with, parsed back.
        let changed = text.replace("k: v", "k: w");
        let v = judge(&text, &file_text(Some("error: old"), &changed), &t)
            .unwrap()
            .unwrap();
        assert_eq!(v["data"]["k"], "w");
        assert_eq!(v["metadata"]["resourceVersion"], "42");
        // Invalid YAML and a renamed object reopen with why.
        assert!(judge(&text, "data: [unclosed\n", &t)
            .unwrap_err()
            .starts_with("error: invalid YAML"));
        let renamed = text.replace("name: cfg", "name: other");
        assert!(judge(&text, &renamed, &t)
            .unwrap_err()
            .contains("metadata.name must stay"));
    }

    #[test]
    fn errors_go_on_top_as_comments_and_the_editor_is_chosen_as_kubectl_does() {
        let f = file_text(
            Some("error: Operation cannot be fulfilled\nsecond line"),
            "a: 1\n",
        );
        assert!(f.contains("# error: Operation cannot be fulfilled\n# second line\n#\na: 1\n"));
        assert_eq!(strip_comments(&f), "a: 1\n");
        let p = Path::new("/tmp/x.yaml");
        let j = editor(p, Some("nano"));
        assert_eq!(
            (j.program.as_str(), j.args.clone()),
            ("nano", vec!["/tmp/x.yaml".to_owned()])
        );
        let j = editor(p, Some("code -w"));
        assert_eq!(
            (j.program.as_str(), j.args),
            ("code", vec!["-w".to_owned(), "/tmp/x.yaml".to_owned()])
        );
        assert_eq!(editor(p, None).program, "vi");
        assert_eq!(editor(p, Some("  ")).program, "vi");
    }

    fn editing() -> UiState {
        use crate::app::state::{ListState, Screen};
        let key = crate::kube::key::ResourceKey::new(BuiltinKind::ConfigMap, Some("a"));
        let mut st = UiState::new(Screen::List(Box::new(ListState::new(key, None))), None, false);
        st.conn.context = Some("dev".into());
        st.settings.dirs.temp = "/tmp/t".into();
        st.settings.dirs.editor = Some("nano".into());
        st.take_effects();
        st
    }

    /// The one file write `fx` asks for.
    fn the_write(fx: &[Effect]) -> FileWrite {
        match fx {
            [Effect::WriteFile(f)] => (**f).clone(),
            other => panic!("expected one file write, got {other:?}"),
        }
    }

    #[test]
    fn an_invalid_save_reopens_and_the_same_save_again_gives_up() {
        let mut st = editing();
        let file = the_write(&fetched(&mut st, target(), Ok(cm())));
        let shown = file.path.display().to_string();
        assert!(
            file.create_new && shown.starts_with("/tmp/t/ktui-edit-configmap-cfg-"),
            "{shown}"
        );
        assert_eq!(file.then, AfterWrite::Editor);
        let fx = file_ready(&mut st, &file, Ok(()));
        let [Effect::HandOver(h)] = &fx[..] else {
            panic!("{fx:?}")
        };
        assert_eq!(h.then, crate::app::handover::Then::Edit(file.path.clone()));
        assert!(h.label.starts_with("nano /tmp/t/ktui-edit-"), "{}", h.label);
        let reopen = the_write(&edited(
            &mut st,
            &Outcome::Exited(0),
            Ok("data: [unclosed\n".into()),
        ));
        assert!(
            !reopen.create_new && reopen.path == file.path && reopen.text.contains("# error: invalid YAML")
        );
        let fx = edited(&mut st, &Outcome::Exited(0), Ok(reopen.text.clone()));
        assert!(st.screens.overlays.edit.is_none());
        assert!(st
            .screens
            .footer
            .message
            .as_deref()
            .unwrap()
            .contains("saved unchanged after an error"));
        assert!(fx.is_empty());
        assert_eq!(
            st.take_effects(),
            [Effect::RemoveFile(file.path)],
            "the temp file is removed"
        );
    }

    #[test]
    fn an_abandoned_edit_ends_and_removes_its_file_and_a_failed_write_ends_it() {
        let mut st = editing();
        let file = the_write(&fetched(&mut st, target(), Ok(cm())));
        abandon(&mut st, "read-only: nothing was sent");
        assert!(st.screens.overlays.edit.is_none());
        assert_eq!(st.take_effects(), [Effect::RemoveFile(file.path.clone())]);
        assert_eq!(
            st.screens.footer.message.as_deref(),
            Some("edit configmap/cfg: read-only: nothing was sent")
        );
        // A new temp file that cannot be written: the edit ends, and nothing is removed (the
        // file in the way is not ours).
        let file = the_write(&fetched(&mut st, target(), Ok(cm())));
        assert!(file_ready(&mut st, &file, Err("exists".into())).is_empty());
        assert!(st.screens.overlays.edit.is_none() && st.take_effects().is_empty());
    }
}
