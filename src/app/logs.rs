//! The log views (`l`): their state ([`model`]), what they open with ([`settings`]), which
//! actions apply ([`applies`]), their keys and how they open ([`update`]) and `ctrl-s`
//! ([`save`]). Must not perform I/O (the runtime streams and writes files) nor draw.

pub mod applies;
pub mod model;
pub mod save;
pub mod settings;
pub mod update;

#[cfg(test)]
mod tests;
