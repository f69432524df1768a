//! The end-to-end tier, one test binary: the real `ktui` binary in a pseudo-terminal, keys
//! in, screen text out. Tests against the embedded demo cluster or no cluster at all run in
//! a plain `cargo test`; tests against the real test cluster are `#[ignore = "real tier"]`
//! and run under `bash tests/run.sh` (which passes `--include-ignored` and starts the
//! cluster).
//!
//! Run with `bash tests/run.sh --test e2e [module::]`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test and measuring code may panic

#[path = "../support/kubectl_bin.rs"]
mod kubectl_bin;
#[path = "../support/pty.rs"]
mod pty;
#[path = "../support/mod.rs"]
mod support;
#[path = "../support/usage_screen.rs"]
mod usage_screen;
#[path = "../support/e2e_util.rs"]
mod util;

mod e2e;
mod e2e_access;
mod e2e_actions;
mod e2e_can_real;
mod e2e_command;
mod e2e_contexts;
mod e2e_crds;
mod e2e_demo;
mod e2e_demo_access;
mod e2e_demo_actions;
mod e2e_demo_edit;
mod e2e_demo_streams;
mod e2e_exec;
mod e2e_forwards;
mod e2e_handover;
mod e2e_history;
mod e2e_history_real;
mod e2e_logs;
mod e2e_nav;
mod e2e_not_connected;
mod e2e_owner;
mod e2e_plugins;
mod e2e_pulse;
mod e2e_session;
mod e2e_shell;
mod e2e_stale;
mod e2e_startup;
mod e2e_terms;
mod e2e_timeline;
mod e2e_trust;
mod e2e_union;
mod e2e_union_real;
mod e2e_usage;
mod e2e_xray;
mod e2e_yaml;
mod union_support;
