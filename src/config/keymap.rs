//! Keymaps as data: the shape of `assets/keymap.toml` and of the user's `[keymap]` section
//! (`[normal]`, `[prompt]` and the view scopes `[detail]`, `[logs]`, each `bindings = [{ on, run, desc }]`), validated while parsing so
//! an unknown key name or action is an error at its line, and the merge of user overrides
//! over the defaults. Owns parsing and merging; must not match keys or interpret actions.

use serde::de::{self, Deserializer};
use serde::Deserialize;

use crate::keys::{Action, Binding, KeyMode, KeyPress, Keymap};

/// The embedded default keymap.
pub const DEFAULT_KEYMAP: &str = include_str!("../../assets/keymap.toml");

/// The action name that removes a binding in an override.
pub const UNBIND: &str = "none";

/// A keymap file or `[keymap]` section: bindings per mode.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct KeymapSpec {
    /// Bindings while browsing.
    pub normal: ModeSpec,
    /// Bindings while typing in the `:` or `/` prompt.
    pub prompt: ModeSpec,
    /// Bindings of detail views (YAML, describe), over `normal`'s.
    pub detail: ModeSpec,
    /// Bindings of log views, over `normal`'s.
    pub logs: ModeSpec,
}

/// The bindings of one mode.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ModeSpec {
    /// Entries in help order.
    pub bindings: Vec<EntrySpec>,
}

/// One `{ on, run, desc }` entry.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntrySpec {
    /// The keys (`g g`, `ctrl-c`), checked while parsing.
    pub on: KeySeq,
    /// The action; `None` for `run = "none"` (unbind).
    pub run: RunSpec,
    /// Help text; empty in an override means "the text of the binding it replaces, else of
    /// another binding of the same action, else the action's name".
    #[serde(default)]
    pub desc: String,
}

/// A key sequence as written, with its parsed presses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeySeq {
    /// As written.
    pub text: String,
    /// Parsed.
    pub presses: Vec<KeyPress>,
}

impl<'de> Deserialize<'de> for KeySeq {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        let presses = text
            .split_whitespace()
            .map(KeyPress::parse)
            .collect::<Result<Vec<_>, _>>()
            .map_err(de::Error::custom)?;
        if presses.is_empty() {
            return Err(de::Error::custom("empty key"));
        }
        Ok(KeySeq { text, presses })
    }
}

/// An action name; `"none"` parses to `RunSpec(None)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunSpec(pub Option<Action>);

impl<'de> Deserialize<'de> for RunSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        if name == UNBIND {
            return Ok(RunSpec(None));
        }
        match Action::from_name(&name) {
            Some(a) => Ok(RunSpec(Some(a))),
            None => Err(de::Error::custom(format!(
                "unknown action {name:?} (actions: {}, or \"{UNBIND}\" to unbind)",
                Action::ALL.iter().map(|(_, n)| *n).collect::<Vec<_>>().join(", ")
            ))),
        }
    }
}

impl KeymapSpec {
    /// The entries of `mode`.
    pub fn mode(&self, mode: KeyMode) -> &[EntrySpec] {
        match mode {
            KeyMode::Normal => &self.normal.bindings,
            KeyMode::Prompt => &self.prompt.bindings,
            KeyMode::Detail => &self.detail.bindings,
            KeyMode::Logs => &self.logs.bindings,
        }
    }

    /// How many override entries there are, over all modes.
    pub fn len(&self) -> usize {
        KeyMode::ALL.iter().map(|(m, _)| self.mode(*m).len()).sum()
    }

