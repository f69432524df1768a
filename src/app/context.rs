//! Contexts and the connection: what connecting and switching contexts do to the state
//! ([`connect`]). Must not perform I/O (the runtime builds clients).

pub mod connect;
