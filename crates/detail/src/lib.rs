//! What a detail view shows of one object: the `kubectl describe`-like text (`describe`,
//! ending with the object's events, `events`) and the YAML lines (`yaml`). Pure: the object
//! as JSON (and its events snapshot) in, sanitized lines out, ages against a `now` the caller
//! passes. Must not do I/O, read the clock, nor know the terminal; the state of a detail view
//! (scroll, search, the watch) lives in `app`.

pub mod blame;
pub mod describe;
pub mod diff;
pub mod events;
pub mod yaml;
