//! The application: the event loop and the only place where terminal, informer pool, state
//! and drawing are wired together.

pub mod applies;
pub mod command;
pub mod configure;
pub mod connect;
pub mod containers;
pub mod describe_events;
pub mod discovered;
pub mod effect;
pub mod feed;
pub mod forwards;
pub mod handover;
pub mod input;
pub mod list;
pub mod logs;
pub mod logs_keys;
pub mod logs_save;
pub mod logs_update;
pub mod owner;
pub mod refresh_top;
pub mod run;
pub mod save;
pub mod session;
pub mod session_run;
pub mod stack;
pub mod state;
pub mod tasks;
pub mod update;
pub mod yaml;
pub mod yaml_update;

pub use run::run;
