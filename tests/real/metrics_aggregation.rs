//! Registering a metrics backend with the real kube-apiserver's aggregation layer, the way a
//! metrics-server install does: a selector-less Service in kube-system, an EndpointSlice with
//! the backend's address (never loopback: the API server refuses 127.0.0.0/8 endpoints; it
//! dials the endpoint itself, `--enable-aggregator-routing`, since there is no kube-proxy),
//! and the APIService `v1beta1.metrics.k8s.io` with metrics-server's priorities and a
//! `caBundle` (so kube-apiserver verifies the backend's certificate for
//! `<service>.kube-system.svc`). Also the backend's serving certificate (openssl, signed by
//! the cluster CA, as up.sh makes its PKI). Must not start servers.

use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use base64::Engine;

use crate::support::Cluster;

/// The APIService's name.
pub const APISERVICE: &str = "v1beta1.metrics.k8s.io";
/// The Service (in kube-system) it points at.
pub const SERVICE: &str = "ktui-metrics";

/// An IPv4 address of this machine the API server may use as an endpoint: the first of
/// `hostname -I` that is neither loopback nor link-local, else the source address of the
/// default route; `None` on a machine with loopback only.
pub fn endpoint_ip() -> Option<IpAddr> {
    let usable = |ip: &Ipv4Addr| !(ip.is_loopback() || ip.is_link_local() || ip.is_unspecified());
    let listed = Command::new("hostname")
        .arg("-I")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    let from_hostname = listed
        .split_whitespace()
        .filter_map(|w| w.parse::<Ipv4Addr>().ok())
        .find(usable);
    let from_route = || {
        // No packet is sent: connecting a UDP socket only picks the route's source address.
        let s = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0)).ok()?;
        s.connect((Ipv4Addr::new(192, 0, 2, 1), 9)).ok()?;
        match s.local_addr().ok()?.ip() {
            IpAddr::V4(ip) if usable(&ip) => Some(ip),
            _ => None,
        }
    };
    from_hostname.or_else(from_route).map(IpAddr::V4)
}

fn openssl(args: &[&str]) {
    let out = Command::new("openssl").args(args).output().expect("run openssl");
    assert!(
        out.status.success(),
        "openssl {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Makes the backend's serving certificate in the cluster's `pki/` (EC P-256, signed by the
/// cluster CA, SAN `DNS:ktui-metrics.kube-system.svc`): its certificate and key files.
pub fn serving_cert(cluster: &Cluster) -> (PathBuf, PathBuf) {
    let pki = cluster.dir.join("pki");
    let p = |f: &str| pki.join(f).to_str().expect("UTF-8 path").to_owned();
    let (key, csr, ext, crt) = (
        p("metrics-backend.key"),
        p("metrics-backend.csr"),
        p("metrics-backend.ext"),
        p("metrics-backend.crt"),
    );
    openssl(&[
        "req",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-subj",
        &format!("/CN={SERVICE}"),
        "-keyout",
        &key,
        "-out",
        &csr,
    ]);
    let ext_text = format!(
        "basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\n\
         extendedKeyUsage=serverAuth\nsubjectAltName=DNS:{SERVICE}.kube-system.svc\n"
    );
    std::fs::write(&ext, ext_text).expect("write the extensions");
    openssl(&[
        "x509",
        "-req",
        "-in",
        &csr,
        "-CA",
        &p("ca.crt"),
        "-CAkey",
        &p("ca.key"),
        "-CAcreateserial",
        "-days",
        "1",
        "-extfile",
        &ext,
        "-out",
        &crt,
    ]);
    (crt.into(), key.into())
}

/// Applies the Service, the EndpointSlice naming `backend` and the APIService.
pub fn register(cluster: &Cluster, backend: SocketAddr) {
    let ca = std::fs::read(cluster.dir.join("pki/ca.crt")).expect("read ca.crt");
    let ca = base64::engine::general_purpose::STANDARD.encode(ca);
    let (ip, port) = (backend.ip(), backend.port());
    let manifest = format!(
        r#"apiVersion: v1
kind: Service
metadata: {{name: {SERVICE}, namespace: kube-system, labels: {{k8s-app: metrics-server}}}}
spec:
  ports: [{{name: https, port: 443, protocol: TCP, targetPort: {port}}}]
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata:
  name: {SERVICE}-1
  namespace: kube-system
  labels: {{kubernetes.io/service-name: {SERVICE}, endpointslice.kubernetes.io/managed-by: ktui-tests}}
addressType: IPv4
endpoints: [{{addresses: ["{ip}"], conditions: {{ready: true}}}}]
ports: [{{name: https, port: {port}, protocol: TCP}}]
---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {{name: {APISERVICE}, labels: {{k8s-app: metrics-server}}}}
spec:
  group: metrics.k8s.io
  version: v1beta1
  groupPriorityMinimum: 100
  versionPriority: 100
  service: {{name: {SERVICE}, namespace: kube-system, port: 443}}
  caBundle: {ca}
"#
    );
    let file = cluster.dir.join("metrics-apiservice.yaml");
    std::fs::write(&file, manifest).expect("write the manifest");
    cluster.kubectl_ok(&["apply", "-f", file.to_str().expect("UTF-8 path")]);
}

/// The APIService's `Available` condition: its status and message.
pub fn available(cluster: &Cluster) -> (String, String) {
    let out = cluster.kubectl_ok(&[
        "get",
        "apiservice",
        APISERVICE,
        "-o",
        r#"jsonpath={.status.conditions[?(@.type=="Available")].status}|{.status.conditions[?(@.type=="Available")].message}"#,
    ]);
    let (status, message) = out.split_once('|').unwrap_or((&out, ""));
    (status.to_owned(), message.to_owned())
}

/// Waits until the APIService says `Available: True`; the time it took. Panics after
/// `limit` with the condition's message.
pub fn wait_available(cluster: &Cluster, limit: Duration) -> Duration {
    let started = Instant::now();
    loop {
        let (status, message) = available(cluster);
        if status == "True" {
            return started.elapsed();
        }
        assert!(
            started.elapsed() < limit,
            "{APISERVICE} not Available after {limit:?}: {status} {message}\n{}",
            cluster.log_tail("kube-apiserver", 20)
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}
