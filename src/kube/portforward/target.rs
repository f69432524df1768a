//! What a forward points at and how it finds the pod to connect to: a pod by name, or a
//! ready pod of a service's or workload's selector (a LIST by label selector each time a pod
//! must be chosen). Owns that choice; must not pump bytes.

use k8s_openapi::api::core::v1::{Pod, Service};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kube::api::{Api, ListParams};

use crate::kube::sanitize::sanitize;

/// The object a forward targets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ForwardTarget {
    /// This pod (`pod/NAME`): when it goes away the forward breaks.
    Pod(String),
    /// A service (`svc/NAME`): its selector's ready pods, the port mapped by `spec.ports`.
    Service(String),
    /// A workload (`deploy/NAME`, …) by the label selector of its pods.
    Selector {
        /// `deploy/web`, for the list.
        label: String,
        /// `app=web,tier=front`.
        selector: String,
    },
}

impl ForwardTarget {
    /// `pod/web-1`, `svc/web`, `deploy/web`.
    pub fn words(&self) -> String {
        match self {
            ForwardTarget::Pod(p) => format!("pod/{}", sanitize(p)),
            ForwardTarget::Service(s) => format!("svc/{}", sanitize(s)),
            ForwardTarget::Selector { label, .. } => sanitize(label).into_owned(),
        }
    }
}

/// A target as resolved once at start: where pods come from and which port they serve on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedTarget {
    /// A pod name, or a label selector to list ready pods by.
    pub pods: PodSource,
    /// The port on the pod: a number, or a container port name (a service's named
    /// `targetPort`) looked up in the chosen pod.
    pub port: PortRef,
}

/// Where the pods of a forward come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PodSource {
    /// One pod.
    Named(String),
    /// Ready pods of this label selector.
    Selector(String),
}

/// A pod port.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PortRef {
    /// `containerPort`.
    Number(u16),
    /// `ports[].name` of a container.
    Named(String),
}

/// Resolves `target` in `ns` for `port`; errors in words (service not found, no such port,
/// a service without a selector).
pub async fn resolve(
    client: &kube::Client,
    ns: &str,
    target: &ForwardTarget,
    port: u16,
) -> Result<ResolvedTarget, String> {
    Ok(match target {
        ForwardTarget::Pod(name) => ResolvedTarget {
            pods: PodSource::Named(name.clone()),
            port: PortRef::Number(port),
        },
        ForwardTarget::Selector { selector, .. } => ResolvedTarget {
            pods: PodSource::Selector(selector.clone()),
            port: PortRef::Number(port),
        },
        ForwardTarget::Service(name) => {
            let api: Api<Service> = Api::namespaced(client.clone(), ns);
            let svc = api.get(name).await.map_err(|e| words(&e))?;
            let spec = svc.spec.unwrap_or_default();
            let selector = spec
                .selector
                .filter(|s| !s.is_empty())
                .ok_or_else(|| format!("service {} has no selector", sanitize(name)))?;
            let selector = selector
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(",");
            let p = spec
                .ports
                .unwrap_or_default()
                .into_iter()
                .find(|p| p.port == i32::from(port))
                .ok_or_else(|| format!("service {} has no port {port}", sanitize(name)))?;
            let port = match p.target_port {
                None => PortRef::Number(port),
                Some(IntOrString::Int(n)) => PortRef::Number(u16::try_from(n).map_err(|_| "bad targetPort")?),
                Some(IntOrString::String(s)) => match s.parse::<u16>() {
                    Ok(n) => PortRef::Number(n),
                    Err(_) => PortRef::Named(s),
                },
            };
            ResolvedTarget {
                pods: PodSource::Selector(selector),
                port,
            }
        }
    })
}

/// Picks the pod to connect to and its port number: the named pod, or the newest ready,
/// non-terminating pod of the selector. Errors in words (`no ready pod for app=web`).
pub async fn pick(client: &kube::Client, ns: &str, r: &ResolvedTarget) -> Result<(String, u16), String> {
    let api: Api<Pod> = Api::namespaced(client.clone(), ns);
    let pod = match &r.pods {
        PodSource::Named(name) => api.get(name).await.map_err(|e| words(&e))?,
        PodSource::Selector(sel) => {
            let list = api
                .list(&ListParams::default().labels(sel))
                .await
                .map_err(|e| words(&e))?;
            let mut ready: Vec<Pod> = list.items.into_iter().filter(is_ready).collect();
            ready.sort_by(|a, b| b.metadata.creation_timestamp.cmp(&a.metadata.creation_timestamp));
            ready
                .into_iter()
                .next()
                .ok_or_else(|| format!("no ready pod for {}", sanitize(sel)))?
        }
    };
    let name = pod.metadata.name.clone().unwrap_or_default();
    let port = match &r.port {
        PortRef::Number(n) => *n,
        PortRef::Named(pname) => pod
            .spec
            .iter()
            .flat_map(|s| s.containers.iter())
            .flat_map(|c| c.ports.iter().flatten())
            .find(|p| p.name.as_deref() == Some(pname.as_str()))
            .and_then(|p| u16::try_from(p.container_port).ok())
            .ok_or_else(|| format!("pod {} has no port named {}", sanitize(&name), sanitize(pname)))?,
    };
    Ok((name, port))
}

/// Running, `Ready` condition true, not being deleted.
fn is_ready(p: &Pod) -> bool {
    p.metadata.deletion_timestamp.is_none()
        && p.status.as_ref().is_some_and(|s| {
            s.phase.as_deref() == Some("Running")
                && s.conditions
                    .iter()
                    .flatten()
                    .any(|c| c.type_ == "Ready" && c.status == "True")
        })
}

/// A kube error in words.
pub(super) fn words(e: &kube::Error) -> String {
    match e {
        kube::Error::Api(s) => sanitize(&s.message).into_owned(),
        other => sanitize(&other.to_string()).into_owned(),
    }
}

/// The ports `shift-f` offers for `target`: a pod's container ports (spec order), a
/// service's `spec.ports[].port`, a workload's first pod's container ports.
pub async fn ports_of(client: &kube::Client, ns: &str, target: &ForwardTarget) -> Result<Vec<u16>, String> {
    let pods: Api<Pod> = Api::namespaced(client.clone(), ns);
    let container_ports = |p: &Pod| -> Vec<u16> {
        p.spec
            .iter()
            .flat_map(|s| s.containers.iter())
            .flat_map(|c| c.ports.iter().flatten())
            .filter_map(|p| u16::try_from(p.container_port).ok())
            .collect()
    };
    match target {
        ForwardTarget::Pod(name) => Ok(container_ports(&pods.get(name).await.map_err(|e| words(&e))?)),
        ForwardTarget::Service(name) => {
            let api: Api<Service> = Api::namespaced(client.clone(), ns);
            let svc = api.get(name).await.map_err(|e| words(&e))?;
            Ok(svc
                .spec
                .and_then(|s| s.ports)
                .unwrap_or_default()
                .iter()
                .filter_map(|p| u16::try_from(p.port).ok())
                .collect())
        }
        ForwardTarget::Selector { selector, .. } => {
            let list = pods
                .list(&ListParams::default().labels(selector).limit(1))
                .await
                .map_err(|e| words(&e))?;
            Ok(list.items.first().map(container_ports).unwrap_or_default())
        }
    }
}
