//! The demo server's streaming subresources of pods — `exec`, `attach` and `portforward` —
//! answered by a clearly labelled simulated responder (no container exists): the request is
//! checked as the API server and kubelet check it (the pod, the container, running or not,
//! a websocket upgrade with a subprotocol both sides speak), then upgraded with
//! tokio-tungstenite and handed to [`remote`] (exec, attach: the `v4`/`v5.channel.k8s.io`
//! channel protocol) or [`forward`] (port-forward: `v4.channel.k8s.io` /
//! `portforward.k8s.io`). SPDY (kubectl's `SPDY/3.1` upgrade and its websocket tunnel
//! `SPDY/3.1+portforward.k8s.io`) is refused with a 400 that says so. Must not write to the
//! store.

pub mod ephemeral;
mod forward;
mod fs;
mod remote;
pub mod shell;
mod upgrade;
mod words;

use http::Response;
use hyper::body::Incoming;
use serde_json::Value;

use super::apierr::ApiError;
use super::http::ServerState;
use super::kinds::id;
use super::reply::Body;
use shell::Container;

pub use upgrade::{choose, EXEC_PROTOCOLS, FORWARD_PROTOCOLS};

/// Whether `sub` is one of the streaming subresources served here.
pub fn is_stream(sub: &str) -> bool {
    matches!(sub, "exec" | "attach" | "portforward")
}

/// What an exec or attach request asks for (its query).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Streams {
    /// `command` (repeated), exec only.
    pub command: Vec<String>,
    /// `container`.
    pub container: Option<String>,
    /// `stdin`, `stdout`, `stderr`, `tty`.
    pub stdin: bool,
    pub stdout: bool,
    pub stderr: bool,
    pub tty: bool,
    /// `ports` (port-forward; comma-separated or repeated).
    pub ports: Vec<u16>,
}

/// Parses the query of a streaming request. `Err` is the API's 400 message.
pub fn parse_query(query: &str) -> Result<Streams, String> {
    let mut s = Streams::default();
    let yes = |v: &str| v == "true" || v == "1";
    for (k, v) in form_urlencoded::parse(query.as_bytes()) {
        match k.as_ref() {
            "command" => s.command.push(v.into_owned()),
            "container" => s.container = Some(v.into_owned()).filter(|c| !c.is_empty()),
            "stdin" => s.stdin = yes(&v),
            "stdout" => s.stdout = yes(&v),
            "stderr" => s.stderr = yes(&v),
            "tty" => s.tty = yes(&v),
            "ports" | "port" => {
                for p in v.split(',').filter(|p| !p.is_empty()) {
                    match p.trim().parse::<u16>() {
                        Ok(n) if n > 0 => s.ports.push(n),
                        _ => return Err(format!("unable to parse \"{p}\" as a port: invalid port")),
                    }
                }
            }
            _ => {}
        }
    }
    Ok(s)
}

/// Answers `GET|POST …/pods/NAME/{exec,attach,portforward}`.
pub fn serve(
    state: &ServerState,
    req: http::Request<Incoming>,
    ns: &str,
    name: &str,
    sub: &str,
) -> Response<Body> {
    match prepare(state, &req, ns, name, sub) {
        Ok(job) => upgrade::upgrade(req, job, state.cancel.clone()),
        Err(e) => e.response(),
    }
}

/// A checked request, ready to be upgraded.
pub(crate) struct Job {
    /// The subprotocol chosen.
    pub protocol: &'static str,
    pub kind: JobKind,
}

pub(crate) enum JobKind {
    Exec {
        c: Container,
        q: Streams,
        shell: bool,
    },
    Attach {
        c: Container,
        q: Streams,
        pod: Value,
    },
    Forward {
        c: Container,
        q: Streams,
        declared: Vec<(u16, String)>,
    },
}

