//! The screen tier, one test binary: the real draw code on ratatui's TestBackend at fixed
//! sizes and a fixed clock, with the theme set explicitly (`screen::ui_state`), so `NO_COLOR`
//! or `TERM` in the environment cannot change a result. Text snapshots (insta) live in
//! `snapshots/` next to this file, named `screens__<module>__<name>.snap`; cells whose colour
//! carries meaning are asserted directly.
//!
//! Run with `cargo test --test screens [module::]`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test and measuring code may panic

#[path = "../support/screen.rs"]
mod screen;

mod containers_screens;
mod containers_usage_screens;
mod crd_screens;
mod detail_screens;
mod fit_screens;
mod footer_screens;
mod help_screens;
mod history_screens;
mod narrow_screens;
mod own_views_screens;
mod plugin_screens;
mod pulse_screens;
mod screens;
mod text_screens;
mod timeline_screen;
mod usage_screens;
mod xray_screens;
