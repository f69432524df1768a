//! Port-forwards as objects owned by the session, not the UI: a [`PortForwards`] manager
//! holds each forward's listener task, state in words and counters; every accepted local
//! connection gets its own websocket `pods/NAME/portforward` stream through the API server
//! (kube's `ws` support). Owns binding, pod choice and byte pumping; must not import the UI.
//!
//! A forward to a service or workload follows its selector's pods through ktui's informer
//! pool (list + watch): when its pod goes away, idle or not, the state says `reconnecting:
//! pod replaced` until a ready pod is there, then `active` with that pod. A forward to a
//! pod that goes away is `broken: pod deleted`. A local port already taken fails
//! [`PortForwards::start`] (never listed as active).

mod follow;
mod forward;
mod target;

pub use forward::{ForwardInfo, ForwardState, PortForwards};
pub use target::{ports_of, ForwardTarget, ResolvedTarget};

/// The access a forward needs, as a SelfSubjectAccessReview asks it (verb, resource,
/// subresource): one place for the RBAC gate to read.
pub const NEEDS: (&str, &str, &str) = ("create", "pods", "portforward");

/// What to forward.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForwardSpec {
    /// The kubeconfig context whose cluster holds the target, inside a union of contexts
    /// (`None`: the context in use); the loop starts it in that cluster's forward table, and
    /// `:pf` names it (`svc/web:80 @prod-eu`).
    pub context: Option<String>,
    /// `metadata.namespace` of the target.
    pub namespace: String,
    /// The pod, service or workload.
    pub target: ForwardTarget,
    /// The port on the target: a container port for a pod or workload, a service port
    /// (`spec.ports[].port`, mapped to its `targetPort`) for a service.
    pub port: u16,
    /// The local address to listen on; port 0 takes any free port.
    pub local: std::net::SocketAddr,
}
