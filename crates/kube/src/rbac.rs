//! Who may do what, from the cluster's RBAC objects: `kubectl who-can` (the subjects a verb on
//! a resource is granted to) and its reverse (what one subject may do), evaluated the way
//! kube-apiserver's RBAC authorizer does. Owns the rule matching, ClusterRole aggregation and
//! the one-shot fetch of Roles, ClusterRoles and their bindings; must not cache, draw, or
//! ask the server anything but those four lists.

pub mod aggregate;
pub mod eval;
pub mod fetch;
pub mod model;
pub mod reverse;

pub use eval::who_can;
pub use fetch::fetch;
pub use model::{Ask, BindingRef, Grant, Policy, RoleRefName, Subject, SubjectKind};
pub use reverse::{may_do, Allowed};
