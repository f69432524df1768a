//! The real tier, one test binary: checks against a real etcd + kube-apiserver on loopback
//! (tests/cluster/). Every test is `#[ignore = "real tier"]`: a plain `cargo test` lists them
//! as ignored, never as passed; `bash tests/run.sh` starts the cluster and runs them with
//! `--include-ignored`. A new real-tier file is one more module here (with `use
//! crate::support;` instead of its own `mod support;`).
//!
//! Run with `bash tests/run.sh --test real [module::]`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test and measuring code may panic

#[path = "../support/convergence.rs"]
mod convergence;
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

mod debug_container;
mod demo_kubectl;
mod fault_cycles;
mod fault_proxy;
mod fault_world;
mod golden_columns;
mod hollow_kubelet;
mod metrics_aggregation;
mod metrics_backend;
mod metrics_screen;
mod metrics_top;
mod port_forward;
mod real_cluster;
mod streaming_lists;
mod user_agent;
mod who_can;
