//! The list feature: a resource list's state ([`model`]), its memoised rows ([`cache`]), its
//! column keys ([`cells`]), event-timeline tail mode ([`tail`]) and `shift-j` to the owner
//! ([`owner`]). Must not perform I/O nor draw.

pub mod cache;
pub mod cells;
pub mod model;
pub mod owner;
pub mod tail;

#[cfg(test)]
mod tests;
