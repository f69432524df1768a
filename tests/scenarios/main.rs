//! The scenarios tier, one test binary (like bottom's `tests/integration/main.rs`): the
//! informer and pool against a scripted API server under paused tokio time, the event
//! timeline's rules, the demo API server's conformance and convergence, the configuration as
//! a user meets it, and the layering rule. Needs no cluster (the kubectl conformance tests in
//! `demo_server` use the test cluster's kubectl binary when it is built).
//!
//! Run with `cargo test --test scenarios [module::]`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test and measuring code may panic

#[path = "../support/convergence.rs"]
mod convergence;
#[path = "../support/kubectl_bin.rs"]
mod kubectl_bin;
#[path = "../support/scripted_api.rs"]
mod scripted_api;

mod app_layers;
mod architecture;
mod config;
mod demo_convergence;
mod demo_restore;
mod demo_server;
mod demo_streams;
mod encoding_fallback;
mod exec_auth;
mod fault_suite;
mod informer_drift;
mod informer_faults;
mod informer_scenarios;
mod metrics_demo;
mod metrics_pool;
mod pool_scenarios;
mod printed_rows;
mod streaming_demo;
mod streaming_scripted;
mod timeline;
mod user_agent;
