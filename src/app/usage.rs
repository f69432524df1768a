//! Resource usage (issue 33): CPU and memory from `metrics.k8s.io` joined with the rows'
//! requests, limits and allocatable. Owns what a pods, containers or nodes view reads of its
//! metrics poll and how usage figures are computed from it; must not poll, subscribe or draw
//! (the loop subscribes; the drawing layer reads these figures).

pub mod compute;
pub mod containers;
pub mod keys;
pub mod model;
