//! Everything that talks to the Kubernetes API: kinds, client, informers, the snapshot store.
//! Must never import the UI (`ratatui`, `crossterm`, `ktui::ui`, `ktui::app`).

pub mod backoff;
pub mod builtin;
pub mod capacity;
pub mod client;
pub mod discovery;
pub mod discovery_watch;
pub mod exec;
pub mod exec_auth;
pub mod exec_plugin;
pub mod failure;
pub mod history;
pub mod informer;
pub mod intern;
pub mod key;
pub mod kind;
pub mod logs;
pub mod metrics;
pub mod object;
pub mod pool;
pub mod portforward;
pub mod protobuf;
pub mod rbac;
pub mod registry;
pub mod row;
pub mod rows;
pub mod sanitize;
pub mod sink;
pub mod stats;
pub mod store;
pub mod sync;
pub mod text;
pub mod timeline;
pub mod uses;
pub mod write;
