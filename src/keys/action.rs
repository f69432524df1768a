//! `Action`: the one vocabulary of user intents, produced by the keymap and consumed by
//! `app::update`. Owns names, descriptions and what each action may touch (`writes`); must
//! not perform anything.

/// A user intent. Keys map to actions through `keymap`; `app::update` interprets them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Leave ktui (exit code 0).
    Quit,
    /// Open the `:` command prompt.
    CommandMode,
    /// Open the `/` filter prompt.
    FilterMode,
    /// Clear the filter, else go back one view.
    Back,
    /// Drill into the selected row (namespace → pods, workload → its pods, node → its pods).
    Enter,
    /// Move the selection up one row.
    Up,
    /// Move the selection down one row.
    Down,
    /// Move the selection up one page.
    PageUp,
    /// Move the selection down one page.
    PageDown,
    /// Select the first row.
    Top,
    /// Select the last row.
    Bottom,
    /// Toggle the help screen.
    Help,
    /// Sort by name; again reverses.
    SortName,
    /// Sort by age; again reverses.
    SortAge,
    /// Sort by status; again reverses.
    SortStatus,
    /// Pods: sort by CPU usage, highest first; again reverses (nodes: `C` cordons instead).
    SortCpu,
    /// Pods and nodes: sort by memory usage, highest first; again reverses.
    SortMem,
    /// Sort by %CPU/R (nodes: %CPU of allocatable), highest first; again reverses.
    SortCpuPct,
    /// Sort by %MEM/R (nodes: %MEM of allocatable), highest first; again reverses.
    SortMemPct,
    /// Pods: sort by %CPU/L, highest first; again reverses.
    SortCpuLimitPct,
    /// Pods: sort by %MEM/L, highest first; again reverses.
    SortMemLimitPct,
    /// Toggle the wide columns (`-o wide`).
    ToggleWide,
    /// Redraw the whole screen.
    Redraw,
    /// Prompt: run what was typed.
    Submit,
    /// Prompt: abandon input.
    Cancel,
    /// Prompt: delete the character before the cursor.
    Backspace,
    /// Command prompt: complete the kind name.
    Complete,
    /// Event timeline: show only Warning events (again: all).
    ToggleWarnings,
    /// Open the live event timeline of the selected object.
    ObjectEvents,
    /// Jump to the selected object's owner (a pod without one: its node; a service: its
    /// pods), with the owner selected.
    JumpOwner,
    /// Open the xray tree of the selected object (owners down to pods and containers, what
    /// its pods use).
    Xray,
    /// Open the live YAML of the selected object.
    Yaml,
    /// Open the live `kubectl describe`-like summary of the selected object.
    Describe,
    /// YAML of a Secret: decode and show its values (asks for confirmation).
    Reveal,
    /// YAML: show or hide `metadata.managedFields`.
    ToggleManaged,
    /// YAML: save it to a file in the state directory.
    Save,
    /// YAML: jump to the next line matching the search.
    NextMatch,
    /// Switch the list to favourite namespace N of the context (`0` = all namespaces,
    /// `1`–`9` = the `[namespaces] favourites` in order).
    Favourite(u8),
    /// Open the logs of the selected pod, container, workload or service.
    Logs,
    /// Log view: the previous instance of the container (again: the current one).
    LogPrevious,
    /// Log view: show or hide timestamps.
    LogTimestamps,
    /// Log view: wrap long lines.
    LogWrap,
    /// Log view: time window N (`0` all, `1` head, `2`–`6` last 1m, 5m, 15m, 30m, 1h).
    LogWindow(u8),
    /// Log view: search (highlight and jump).
    LogSearch,
    /// Jump to the previous search match.
    PrevMatch,
    /// Mark or unmark the selected row (and move down): actions apply to marked rows.
    Mark,
    /// Mark the rows from the last mark to the selected one.
    MarkRange,
    /// Unmark every row.
    ClearMarks,
    /// Copy the marked (else the selected) names to the clipboard (tmux's buffer, a clipboard
    /// tool or OSC 52: `runtime::clipboard`).
    Copy,
    /// Delete the marked (else the selected) objects (asks first; propagation, grace).
    Delete,
    /// Force delete (grace period 0; asks twice).
    ForceDelete,
    /// Scale a deployment, statefulset or replicaset (asks first).
    Scale,
    /// Rollout restart deployments, statefulsets or daemonsets (asks first).
    Restart,
    /// Cordon nodes (asks first).
    Cordon,
    /// Uncordon nodes (asks first).
    Uncordon,
    /// Drain a node through the Eviction API (asks first; cancellable).
    Drain,
    /// Create a Job from a CronJob now (asks first).
    Trigger,
    /// Suspend or resume CronJobs (asks first).
    Suspend,
    /// Roll a deployment back to an earlier ReplicaSet revision (asks first).
    Rollback,
    /// Edit the object in `$KUBE_EDITOR`/`$EDITOR`; saving replaces it (guarded by its
    /// resourceVersion).
    Edit,
    /// Open the revision history of the selected object (list row, YAML or describe view).
    History,
    /// Show the object's YAML with each line annotated by the field manager that last set
    /// it (`metadata.managedFields`).
    Blame,
    /// History view: mark or unmark the selected revision (two marks: `enter` diffs them).
    MarkRevision,
    /// List: scroll the columns left (show the ones scrolled off on the left).
    ScrollLeft,
    /// List: scroll the columns right (skip the first unpinned column).
    ScrollRight,
    /// List: show every cell of the selected row in full, in a scrollable pane.
    Cells,
    /// Prompt: cursor one character left.
    CursorLeft,
    /// Prompt: cursor one character right.
    CursorRight,
    /// Prompt: cursor to the start of the line.
    CursorHome,
    /// Prompt: cursor to the end of the line.
    CursorEnd,
    /// Prompt: cursor to the start of the previous word.
    WordLeft,
    /// Prompt: cursor past the end of the next word.
    WordRight,
    /// Prompt: delete the word before the cursor.
    KillWord,
    /// Prompt: delete from the start of the line to the cursor.
    KillToStart,
    /// Prompt: the previous line of this prompt's history.
    HistoryOlder,
    /// Prompt: the next line of this prompt's history (after the newest: what was typed).
    HistoryNewer,
    /// A shell in the selected pod or container (exec through the API server).
    Shell,
    /// Attach to the selected container's main process.
    Attach,
    /// Port-forward to the selected pod, service or workload (`shift-f`).
    PortForward,
    /// `:pf`: stop the selected forward.
    StopForward,
    /// Detail views (YAML, describe, event detail, help): wrap long lines (again: scroll
    /// sideways instead).
    Wrap,
    /// `[`: the view stack before the last `:` command or namespace change.
    NavBack,
    /// `]`: the view stack `[` left.
    NavForward,
    /// Run `[[plugins]]` entry N of those in force (bound by `app::plugins::bind`, never
    /// named in a keymap).
    Plugin(u16),
}

