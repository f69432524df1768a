//! The loop: the only module that wires the terminal, the informer pool, the app's state
//! transitions (`crate::app`) and the drawing (`crate::ui`) together. It awaits events, runs
//! `update`, executes the [`Effect`](crate::app::effect::Effect)s it returns (subscriptions,
//! writes, sessions, files, the clipboard, handing the terminal over) and draws. Owns every
//! side effect of the UI; must not decide what a key means (that is `crate::app`'s).

pub mod clipboard;
pub mod effects;
pub mod events;
pub mod files;
pub mod fleet;
pub mod handover;
pub mod plugins;
pub mod quit;
pub mod run;
pub mod session;
pub mod start;
pub mod tasks;
pub mod writes;

pub use run::run;
