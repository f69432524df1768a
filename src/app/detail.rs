//! The detail views of one object: the live YAML, describe and the blame view
//! ([`model`]), their keys ([`keys`]), what `ctrl-s` saves ([`save`]) and the events a
//! describe view shows. Must not perform I/O nor draw.

pub mod keys;
pub mod model;
pub mod save;
