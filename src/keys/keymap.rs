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
        }
        KeyPress {
            code,
            mods: ev.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT),
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
        Ok(KeyPress { code, mods })
    }
}

/// Where keys are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyMode {
    /// Browsing a list.
    Normal,
    /// Typing in the `:` or `/` prompt.
    Prompt,
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
    normal: Vec<Binding>,
    prompt: Vec<Binding>,
}

impl Keymap {
    /// A keymap of these bindings, in help order.
    pub fn from_bindings(normal: Vec<Binding>, prompt: Vec<Binding>) -> Keymap {
        Keymap { normal, prompt }
    }

    /// The bindings of `mode`, in help order.
    pub fn bindings(&self, mode: KeyMode) -> &[Binding] {
        match mode {
            KeyMode::Normal => &self.normal,
            KeyMode::Prompt => &self.prompt,
        }
    }

    /// Matches the pending presses (`pending`, chord prefix) plus `key` in `mode`.
    pub fn lookup(&self, mode: KeyMode, pending: &[KeyPress], key: KeyPress) -> Lookup {
        let mut seq = pending.to_vec();
        seq.push(key);
        let mut prefix = false;
        for b in self.bindings(mode) {
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
