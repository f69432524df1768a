//! The real tier, one test binary: checks against a real etcd + kube-apiserver on loopback
//! (tests/cluster/), started by `bash tests/run.sh`. A new real-tier file is one more module
//! here (with `use crate::support;` instead of its own `mod support;`).
//!
//! Run with `bash tests/run.sh --test real [module::]`.

#[path = "../support/mod.rs"]
mod support;

mod golden_columns;
mod real_cluster;