fn prepare(
    state: &ServerState,
    req: &http::Request<Incoming>,
    ns: &str,
    name: &str,
    sub: &str,
) -> Result<Job, ApiError> {
    let q = parse_query(req.uri().query().unwrap_or("")).map_err(ApiError::bad_request)?;
    let stored = state
        .store
        .get(id::POD, ns, name)
        .ok_or_else(|| ApiError::not_found(id::POD, name))?;
    let pod: Value = serde_json::from_slice(&stored.bytes).unwrap_or(Value::Null);
    let phase = pod["status"]["phase"].as_str().unwrap_or("Pending");
    if sub == "portforward" {
        if phase != "Running" {
            return Err(ApiError::bad_request(format!(
                "unable to do port forwarding: pod {name} is not running (phase {phase})"
            )));
        }
        // Before `ports`: SPDY clients name their ports in stream headers, not the query.
        let protocol = choose(&upgrade::offered(req.headers())?, FORWARD_PROTOCOLS)?;
        if q.ports.is_empty() {
            return Err(ApiError::bad_request("query parameter \"ports\" is required"));
        }
        let declared = declared_ports(&pod);
        let c = container_of(&pod, &q.container.clone().unwrap_or_default());
        return Ok(Job {
            protocol,
            kind: JobKind::Forward { c, q, declared },
        });
    }
    let cname = pick_container(&pod, name, q.container.as_deref())?;
    if matches!(phase, "Succeeded" | "Failed") {
        return Err(ApiError::bad_request(format!(
            "cannot {sub} into a container in a completed pod; current phase is {phase}"
        )));
    }
    if !running(&pod, &cname) {
        return Err(ApiError::bad_request(format!(
            "container not running ({cname:?})"
        )));
    }
    if sub == "exec" && q.command.is_empty() {
        return Err(ApiError::bad_request("you must specify at least 1 command"));
    }
    if !(q.stdin || q.stdout || q.stderr) {
        return Err(ApiError::bad_request(
            "you must specify at least one of stdin, stdout, stderr",
        ));
    }
    // The pod and container are checked first, so a client that falls back to SPDY after a
    // refused upgrade (kubectl) hears why the container cannot take a stream.
    let protocol = choose(&upgrade::offered(req.headers())?, EXEC_PROTOCOLS)?;
    let c = container_of(&pod, &cname);
    let kind = match sub {
        "exec" => JobKind::Exec {
            shell: has_shell(&c.image),
            c,
            q,
        },
        // A debug container's main process is its image's shell (busybox's `sh`).
        _ if ephemeral(&pod, &cname) => {
            let mut q = q;
            q.command = vec!["sh".into()];
            JobKind::Exec {
                shell: has_shell(&c.image),
                c,
                q,
            }
        }
        _ => JobKind::Attach { c, q, pod },
    };
    Ok(Job { protocol, kind })
}

/// Whether a demo image has a shell: distroless images (and CoreDNS's, which is one) have
/// none, so the demo shows what ktui does then.
pub fn has_shell(image: &str) -> bool {
    !(image.contains("distroless") || image.contains("coredns"))
}

fn containers(pod: &Value) -> impl Iterator<Item = &Value> {
    ["containers", "initContainers", "ephemeralContainers"]
        .into_iter()
        .filter_map(|k| pod["spec"][k].as_array())
        .flatten()
}

