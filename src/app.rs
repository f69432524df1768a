//! The application: the event loop and the only place where terminal, informer pool, state
//! and drawing are wired together.

pub mod access;
pub mod actions;
pub mod applies;
pub mod cells;
pub mod clipboard;
pub mod command;
pub mod configure;
pub mod connect;
pub mod containers;
pub mod describe_events;
pub mod dialog;
pub mod discovered;
pub mod drain_view;
pub mod edit;
pub mod effect;
pub mod feed;
pub mod forwards;
pub mod handover;
pub mod history;
pub mod history_keys;
pub mod input;
pub mod list;
pub mod logs;
pub mod logs_keys;
pub mod logs_save;
pub mod logs_update;
pub mod marks;
pub mod owner;
pub mod prompt_edit;
pub mod prompt_history;
pub mod quit;
pub mod refresh_top;
pub mod run;
pub mod save;
pub mod session;
pub mod session_run;
pub mod stack;
pub mod state;
pub mod tasks;
pub mod update;
pub mod write_exec;
pub mod yaml;
pub mod yaml_update;

pub use run::run;
