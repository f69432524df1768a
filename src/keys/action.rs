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
    /// A shell in the selected pod or container (exec through the API server).
    Shell,
    /// Attach to the selected container's main process.
    Attach,
    /// Port-forward to the selected pod, service or workload (`shift-f`).
    PortForward,
    /// `:pf`: stop the selected forward.
    StopForward,
}

impl Action {
    /// Every action with its name as written in keymaps (`run = "..."`).
    pub const ALL: [(Action, &'static str); 57] = [
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
        (Action::ToggleWide, "toggle_wide"),
        (Action::Redraw, "redraw"),
        (Action::Submit, "submit"),
        (Action::Cancel, "cancel"),
        (Action::Backspace, "backspace"),
        (Action::Complete, "complete"),
        (Action::ToggleWarnings, "toggle_warnings"),
        (Action::ObjectEvents, "object_events"),
        (Action::JumpOwner, "jump_owner"),
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
        (Action::Shell, "shell"),
        (Action::Attach, "attach"),
        (Action::PortForward, "port_forward"),
        (Action::StopForward, "stop_forward"),
    ];

    /// Whether the action changes something in the cluster (a write; `save`, which writes a
    /// local file, is not one). A write must name its context, be confirmed, and not exist in
    /// read-only mode (`--readonly` or a `readonly` context): whatever decides whether an
    /// action applies must check this flag. No action writes yet; the match has no
    /// catch-all so that every new action decides.
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
            | Action::ToggleWide
            | Action::Redraw
            | Action::Submit
            | Action::Cancel
            | Action::Backspace
            | Action::Complete
            | Action::ToggleWarnings
            | Action::ObjectEvents
            | Action::JumpOwner
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
            // exec/attach run commands in the cluster (`create pods/exec|attach`).
            Action::Shell | Action::Attach => true,
            // A forward opens pods/portforward (`create pods/portforward`); stopping one
            // only closes a local listener.
            Action::PortForward => true,
            Action::StopForward => false,
        }
    }

    /// Looks an action up by its keymap name.
    pub fn from_name(name: &str) -> Option<Action> {
        Self::ALL.iter().find(|(_, n)| *n == name).map(|(a, _)| *a)
    }
}
