//! The application's state and its pure transitions, one folder per feature: `update` (the
//! dispatcher) turns an [`Action`](crate::keys::Action) into changes of [`state::UiState`]
//! and [`effect::Effect`]s, values that `crate::runtime` executes. Owns what the screen
//! shows and how keys change it; must not perform I/O, draw, or name the terminal
//! (`crate::ui`, `crate::runtime`, `crate::cli`, ratatui and crossterm are never imported
//! here; `tests/scenarios/architecture.rs` checks it).

pub mod applies;
pub mod can;
pub mod command;
pub mod command_args;
pub mod configure;
pub mod containers;
pub mod context;
pub mod detail;
pub mod discovered;
pub mod effect;
pub mod feed;
pub mod files;
pub mod fleet;
pub mod forwards;
pub mod handover;
pub mod help;
pub mod history;
pub mod input;
pub mod list;
pub mod logs;
pub mod nav;
pub mod outcome;
pub mod plugins;
pub mod prompt;
pub mod pulse;
pub mod refresh_top;
pub mod scroll;
pub mod session;
pub mod state;
pub mod update;
pub mod usage;
pub mod writes;
pub mod xray;
