//! Debug containers, as `kubectl debug -it POD --image=IMAGE --target=CONTAINER` makes them:
//! an ephemeral container named `debugger-xxxxx` (kubectl's five random characters), with
//! stdin and a tty, targeting the container's process namespace, added by a strategic merge
//! patch of the pod's `ephemeralcontainers` subresource; then a watch on that one pod (by
//! `metadata.name` field selector) until the container runs, so it can be attached to. Owns
//! the request body, the name and the wait; must not touch the terminal nor import the UI.

use futures::{StreamExt, TryStreamExt};
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, Patch, PatchParams, WatchEvent, WatchParams};
use serde_json::{json, Value};

use super::shell::api_words;
use super::ExecTarget;
use crate::sanitize::sanitize;

/// The image the debug prompt offers first (the user may type any).
pub const DEFAULT_IMAGE: &str = "busybox:1.36";

/// How long the debug container may take to start (an image pull included).
pub const START_WITHIN: std::time::Duration = std::time::Duration::from_secs(120);

/// The characters of kubectl's random name suffixes (`k8s.io/apimachinery`'s `rand.String`:
/// no vowels, no confusable digits).
const ALPHANUMS: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

/// `debugger-` and five random characters, not one of `taken` (the pod's ephemeral
/// containers). `pick(n)` returns a number below `n` (the caller's randomness).
pub fn debugger_name(taken: &[String], mut pick: impl FnMut(usize) -> usize) -> String {
    loop {
        let suffix: String = (0..5)
            .map(|_| char::from(ALPHANUMS[pick(ALPHANUMS.len()) % ALPHANUMS.len()]))
            .collect();
        let name = format!("debugger-{suffix}");
        if !taken.contains(&name) {
            return name;
        }
    }
}

/// The strategic merge patch for `pods/NAME/ephemeralcontainers` that adds the debug
/// container `name` running `image` with stdin and a tty, in the process namespace of
/// `target` (`targetContainerName`) — the fields `kubectl debug -it --target` sets.
pub fn patch_body(name: &str, image: &str, target: &str) -> Value {
    json!({"spec": {"ephemeralContainers": [{
        "name": name,
        "image": image,
        "imagePullPolicy": "IfNotPresent",
        "stdin": true,
        "tty": true,
        "targetContainerName": target,
        "terminationMessagePolicy": "File",
    }]}})
}

/// Where a debug container is, from `status.ephemeralContainerStatuses`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DebugState {
    /// Not reported yet, or waiting to start (`ContainerCreating`, pulling).
    Starting,
    /// Running: it can be attached to.
    Running,
    /// It cannot start (`ErrImagePull`, `ImagePullBackOff`, `InvalidImageName`, …) or it
    /// ended; the reason and message in words.
    Failed(String),
}

/// Waiting reasons that will not resolve by themselves soon.
const HOPELESS: &[&str] = &[
    "ErrImagePull",
    "ImagePullBackOff",
    "InvalidImageName",
    "ErrImageNeverPull",
    "CreateContainerConfigError",
    "CreateContainerError",
    "RunContainerError",
];

/// The state of ephemeral container `name` in `pod`.
pub fn debug_state(pod: &Pod, name: &str) -> DebugState {
    let Some(st) = pod
        .status
        .as_ref()
        .and_then(|s| s.ephemeral_container_statuses.as_ref())
        .and_then(|all| all.iter().find(|c| c.name == name))
    else {
        return DebugState::Starting;
    };
    let Some(state) = &st.state else {
        return DebugState::Starting;
    };
    if state.running.is_some() {
        return DebugState::Running;
    }
    if let Some(t) = &state.terminated {
        let why = t
            .reason
            .clone()
            .unwrap_or_else(|| format!("exit code {}", t.exit_code));
        return DebugState::Failed(format!("it terminated: {}", sanitize(&why)));
    }
    match state.waiting.as_ref().and_then(|w| w.reason.as_deref()) {
        Some(r) if HOPELESS.contains(&r) => {
            let msg = state
                .waiting
                .as_ref()
                .and_then(|w| w.message.as_deref())
                .unwrap_or("");
            DebugState::Failed(sanitize(format!("{r}: {msg}").trim_end_matches([' ', ':'])).into_owned())
        }
        _ => DebugState::Starting,
    }
}

