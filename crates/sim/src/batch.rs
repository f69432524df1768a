//! Gizmo phase changes of the default scenario (what a custom controller would do to its
//! resources' status). Jobs, cronjobs and workload status are the controllers' (`control`).
//! Writes only through the store's API.

use rand::Rng;

use super::kinds::id;
use super::scenario::World;

impl World {
    pub(crate) fn flip_gizmo(&mut self) {
        let phases = ["Pending", "Ready", "Degraded"];
        let phase = phases[self.rng.random_range(0..phases.len())];
        let name = ["sprocket", "widget", "doohickey"][self.rng.random_range(0..3)];
        let _ = self.store.modify(id::GIZMO, "demo", name, |v| {
            v["status"]["phase"] = serde_json::json!(phase)
        });
    }
}
