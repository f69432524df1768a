//! The state of port-forwards in the UI: an offer of ports (`shift-f`, [`Offer`]). Plain
//! data; must not import `UiState` nor any transition, perform I/O or draw.

use crate::kube::portforward::ForwardTarget;

/// `shift-f` asked for the ports of this target (`Effect::OfferForward`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offer {
    /// Inside a union: the context of the row's cluster (`None`: the one in use).
    pub context: Option<String>,
    /// The target's namespace.
    pub namespace: String,
    /// The target.
    pub target: ForwardTarget,
}