/// Adds a debug container running `image` to the pod, targeting `target_container`, and
/// waits (a watch of that pod) until it runs; returns its name. Errors are in words: the
/// API's message, `ephemeral containers are not available on this cluster` for a 404 of the
/// subresource, the container's waiting reason, or the time it took.
pub async fn start(
    client: &kube::Client,
    t: &ExecTarget,
    target_container: &str,
    image: &str,
) -> Result<String, String> {
    let pods: Api<Pod> = Api::namespaced(client.clone(), &t.namespace);
    let pod = pods.get(&t.pod).await.map_err(|e| api_words(&e))?;
    let taken: Vec<String> = pod
        .spec
        .as_ref()
        .and_then(|s| s.ephemeral_containers.as_ref())
        .map(|e| e.iter().map(|c| c.name.clone()).collect())
        .unwrap_or_default();
    let name = debugger_name(&taken, |n| rand::random_range(0..n));
    let body = patch_body(&name, image, target_container);
    let pp = PatchParams {
        field_manager: Some("ktui".into()),
        ..PatchParams::default()
    };
    let patched = match pods
        .patch_subresource("ephemeralcontainers", &t.pod, &pp, &Patch::Strategic(&body))
        .await
    {
        Ok(p) => p,
        Err(kube::Error::Api(s)) if s.code == 404 && !s.message.contains(&t.pod) => {
            return Err("ephemeral containers are not available on this cluster".into())
        }
        Err(e) => return Err(api_words(&e)),
    };
    if debug_state(&patched, &name) == DebugState::Running {
        return Ok(name);
    }
    let rv = patched
        .metadata
        .resource_version
        .clone()
        .unwrap_or_else(|| "0".into());
    let wp = WatchParams::default().fields(&format!("metadata.name={}", t.pod));
    let wait = async {
        let mut rv = rv;
        loop {
            let mut stream = pods.watch(&wp, &rv).await.map_err(|e| api_words(&e))?.boxed();
            while let Some(ev) = stream.try_next().await.map_err(|e| api_words(&e))? {
                let pod = match ev {
                    WatchEvent::Added(p) | WatchEvent::Modified(p) => p,
                    WatchEvent::Deleted(_) => return Err(format!("pod {} was deleted", sanitize(&t.pod))),
                    WatchEvent::Bookmark(b) => {
                        rv = b.metadata.resource_version;
                        continue;
                    }
                    WatchEvent::Error(e) => return Err(sanitize(&e.message).into_owned()),
                };
                if let Some(v) = &pod.metadata.resource_version {
                    rv.clone_from(v);
                }
                match debug_state(&pod, &name) {
                    DebugState::Running => return Ok(name.clone()),
                    DebugState::Failed(why) => return Err(format!("debug container {name}: {why}")),
                    DebugState::Starting => {}
                }
            }
            // The watch ended cleanly (its timeout): resume from where it was.
        }
    };
    match tokio::time::timeout(START_WITHIN, wait).await {
        Ok(r) => r,
        Err(_) => Err(format!(
            "debug container {name} did not start within {}s",
            START_WITHIN.as_secs()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_patch_adds_one_interactive_container_targeting_the_container() {
        let body = patch_body("debugger-x2bqz", "busybox:1.36", "app");
        assert_eq!(
            body,
            json!({"spec": {"ephemeralContainers": [{
                "name": "debugger-x2bqz", "image": "busybox:1.36", "imagePullPolicy": "IfNotPresent",
                "stdin": true, "tty": true, "targetContainerName": "app",
                "terminationMessagePolicy": "File"}]}})
        );
        // It is a valid EphemeralContainer as the API types read it.
        let c: k8s_openapi::api::core::v1::EphemeralContainer =
            serde_json::from_value(body["spec"]["ephemeralContainers"][0].clone()).unwrap();
        assert_eq!(c.target_container_name.as_deref(), Some("app"));
    }

    #[test]
    fn names_are_kubectls_and_never_taken() {
        let mut seq = [0usize, 1, 2, 3, 4, 0, 1, 2, 3, 5].into_iter();
        let taken = vec!["debugger-bcdfg".to_owned()];
        let name = debugger_name(&taken, |_| seq.next().unwrap_or(0));
        assert_eq!(name, "debugger-bcdfh");
        let random = debugger_name(&[], |n| rand::random_range(0..n));
        assert!(
            random.len() == 14 && random[9..].bytes().all(|b| ALPHANUMS.contains(&b)),
            "{random}"
        );
    }

    fn pod(state: Value) -> Pod {
        serde_json::from_value(json!({"metadata": {"name": "p"},
            "status": {"ephemeralContainerStatuses": [{"name": "debugger-a", "image": "busybox", "imageID": "",
                "ready": false, "restartCount": 0, "state": state}]}}))
        .unwrap()
    }

    #[test]
    fn the_wait_ends_when_it_runs_or_cannot_start() {
        assert_eq!(
            debug_state(&pod(json!({"running": {}})), "debugger-a"),
            DebugState::Running
        );
        assert_eq!(
            debug_state(&pod(json!({"running": {}})), "debugger-b"),
            DebugState::Starting
        );
        assert_eq!(
            debug_state(
                &pod(json!({"waiting": {"reason": "ContainerCreating"}})),
                "debugger-a"
            ),
            DebugState::Starting
        );
        assert_eq!(
            debug_state(
                &pod(json!({"waiting": {"reason": "ErrImagePull", "message": "not found"}})),
                "debugger-a"
            ),
            DebugState::Failed("ErrImagePull: not found".into())
        );
        assert_eq!(
            debug_state(
                &pod(json!({"terminated": {"exitCode": 1, "reason": "Error"}})),
                "debugger-a"
            ),
            DebugState::Failed("it terminated: Error".into())
        );
    }
}