impl Action {
    /// Every action with its name as written in keymaps (`run = "..."`).
    pub const ALL: [(Action, &'static str); 98] = [
        (Action::Quit, "quit"),
        (Action::CommandMode, "command"),
        (Action::FilterMode, "filter"),
        (Action::Back, "back"),
        (Action::Enter, "enter"),
        (Action::Up, "up"),
        (Action::Down, "down"),
        (Action::PageUp, "page_up"),
        (Action::PageDown, "page_down"),
        (Action::Top, "top"),
        (Action::Bottom, "bottom"),
        (Action::Help, "help"),
        (Action::SortName, "sort_name"),
        (Action::SortAge, "sort_age"),
        (Action::SortStatus, "sort_status"),
        (Action::SortCpu, "sort_cpu"),
        (Action::SortMem, "sort_mem"),
        (Action::SortCpuPct, "sort_cpu_pct"),
        (Action::SortMemPct, "sort_mem_pct"),
        (Action::SortCpuLimitPct, "sort_cpu_limit_pct"),
        (Action::SortMemLimitPct, "sort_mem_limit_pct"),
        (Action::ToggleWide, "toggle_wide"),
        (Action::Redraw, "redraw"),
        (Action::Submit, "submit"),
        (Action::Cancel, "cancel"),
        (Action::Backspace, "backspace"),
        (Action::Complete, "complete"),
        (Action::ToggleWarnings, "toggle_warnings"),
        (Action::ObjectEvents, "object_events"),
        (Action::JumpOwner, "jump_owner"),
        (Action::Xray, "xray"),
        (Action::Yaml, "yaml"),
        (Action::Describe, "describe"),
        (Action::Reveal, "reveal"),
        (Action::ToggleManaged, "toggle_managed"),
        (Action::Save, "save"),
        (Action::NextMatch, "next_match"),
        (Action::Favourite(0), "favourite_0"),
        (Action::Favourite(1), "favourite_1"),
        (Action::Favourite(2), "favourite_2"),
        (Action::Favourite(3), "favourite_3"),
        (Action::Favourite(4), "favourite_4"),
        (Action::Favourite(5), "favourite_5"),
        (Action::Favourite(6), "favourite_6"),
        (Action::Favourite(7), "favourite_7"),
        (Action::Favourite(8), "favourite_8"),
        (Action::Favourite(9), "favourite_9"),
        (Action::Logs, "logs"),
        (Action::LogPrevious, "log_previous"),
        (Action::LogTimestamps, "log_timestamps"),
        (Action::LogWrap, "log_wrap"),
        (Action::LogWindow(0), "log_window_0"),
        (Action::LogWindow(1), "log_window_1"),
        (Action::LogWindow(2), "log_window_2"),
        (Action::LogWindow(3), "log_window_3"),
        (Action::LogWindow(4), "log_window_4"),
        (Action::LogWindow(5), "log_window_5"),
        (Action::LogWindow(6), "log_window_6"),
        (Action::LogSearch, "log_search"),
        (Action::PrevMatch, "prev_match"),
        (Action::Mark, "mark"),
        (Action::MarkRange, "mark_range"),
        (Action::ClearMarks, "clear_marks"),
        (Action::Copy, "copy"),
        (Action::Delete, "delete"),
        (Action::ForceDelete, "force_delete"),
        (Action::Scale, "scale"),
        (Action::Restart, "restart"),
        (Action::Cordon, "cordon"),
        (Action::Uncordon, "uncordon"),
        (Action::Drain, "drain"),
        (Action::Trigger, "trigger"),
        (Action::Suspend, "suspend"),
        (Action::Rollback, "rollback"),
        (Action::Edit, "edit"),
        (Action::History, "history"),
        (Action::Blame, "blame"),
        (Action::MarkRevision, "mark_revision"),
        (Action::ScrollLeft, "scroll_left"),
        (Action::ScrollRight, "scroll_right"),
        (Action::Cells, "cells"),
        (Action::CursorLeft, "cursor_left"),
        (Action::CursorRight, "cursor_right"),
        (Action::CursorHome, "cursor_home"),
        (Action::CursorEnd, "cursor_end"),
        (Action::WordLeft, "word_left"),
        (Action::WordRight, "word_right"),
        (Action::KillWord, "kill_word"),
        (Action::KillToStart, "kill_to_start"),
        (Action::HistoryOlder, "history_older"),
        (Action::HistoryNewer, "history_newer"),
        (Action::Shell, "shell"),
        (Action::Attach, "attach"),
        (Action::PortForward, "port_forward"),
        (Action::StopForward, "stop_forward"),
        (Action::Wrap, "wrap"),
        (Action::NavBack, "nav_back"),
        (Action::NavForward, "nav_forward"),
    ];

    /// Whether the action changes something in the cluster (a write; `save`, which writes a
    /// local file, is not one). A write must name its context, be confirmed, and not exist in
    /// read-only mode (`--readonly` or a `readonly` context): whatever decides whether an
    /// action applies must check this flag. The match has no catch-all so that every new
    /// action decides.
    pub fn writes(self) -> bool {
        match self {
            Action::Quit
            | Action::CommandMode
            | Action::FilterMode
            | Action::Back
            | Action::Enter
            | Action::Up
            | Action::Down
            | Action::PageUp
            | Action::PageDown
            | Action::Top
            | Action::Bottom
            | Action::Help
            | Action::SortName
            | Action::SortAge
            | Action::SortStatus
            | Action::SortCpu
            | Action::SortMem
            | Action::SortCpuPct
            | Action::SortMemPct
            | Action::SortCpuLimitPct
            | Action::SortMemLimitPct
            | Action::ToggleWide
            | Action::Redraw
            | Action::Submit
            | Action::Cancel
            | Action::Backspace
            | Action::Complete
            | Action::ToggleWarnings
            | Action::ObjectEvents
            | Action::JumpOwner
            | Action::Xray
            | Action::Yaml
            | Action::Describe
            | Action::Reveal
            | Action::ToggleManaged
            | Action::Save
            | Action::NextMatch
            | Action::Favourite(_) => false,
            Action::Logs
            | Action::LogPrevious
            | Action::LogTimestamps
            | Action::LogWrap
            | Action::LogWindow(_)
            | Action::LogSearch
            | Action::PrevMatch => false,
            Action::Mark | Action::MarkRange | Action::ClearMarks | Action::Copy => false,
            Action::Delete
            | Action::ForceDelete
            | Action::Scale
            | Action::Restart
            | Action::Cordon
            | Action::Uncordon
            | Action::Drain
            | Action::Trigger
            | Action::Suspend
            | Action::Rollback
            | Action::Edit => true,
            Action::History | Action::Blame | Action::MarkRevision => false,
            Action::ScrollLeft | Action::ScrollRight | Action::Cells => false,
            Action::CursorLeft
            | Action::CursorRight
            | Action::CursorHome
            | Action::CursorEnd
            | Action::WordLeft
            | Action::WordRight
            | Action::KillWord
            | Action::KillToStart
            | Action::HistoryOlder
            | Action::HistoryNewer => false,
            // exec/attach run commands in the cluster (`create pods/exec|attach`).
            Action::Shell | Action::Attach => true,
            // A forward opens pods/portforward (`create pods/portforward`); stopping one
            // only closes a local listener.
            Action::PortForward => true,
            Action::StopForward => false,
            Action::Wrap => false,
            Action::NavBack | Action::NavForward => false,
            // A plugin is a write unless declared `readonly`; the action cannot tell, so
            // `app::plugins` removes the others in read-only mode.
            Action::Plugin(_) => false,
        }
    }

    /// Looks an action up by its keymap name.
    pub fn from_name(name: &str) -> Option<Action> {
        Self::ALL.iter().find(|(_, n)| *n == name).map(|(a, _)| *a)
    }
}
