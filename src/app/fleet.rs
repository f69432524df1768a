//! Every cluster at once: a union of kubeconfig contexts ([`model::Fleet`]) whose lists show
//! the rows of all of them with a CONTEXT column ([`union`]: one informer per member, merged
//! per frame), views opened from a row pinned to that row's cluster, and the rule of which
//! keys work inside a union ([`keys`]). Owns those transitions; must not perform I/O (the
//! loop connects each member and routes every effect to the view's cluster).

pub mod keys;
pub mod model;
pub mod open;
pub mod union;
pub mod writes;

#[cfg(test)]
mod tests;