    /// Whether there are no entries at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The embedded defaults, parsed (a unit test guarantees they parse).
pub fn default_spec() -> Result<KeymapSpec, toml::de::Error> {
    toml::from_str(DEFAULT_KEYMAP)
}

impl Keymap {
    /// The built-in bindings of `assets/keymap.toml` (k9s habits), without user overrides.
    pub fn defaults() -> Keymap {
        build(&KeymapSpec::default())
    }
}

/// The keymap in use: the embedded defaults with `overrides` merged over them. An override
/// whose keys equal a default's replaces it in place (keeping help order); `run = "none"`
/// removes it; other overrides are appended.
pub fn build(overrides: &KeymapSpec) -> Keymap {
    let defaults = default_spec().unwrap_or_default();
    let merge = |mode| {
        let mut out: Vec<Binding> = defaults
            .mode(mode)
            .iter()
            .filter_map(|e| binding(e, ""))
            .collect();
        for e in overrides.mode(mode) {
            let pos = out.iter().position(|b| b.seq == e.on.presses);
            let inherited = match (pos, e.run.0) {
                (Some(i), Some(a)) if out[i].run == a => out[i].desc.clone(),
                (_, Some(a)) => out
                    .iter()
                    .find(|b| b.run == a)
                    .map(|b| b.desc.clone())
                    .unwrap_or_default(),
                (_, None) => String::new(),
            };
            match (pos, binding(e, &inherited)) {
                (Some(i), Some(b)) => out[i] = b,
                (Some(i), None) => {
                    out.remove(i);
                }
                (None, Some(b)) => out.push(b),
                (None, None) => {}
            }
        }
        out
    };
    Keymap::from_modes(KeyMode::ALL.iter().map(|(m, _)| (*m, merge(*m))).collect())
}

/// The binding of an entry (`None` when it unbinds), with `inherited` as the fallback text.
fn binding(e: &EntrySpec, inherited: &str) -> Option<Binding> {
    let run = e.run.0?;
    let desc = if !e.desc.is_empty() {
        e.desc.clone()
    } else if !inherited.is_empty() {
        inherited.to_owned()
    } else {
        Action::ALL
            .iter()
            .find(|(a, _)| *a == run)
            .map_or_else(String::new, |(_, n)| n.replace('_', " "))
    };
    Some(Binding {
        on: e.on.text.clone(),
        seq: e.on.presses.clone(),
        run,
        desc,
    })
}

#[cfg(test)]
mod tests {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    use super::*;
    use crate::keys::Lookup;

    #[test]
    fn every_default_parses() {
        let spec = default_spec().unwrap();
        let km = Keymap::defaults();
        assert_eq!(km.bindings(KeyMode::Normal).len(), spec.normal.bindings.len());
        assert_eq!(km.bindings(KeyMode::Prompt).len(), spec.prompt.bindings.len());
        for (mode, name) in KeyMode::ALL {
            assert_eq!(km.bindings(mode).len(), spec.mode(mode).len(), "[{name}]");
        }
    }

    #[test]
    fn a_view_scope_is_looked_up_first_then_normal() {
        let o: KeymapSpec = toml::from_str(
            "[detail]\nbindings = [{ on = \"j\", run = \"bottom\", desc = \"last\" }]\n\
             [logs]\nbindings = [{ on = \"g x\", run = \"top\" }]\n",
        )
        .unwrap();
        let km = build(&o);
        let key = |k: &str| KeyPress::parse(k).unwrap();
        // The scope's own binding wins over [normal]'s for the same key.
        assert_eq!(
            km.lookup(KeyMode::Detail, &[], key("j")),
            Lookup::Action(Action::Bottom)
        );
        assert_eq!(
            km.lookup(KeyMode::Normal, &[], key("j")),
            Lookup::Action(Action::Down)
        );
        // What the scope does not bind falls through to [normal].
        assert_eq!(
            km.lookup(KeyMode::Detail, &[], key("k")),
            Lookup::Action(Action::Up)
        );
        // [detail] keys do not leak into [normal], nor into another scope.
        assert_eq!(km.lookup(KeyMode::Normal, &[], key("m")), Lookup::None);
        assert_eq!(km.lookup(KeyMode::Logs, &[], key("m")), Lookup::None);
        assert_eq!(
            km.lookup(KeyMode::Detail, &[], key("m")),
            Lookup::Action(Action::ToggleManaged)
        );
        // Chords of the scope and of [normal] share a prefix.
        let Lookup::Pending(p) = km.lookup(KeyMode::Logs, &[], key("g")) else {
            panic!("g is a prefix in logs")
        };
        assert_eq!(
            km.lookup(KeyMode::Logs, &p, key("x")),
            Lookup::Action(Action::Top)
        );
        assert_eq!(
            km.lookup(KeyMode::Logs, &p, key("g")),
            Lookup::Action(Action::Top)
        );
        // Effective bindings: the scope's first, the shadowed [normal] `j` gone.
        let eff = km.effective(KeyMode::Detail);
        let at = |k: &str| eff.iter().position(|b| b.on == k);
        assert!(at("j") < at(":"), "the scope's keys come before [normal]'s");
        assert_eq!(eff.iter().filter(|b| b.on == "j").count(), 1);
        assert!(km.effective(KeyMode::Prompt).iter().all(|b| b.on != "j"));
    }

