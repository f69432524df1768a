//! ktui — a terminal UI for exploring Kubernetes clusters.
//!
//! Data flow: a background informer pool (`kube::pool`, one list-watch task per
//! [`kube::key::ResourceKey`], started lazily when a view subscribes and stopped after a grace
//! period without subscribers) decodes each object into a slim type and at once into a compact
//! [`kube::row::Row`]; the informer's writer applies list/watch events and publishes immutable
//! `Arc<Snapshot>`s through an atomic swap (`kube::store`), coalesced, with one payload-free
//! notification per key. The render loop (`app`) awaits one event, drains the rest, runs a pure
//! update, and draws (`ui`) only when something changed, reading snapshots without ever taking
//! a lock the writer holds or waiting on the network.

pub mod app;
pub mod cli;
pub mod config;
pub mod import_k9s;
pub use ktui_detail as detail;
pub mod keys;
pub use ktui_kube as kube;
pub mod logging;
pub mod runtime;
pub use ktui_sim as sim;
pub mod subcommands;
pub use ktui_table as table;
pub mod terminal;
pub use ktui_kube::text;
pub mod ui;
pub use ktui_view as view;
