//! The benchmark's own client of the demo server: reads the server URL and token from the
//! kubeconfig the server wrote, and creates and deletes probe pods with plain HTTP/1.1 over
//! a `TcpStream`, so the changes the tools are timed on come from outside every tool. Must
//! not measure anything itself.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;

/// Where the demo server answers and how to authenticate (first cluster, first user).
pub struct Api {
    /// `host:port` of the `http://` server.
    addr: String,
    token: String,
}

impl Api {
    /// Reads `server:` and `token:` from the kubeconfig at `path` (the demo server's own
    /// format: the first of each belongs to the admin context).
    pub fn from_kubeconfig(path: &Path) -> Api {
        let text = std::fs::read_to_string(path).expect("read the kubeconfig");
        let field = |key: &str| {
            text.lines()
                .find_map(|l| l.trim().strip_prefix(key).map(|v| v.trim().to_owned()))
                .unwrap_or_else(|| panic!("no {key} in {}", path.display()))
        };
        let server = field("server:");
        let addr = server
            .strip_prefix("http://")
            .expect("an http:// demo server")
            .trim_end_matches('/')
            .to_owned();
        Api {
            addr,
            token: field("token:"),
        }
    }

    /// One request; returns the status code. Panics on a transport error.
    fn request(&self, method: &str, path: &str, body: &str) -> u16 {
        self.exchange(method, path, body).0
    }

    /// One request; returns the status code and the whole reply (head and body).
    fn exchange(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        let mut s = TcpStream::connect(&self.addr).expect("connect to the demo server");
        s.set_nodelay(true).ok();
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {}\r\n\
             Content-Type: application/json\r\nAccept: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.addr,
            self.token,
            body.len()
        );
        s.write_all(req.as_bytes()).expect("send the request");
        let mut reply = Vec::new();
        s.read_to_end(&mut reply).expect("read the reply");
        let reply = String::from_utf8_lossy(&reply).into_owned();
        let code = reply
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("no status line in {:?}", &reply[..reply.len().min(64)]));
        (code, reply)
    }

    /// The server's current resourceVersion (of a one-item pod list), as a number.
    pub fn revision(&self) -> u64 {
        let (_, reply) = self.exchange("GET", "/api/v1/pods?limit=1", "");
        let at = reply
            .find("\"resourceVersion\":\"")
            .expect("a list resourceVersion")
            + 19;
        reply[at..]
            .split('"')
            .next()
            .and_then(|v| v.parse().ok())
            .expect("a numeric resourceVersion")
    }

    /// Waits (up to `patience`) until the server makes at most `per_sec` changes a second for
    /// three seconds in a row: a demo server at scale first starts its daemonsets' pods on
    /// every node (5,000 pods going through their phases), which is no tool's idle load.
    /// Returns how long that took.
    pub fn settle(&self, per_sec: u64, patience: std::time::Duration) -> std::time::Duration {
        let t0 = std::time::Instant::now();
        let (mut last, mut calm) = (self.revision(), 0);
        while calm < 3 && t0.elapsed() < patience {
            std::thread::sleep(std::time::Duration::from_secs(1));
            let now = self.revision();
            calm = if now.saturating_sub(last) <= per_sec {
                calm + 1
            } else {
                0
            };
            last = now;
        }
        t0.elapsed()
    }

    /// Creates pod `name` in namespace `default` (one busybox container); panics unless 201.
    pub fn create_pod(&self, name: &str) {
        let body = format!(
            r#"{{"apiVersion":"v1","kind":"Pod","metadata":{{"name":"{name}","namespace":"default"}},"spec":{{"containers":[{{"name":"c","image":"busybox"}}]}}}}"#
        );
        let code = self.request("POST", "/api/v1/namespaces/default/pods", &body);
        assert_eq!(code, 201, "create pod {name}");
    }

    /// Deletes pod `name` from `default` at once (`gracePeriodSeconds=0`); panics unless 200.
    pub fn delete_pod(&self, name: &str) {
        let path = format!("/api/v1/namespaces/default/pods/{name}?gracePeriodSeconds=0");
        let code = self.request("DELETE", &path, "");
        assert_eq!(code, 200, "delete pod {name}");
    }
}
