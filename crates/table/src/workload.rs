//! Pieces shared by the workload kinds (Deployment, ReplicaSet, StatefulSet, DaemonSet, Job,
//! CronJob): the slim pod template and the wide CONTAINERS / IMAGES cells. Must not hold any
//! kind-specific column logic.

use serde::Deserialize;

use ktui_kube::row::{Cell, Drill};

use super::labels::LabelSelector;
use super::meta::{pairs, text};

/// A slim `spec.template` (PodTemplateSpec).
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct PodTemplate {
    /// `spec.template.spec`.
    pub spec: TemplateSpec,
}

/// A slim template pod spec.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct TemplateSpec {
    /// `containers` (app containers only; init containers are never shown).
    pub containers: Vec<ContainerRef>,
    /// `nodeSelector` (DaemonSet NODE SELECTOR).
    #[serde(deserialize_with = "pairs")]
    pub node_selector: Vec<(String, String)>,
}

/// Name and image of one template container.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct ContainerRef {
    /// `name`.
    pub name: String,
    /// `image`.
    pub image: String,
}

impl PodTemplate {
    /// Wide CONTAINERS and IMAGES: names / images in spec order joined by `,`.
    pub fn containers_images(&self) -> [Cell; 2] {
        let join = |f: fn(&ContainerRef) -> &str| {
            text(&self.spec.containers.iter().map(f).collect::<Vec<_>>().join(","))
        };
        [join(|c| &c.name), join(|c| &c.image)]
    }
}

/// `enter` on a workload: its pods, by `spec.selector`; `None` when the selector is missing,
/// empty or invalid (it would match everything or nothing).
pub fn selector_drill(sel: Option<&LabelSelector>) -> Option<Drill> {
    let q = sel?.to_query().ok()?;
    (!q.is_empty()).then(|| Drill::Selector(q.into_boxed_str()))
}