/// The container asked for, else the only one; the API server's 400 otherwise.
fn pick_container(pod: &Value, name: &str, asked: Option<&str>) -> Result<String, ApiError> {
    let app: Vec<&str> = pod["spec"]["containers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["name"].as_str())
        .collect();
    match asked {
        Some(a) if containers(pod).any(|c| c["name"] == a) => Ok(a.to_owned()),
        Some(a) => Err(ApiError::bad_request(format!(
            "container {a} is not valid for pod {name}"
        ))),
        None if app.len() == 1 => Ok(app[0].to_owned()),
        None => Err(ApiError::bad_request(format!(
            "a container name must be specified for pod {name}, choose one of: [{}]",
            app.join(" ")
        ))),
    }
}

/// Whether `name` is one of `spec.ephemeralContainers`.
fn ephemeral(pod: &Value, name: &str) -> bool {
    pod["spec"]["ephemeralContainers"]
        .as_array()
        .is_some_and(|cs| cs.iter().any(|c| c["name"] == name))
}

/// Whether `status.*ContainerStatuses[name].state.running` is set.
fn running(pod: &Value, name: &str) -> bool {
    [
        "containerStatuses",
        "initContainerStatuses",
        "ephemeralContainerStatuses",
    ]
    .into_iter()
    .filter_map(|k| pod["status"][k].as_array())
    .flatten()
    .find(|s| s["name"] == name)
    .is_some_and(|s| s["state"]["running"].is_object())
}

/// Every `containerPort` of the pod's containers with the port's name (or `""`).
fn declared_ports(pod: &Value) -> Vec<(u16, String)> {
    containers(pod)
        .filter_map(|c| c["ports"].as_array())
        .flatten()
        .filter_map(|p| {
            let n = u16::try_from(p["containerPort"].as_u64()?).ok()?;
            Some((n, p["name"].as_str().unwrap_or_default().to_owned()))
        })
        .collect()
}

/// The shell's view of container `name` (the first container when it is `""`).
fn container_of(pod: &Value, name: &str) -> Container {
    let spec = containers(pod)
        .find(|c| name.is_empty() || c["name"] == name)
        .cloned()
        .unwrap_or(Value::Null);
    let m = &pod["metadata"];
    let s = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    let podname = s(&m["name"]);
    let mut env = vec![
        (
            "PATH".to_owned(),
            "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin".to_owned(),
        ),
        ("HOSTNAME".to_owned(), podname.clone()),
        ("KUBERNETES_SERVICE_HOST".to_owned(), "10.96.0.1".to_owned()),
        ("KUBERNETES_SERVICE_PORT".to_owned(), "443".to_owned()),
    ];
    for e in spec["env"].as_array().into_iter().flatten() {
        let value = match (&e["value"], e.pointer("/valueFrom/fieldRef/fieldPath")) {
            (Value::String(v), _) => Some(v.clone()),
            (_, Some(Value::String(path))) => match path.as_str() {
                "metadata.name" => Some(podname.clone()),
                "metadata.namespace" => Some(s(&m["namespace"])),
                "spec.nodeName" => Some(s(&pod["spec"]["nodeName"])),
                "status.podIP" => Some(s(&pod["status"]["podIP"])),
                _ => None,
            },
            (Value::Null, None) if e.get("valueFrom").is_none() => Some(String::new()),
            _ => None,
        };
        if let (Some(k), Some(v)) = (e["name"].as_str(), value) {
            env.push((k.to_owned(), v));
        }
    }
    env.push(("HOME".to_owned(), "/root".to_owned()));
    Container {
        namespace: s(&m["namespace"]),
        pod: podname,
        name: s(&spec["name"]),
        image: s(&spec["image"]),
        env,
        ip: s(&pod["status"]["podIP"]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pod(state: &str) -> Value {
        json!({"metadata": {"name": "web-1", "namespace": "shop"},
            "spec": {"nodeName": "n1", "containers": [
                {"name": "web", "image": "ghcr.io/ktui/web:1",
                 "env": [{"name": "MODE", "value": "demo"},
                         {"name": "ME", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
                         {"name": "SECRET", "valueFrom": {"secretKeyRef": {"name": "s", "key": "k"}}}],
                 "ports": [{"containerPort": 8080, "name": "http"}]},
                {"name": "side", "image": "busybox"}]},
            "status": {"phase": "Running", "podIP": "10.244.0.7",
                "containerStatuses": [{"name": "web", "state": {state: {}}}]}})
    }

    #[test]
    fn the_container_is_checked_as_the_api_server_does() {
        let p = pod("running");
        assert_eq!(pick_container(&p, "web-1", Some("web")).unwrap(), "web");
        let e = pick_container(&p, "web-1", None).unwrap_err();
        assert_eq!(
            (e.code, e.message.as_str()),
            (
                400,
                "a container name must be specified for pod web-1, choose one of: [web side]"
            )
        );
        let e = pick_container(&p, "web-1", Some("db")).unwrap_err();
        assert_eq!(e.message, "container db is not valid for pod web-1");
        assert!(running(&p, "web"));
        assert!(!running(&pod("waiting"), "web"));
        assert!(!running(&p, "side"));
    }

    #[test]
    fn the_shell_sees_the_spec_env_and_the_ports_are_the_declared_ones() {
        let c = container_of(&pod("running"), "web");
        let env: Vec<(&str, &str)> = c.env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert!(env.contains(&("MODE", "demo")) && env.contains(&("ME", "web-1")));
        assert!(env.contains(&("HOSTNAME", "web-1")));
        assert!(!env.iter().any(|(k, _)| *k == "SECRET"));
        assert_eq!(declared_ports(&pod("running")), [(8080, "http".to_owned())]);
    }

    #[test]
    fn queries_parse_repeated_commands_and_ports() {
        let q =
            parse_query("command=sh&command=-c&command=exit%203&container=web&stdin=true&tty=1&stdout=true")
                .unwrap();
        assert_eq!(q.command, ["sh", "-c", "exit 3"]);
        assert!(q.stdin && q.stdout && q.tty && !q.stderr);
        assert_eq!(parse_query("ports=80,8080&ports=9").unwrap().ports, [80, 8080, 9]);
        assert!(parse_query("ports=http").is_err());
    }
}
