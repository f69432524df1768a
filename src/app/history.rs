//! History of an object (`h`, `b`) and a workload's revisions (`u`): the state
//! ([`model`]), its text ([`text`]), its keys ([`keys`]), rollbacks ([`rollback`]) and the
//! revisions view ([`revisions`]). Must not perform I/O nor draw.

pub mod keys;
pub mod model;
pub mod revisions;
pub mod rollback;
pub mod text;
