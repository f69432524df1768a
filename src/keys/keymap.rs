//! Keys as data: key sequences (`j`, `ctrl-c`, `shift-n`, `g g`) bound to [`Action`]s per
//! mode, with the descriptions the help screen and footer show. The bindings come from
//! `assets/keymap.toml` plus the user's `[keymap]`: `crate::config::keymap` parses and merges
//! them (and builds `Keymap::defaults`). Owns parsing and matching of keys; must not
//! interpret actions nor read configuration.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::action::Action;

/// One key press: a code and the modifiers that matter (ctrl, alt; shift is folded into
/// upper-case characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyPress {
    /// The key.
    pub code: KeyCode,
    /// Ctrl and/or Alt.
    pub mods: KeyModifiers,
}

impl KeyPress {
    /// Normalises a terminal key event: shift+letter becomes the upper-case letter, and only
    /// ctrl/alt are kept as modifiers.
    pub fn from_event(ev: KeyEvent) -> KeyPress {
        let mut code = ev.code;
        if let KeyCode::Char(c) = code {
            if ev.modifiers.contains(KeyModifiers::SHIFT) && c.is_ascii_lowercase() {
                code = KeyCode::Char(c.to_ascii_uppercase());
            }
            // Terminals send ctrl-\ as 0x1C, which crossterm reports as ctrl-4.
            if c == '4' && ev.modifiers.contains(KeyModifiers::CONTROL) {
                code = KeyCode::Char('\\');
            }
        }
        KeyPress {
            code,
            mods: ev.modifiers & kept_mods(code),
        }
    }

    /// Parses one key as written in keymaps: `j`, `G`, `shift-g`, `ctrl-c`, `alt-x`,
    /// `enter`, `esc`, `tab`, `backspace`, `up`, `down`, `pgup`, `pgdn`, `home`, `end`,
    /// `space`, `?`, `/`, `:`.
    pub fn parse(s: &str) -> Result<KeyPress, String> {
        let mut mods = KeyModifiers::NONE;
        let mut rest = s;
        let mut shift = false;
        loop {
            if let Some(r) = rest.strip_prefix("ctrl-") {
                mods |= KeyModifiers::CONTROL;
                rest = r;
            } else if let Some(r) = rest.strip_prefix("alt-") {
                mods |= KeyModifiers::ALT;
                rest = r;
            } else if let Some(r) = rest.strip_prefix("shift-") {
                shift = true;
                rest = r;
            } else {
                break;
            }
        }
        let code = match rest {
            "enter" => KeyCode::Enter,
            "esc" => KeyCode::Esc,
            "tab" => KeyCode::Tab,
            "backtab" => KeyCode::BackTab,
            "backspace" => KeyCode::Backspace,
            "up" => KeyCode::Up,
            "down" => KeyCode::Down,
            "left" => KeyCode::Left,
            "right" => KeyCode::Right,
            "pgup" => KeyCode::PageUp,
            "pgdn" => KeyCode::PageDown,
            "home" => KeyCode::Home,
            "end" => KeyCode::End,
            "space" => KeyCode::Char(' '),
            one if one.chars().count() == 1 => {
                let c = one.chars().next().unwrap_or(' ');
                KeyCode::Char(if shift { c.to_ascii_uppercase() } else { c })
            }
            other => return Err(format!("unknown key {other:?}")),
        };
        if shift {
            mods |= KeyModifiers::SHIFT;
        }
        Ok(KeyPress {
            code,
            mods: mods & kept_mods(code),
        })
    }
}

/// The modifiers a key keeps: ctrl and alt, plus shift on the arrows and paging keys
/// (`shift-left` scrolls columns); on characters shift is in the character itself.
fn kept_mods(code: KeyCode) -> KeyModifiers {
    let base = KeyModifiers::CONTROL | KeyModifiers::ALT;
    match code {
        KeyCode::Left | KeyCode::Right | KeyCode::Up | KeyCode::Down | KeyCode::Home | KeyCode::End => {
            base | KeyModifiers::SHIFT
        }
        _ => base,
    }
}

/// Where keys are read: browsing (`Normal`), typing in a prompt (`Prompt`), or a view with
/// keys of its own (a *scope*: `Detail`, `Logs`). A scope's bindings are looked up first while
/// a view of that scope is on top, then `Normal`'s (see [`KeyMode::fallback`]); each mode is
/// a section of `assets/keymap.toml` (`[normal]`, `[prompt]`, `[detail]`, `[logs]`) and of
/// the user's `[keymap]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyMode {
    /// Browsing a list (and every view without a scope of its own).
    Normal,
    /// Typing in the `:` or `/` prompt.
    Prompt,
    /// A detail view: YAML, describe.
    Detail,
    /// A log view.
    Logs,
}

impl KeyMode {
    /// Every mode with its section name, in file order.
    pub const ALL: [(KeyMode, &'static str); 4] = [
        (KeyMode::Normal, "normal"),
        (KeyMode::Prompt, "prompt"),
        (KeyMode::Detail, "detail"),
        (KeyMode::Logs, "logs"),
    ];

    /// The section name (`normal`, `detail`…).
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(m, _)| *m == self)
            .map_or("normal", |(_, n)| n)
    }

    /// The mode whose bindings apply where this one binds nothing: `Normal` for a view
    /// scope, none for `Normal` and `Prompt`.
    pub fn fallback(self) -> Option<KeyMode> {
        match self {
            KeyMode::Normal | KeyMode::Prompt => None,
            KeyMode::Detail | KeyMode::Logs => Some(KeyMode::Normal),
        }
    }
}

