//! Keys and the actions they run, as data shared by the configuration (which parses keymaps
//! into them) and the app (which dispatches them), so that neither imports the other. Owns
//! the `Action` vocabulary and key matching; must not read configuration, draw, nor perform
//! actions.

mod action;
mod keymap;

pub use action::Action;
/// The parts of a [`KeyPress`], so that code reading keys names no terminal crate.
pub use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
pub use keymap::{Binding, KeyMode, KeyPress, Keymap, Lookup};
