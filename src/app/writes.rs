//! Writes and what guards them: the actions on objects ([`actions`]), the confirmation
//! dialog ([`dialog`]), `e` edit ([`edit`]), the RBAC gate ([`access`]), marks ([`marks`])
//! and the drain overlay ([`drain`]). Must not perform I/O: every write is an `Effect` the
//! runtime runs.

pub mod access;
pub mod actions;
pub mod dialog;
pub mod drain;
pub mod edit;
pub mod marks;
pub mod model;

#[cfg(test)]
mod tests;