/// One binding: a key sequence (chords like `g g` have two presses), its action and the
/// help text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// The keys as written (`g g`, `ctrl-c`).
    pub on: String,
    /// Parsed presses.
    pub seq: Vec<KeyPress>,
    /// What it does.
    pub run: Action,
    /// Help text.
    pub desc: String,
}

/// All bindings of all modes.
#[derive(Debug, Clone, Default)]
pub struct Keymap {
    /// Bindings per mode, in help order; a mode with none is absent.
    modes: Vec<(KeyMode, Vec<Binding>)>,
}

impl Keymap {
    /// A keymap of the browsing and prompt bindings only, in help order.
    pub fn from_bindings(normal: Vec<Binding>, prompt: Vec<Binding>) -> Keymap {
        Keymap::from_modes(vec![(KeyMode::Normal, normal), (KeyMode::Prompt, prompt)])
    }

    /// A keymap of these bindings per mode, each in help order.
    pub fn from_modes(modes: Vec<(KeyMode, Vec<Binding>)>) -> Keymap {
        Keymap { modes }
    }

    /// The bindings of `mode`'s own section, in help order (not its fallback's).
    pub fn bindings(&self, mode: KeyMode) -> &[Binding] {
        self.modes
            .iter()
            .find(|(m, _)| *m == mode)
            .map_or(&[], |(_, b)| b.as_slice())
    }

    /// What is in force in `mode`: its own bindings, then those of its fallback whose keys
    /// it does not bind itself, in help order. Dispatch, footer and help all read this.
    pub fn effective(&self, mode: KeyMode) -> Vec<&Binding> {
        let own = self.bindings(mode);
        let mut out: Vec<&Binding> = own.iter().collect();
        if let Some(fb) = mode.fallback() {
            out.extend(
                self.bindings(fb)
                    .iter()
                    .filter(|b| !own.iter().any(|o| o.seq == b.seq)),
            );
        }
        out
    }

    /// Matches the pending presses (`pending`, chord prefix) plus `key` in `mode` (its own
    /// bindings first, then its fallback's).
    pub fn lookup(&self, mode: KeyMode, pending: &[KeyPress], key: KeyPress) -> Lookup {
        self.lookup_where(mode, pending, key, |_| true)
    }

    /// As [`Keymap::lookup`], where one key may be bound to several actions that apply to
    /// different kinds (`s`: scale a deployment, suspend a CronJob): the first binding
    /// whose action `fits` wins, else the first binding of the key.
    pub fn lookup_where(
        &self,
        mode: KeyMode,
        pending: &[KeyPress],
        key: KeyPress,
        fits: impl Fn(Action) -> bool,
    ) -> Lookup {
        let mut seq = pending.to_vec();
        seq.push(key);
        let mut prefix = false;
        let bindings = self.effective(mode);
        if let Some(b) = bindings.iter().find(|b| b.seq == seq && fits(b.run)) {
            return Lookup::Action(b.run);
        }
        for b in bindings {
            if b.seq == seq {
                return Lookup::Action(b.run);
            }
            if b.seq.len() > seq.len() && b.seq[..seq.len()] == seq[..] {
                prefix = true;
            }
        }
        if prefix {
            Lookup::Pending(seq)
        } else {
            Lookup::None
        }
    }
}

/// Result of matching a key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lookup {
    /// A binding matched.
    Action(Action),
    /// The keys so far are the start of a chord; wait for more.
    Pending(Vec<KeyPress>),
    /// Nothing matched.
    None,
}

impl Binding {
    /// Parses `on` (presses separated by spaces).
    pub fn new(on: &str, run: Action, desc: &str) -> Result<Binding, String> {
        let seq = on
            .split_whitespace()
            .map(KeyPress::parse)
            .collect::<Result<Vec<_>, _>>()?;
        if seq.is_empty() {
            return Err("empty key".into());
        }
        Ok(Binding {
            on: on.to_owned(),
            seq,
            run,
            desc: desc.to_owned(),
        })
    }
}

#[cfg(test)]
mod shift_tests {
    use super::*;
    use crossterm::event::KeyEvent;

    #[test]
    fn shift_arrows_are_their_own_keys_and_shift_letters_are_upper_case() {
        let parsed = KeyPress::parse("shift-left").unwrap();
        let typed = KeyPress::from_event(KeyEvent::new(KeyCode::Left, KeyModifiers::SHIFT));
        assert_eq!(parsed, typed);
        assert_ne!(typed, KeyPress::parse("left").unwrap());
        let g = KeyPress::from_event(KeyEvent::new(KeyCode::Char('g'), KeyModifiers::SHIFT));
        assert_eq!(g, KeyPress::parse("G").unwrap());
        assert_eq!(g, KeyPress::parse("shift-g").unwrap());
        let backtab = KeyPress::from_event(KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT));
        assert_eq!(backtab, KeyPress::parse("backtab").unwrap());
    }
}
