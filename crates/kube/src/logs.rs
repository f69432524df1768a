//! Container logs: the ring buffer of a log view ([`buffer`]), bytes → lines ([`lines`]),
//! the resume point of a stream ([`cursor`]), what a pod's containers are ([`pods`]), one
//! container's stream task ([`stream`]) and the task behind a whole view ([`follow`]), which
//! write into the view's shared [`hub`]. Must never import the UI.

pub mod buffer;
pub mod cursor;
pub mod follow;
pub mod hub;
pub mod lines;
pub mod pods;
pub mod stream;

pub use buffer::{LogBuffer, LogLine};
pub use follow::{start, ContainerPick, LogFeed, LogLimits, LogTarget, PodPick};
pub use hub::{HubState, LogHub, SourceInfo, SourceState};
pub use stream::StreamPlan;
