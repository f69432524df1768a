//! What a forward points at, resolved once: a pod by name, or a service's or workload's
//! label selector (its pods are followed by `follow`), and the port on the pod. Owns that
//! resolution and the reading of a pod's ports; must not pump bytes.

use k8s_openapi::api::core::v1::{Pod, Service};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kube::api::{Api, ListParams};

use crate::sanitize::sanitize;

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

/// Reads the named pod `name` (one GET) and its port number for `port`. Errors in words
/// (`pods "x" not found`).
pub async fn get_named(
    client: &kube::Client,
    ns: &str,
    name: &str,
    port: &PortRef,
) -> Result<(String, u16), String> {
    let api: Api<Pod> = Api::namespaced(client.clone(), ns);
    let pod = api.get(name).await.map_err(|e| words(&e))?;
    Ok((name.to_owned(), port_in(&pod, port)?))
}

/// The number of the container port named `port` in pod `name` (one GET).
pub async fn pod_port_by_name(
    client: &kube::Client,
    ns: &str,
    name: &str,
    port: &str,
) -> Result<u16, String> {
    get_named(client, ns, name, &PortRef::Named(port.to_owned()))
        .await
        .map(|(_, p)| p)
}

/// `port` on `pod`: a number as is, a name looked up in its containers' `ports[]`.
fn port_in(pod: &Pod, port: &PortRef) -> Result<u16, String> {
    match port {
        PortRef::Number(n) => Ok(*n),
        PortRef::Named(pname) => pod
            .spec
            .iter()
            .flat_map(|s| s.containers.iter())
            .flat_map(|c| c.ports.iter().flatten())
            .find(|p| p.name.as_deref() == Some(pname.as_str()))
            .and_then(|p| u16::try_from(p.container_port).ok())
            .ok_or_else(|| {
                let name = pod.metadata.name.as_deref().unwrap_or_default();
                format!("pod {} has no port named {}", sanitize(name), sanitize(pname))
            }),
    }
}

/// A kube error in words.
pub(super) fn words(e: &kube::Error) -> String {
    match e {
        kube::Error::Api(s) => sanitize(&s.message).into_owned(),
        other => crate::failure::words(other),
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