    #[test]
    fn chord_and_shift() {
        let km = Keymap::defaults();
        let g = KeyPress::parse("g").unwrap();
        let Lookup::Pending(p) = km.lookup(KeyMode::Normal, &[], g) else {
            panic!("g is a prefix")
        };
        assert_eq!(km.lookup(KeyMode::Normal, &p, g), Lookup::Action(Action::Top));
        let shift_n = KeyPress::from_event(KeyEvent::new(KeyCode::Char('n'), KeyModifiers::SHIFT));
        assert_eq!(
            km.lookup(KeyMode::Normal, &[], shift_n),
            Lookup::Action(Action::SortName)
        );
        let ctrl_c = KeyPress::from_event(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
        assert_eq!(
            km.lookup(KeyMode::Normal, &[], ctrl_c),
            Lookup::Action(Action::Quit)
        );
        assert_eq!(
            km.lookup(KeyMode::Normal, &[], KeyPress::parse("alt-z").unwrap()),
            Lookup::None
        );
    }

    #[test]
    fn embedded_defaults_parse_and_name_real_actions() {
        let spec = default_spec().expect("assets/keymap.toml parses");
        assert!(spec.normal.bindings.len() > 20);
        assert!(spec
            .mode(KeyMode::Normal)
            .iter()
            .chain(spec.mode(KeyMode::Prompt))
            .chain(spec.mode(KeyMode::Detail))
            .chain(spec.mode(KeyMode::Logs))
            .all(|e| e.run.0.is_some()));
    }

    #[test]
    fn overrides_replace_unbind_and_append() {
        let o: KeymapSpec = toml::from_str(
            "[normal]\nbindings = [\n { on = \"j\", run = \"up\" },\n { on = \"k\", run = \"none\" },\n \
             { on = \"q\", run = \"quit\" },\n { on = \"shift-g\", run = \"bottom\", desc = \"last\" },\n]\n",
        )
        .unwrap();
        let km = build(&o);
        let normal = km.bindings(KeyMode::Normal);
        let j = normal.iter().find(|b| b.on == "j").unwrap();
        assert_eq!((j.run, j.desc.as_str()), (Action::Up, "up"));
        assert!(!normal.iter().any(|b| b.on == "k"));
        let q = normal.iter().find(|b| b.on == "q").unwrap();
        assert_eq!((q.run, q.desc.as_str()), (Action::Quit, "quit"));
        assert!(normal.iter().any(|b| b.on == "shift-g" && b.desc == "last"));
        assert!(!normal.iter().any(|b| b.on == "G"), "shift-g replaces G");
    }

    #[test]
    fn unknown_action_and_key_are_errors() {
        let e = toml::from_str::<KeymapSpec>("[normal]\nbindings = [{ on = \"x\", run = \"fly\" }]\n")
            .unwrap_err();
        assert!(e.message().contains("unknown action \"fly\""), "{e}");
        let e = toml::from_str::<KeymapSpec>("[normal]\nbindings = [{ on = \"hyper-x\", run = \"up\" }]\n")
            .unwrap_err();
        assert!(e.message().contains("unknown key"), "{e}");
    }
}
