//! The application: the event loop and the only place where terminal, informer pool, state
//! and drawing are wired together.

pub mod action;
pub mod command;
pub mod configure;
pub mod describe;
pub mod describe_events;
pub mod discovered;
pub mod input;
pub mod keymap;
pub mod list;
pub mod owner;
pub mod prepare;
pub mod run;
pub mod save;
pub mod state;
pub mod tasks;
pub mod update;
pub mod yaml;
pub mod yaml_quote;
pub mod yaml_update;

pub use run::run;
