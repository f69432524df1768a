//! End-to-end against the real API server: a CRD created while ktui runs is listed by its
//! short name with its printer columns (priority > 0 only in the wide view, JSONPath filters
//! evaluated client-side), a broken aggregated API is named in `:ar` while everything else
//! works, and deleting the CRD closes its view with a message.
use crate::{support, util};

use std::path::PathBuf;
use std::time::{Duration, Instant};

use util::*;

const CRD: &str = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.e2e.ktui.dev
spec:
  group: e2e.ktui.dev
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget, shortNames: [gdt]}
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
      additionalPrinterColumns:
        - {name: Color, type: string, jsonPath: .spec.color}
        - {name: Size, type: integer, jsonPath: .spec.size}
        - {name: Ready, type: string, jsonPath: '.status.conditions[?(@.type=="Ready")].status'}
        - {name: Owner, type: string, jsonPath: .spec.owner, priority: 1}
        - {name: Port, type: integer, jsonPath: '.spec.ports[0].port'}
"#;

const BROKEN: &str = r#"
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata:
  name: v1.broken.e2e.ktui.dev
spec:
  group: broken.e2e.ktui.dev
  version: v1
  groupPriorityMinimum: 100
  versionPriority: 100
  insecureSkipTLSVerify: true
  service: {name: nothing-here, namespace: default, port: 443}
"#;

fn gadget(ns: &str) -> String {
    format!(
        r#"
apiVersion: e2e.ktui.dev/v1
kind: Gadget
metadata: {{name: sprocket, namespace: {ns}}}
spec: {{color: teal, size: 7, owner: team-x, ports: [{{port: 8443}}, {{port: 9}}]}}
status:
  conditions:
    - {{type: Synced, status: "False"}}
    - {{type: Ready, status: "True"}}
"#
    )
}

fn manifest(name: &str, text: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("ktui-e2e-{}-{name}.yaml", std::process::id()));
    std::fs::write(&path, text).expect("write manifest");
    path
}

#[test]
#[ignore = "real tier"]
fn crds_appear_with_printer_columns_and_their_view_closes_when_deleted() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-crd");
    let crd = manifest("crd", CRD);
    let crd_path = crd.to_str().unwrap();
    // A leftover from an earlier run on the same cluster.
    cluster.kubectl(&["delete", "-f", crd_path, "--wait=true", "--ignore-not-found"]);
    let mut k = ktui(&cluster, &["-n", &ns, "-c", "pods"]);
    wait_live(&k);
    k.command("gdt");
    k.wait_for("unknown command or resource: gdt", SLOW);

    cluster.kubectl_ok(&["apply", "-f", crd_path]);
    cluster.kubectl_ok(&[
        "wait",
        "--for=condition=Established",
        "crd/gadgets.e2e.ktui.dev",
        "--timeout=60s",
    ]);
    let obj = manifest("gadget", &gadget(&ns));
    cluster.kubectl_ok(&["apply", "-f", obj.to_str().unwrap()]);
    // Discovery follows the CRD watch, without a restart and without a command (a command
    // for an unknown name asks the server again, which would hide a broken watch): `tab`
    // completion only reads what discovery published.
    let start = Instant::now();
    loop {
        k.type_keys(":gadg\t");
        std::thread::sleep(Duration::from_millis(300));
        let seen = k.screen().contains("gadgets.e2e.ktui.dev");
        k.press_esc();
        if seen {
            break;
        }
        assert!(
            start.elapsed() < SLOW,
            "the CRD watch never published the new kind\n{}",
            k.dump()
        );
    }
    eprintln!(
        "timing: new CRD offered by completion {:.2?} after it was established",
        start.elapsed()
    );
    k.command("gdt");
    k.wait_for("sprocket", SLOW);
    let row = row_of(&k.screen(), "sprocket").expect("sprocket row");
    let cells: Vec<&str> = row
        .trim_matches(|c| c == '│' || c == ' ')
        .split_whitespace()
        .collect();
    assert_eq!(cells[..5], ["sprocket", "teal", "7", "True", "8443"], "{row}");
    let screen = k.screen();
    assert!(screen.contains("COLOR") && screen.contains("READY") && screen.contains("PORT"));
    assert!(
        !screen.contains("OWNER") && !screen.contains(" AGE"),
        "no AGE unless defined\n{screen}"
    );
    k.send("\x17"); // ctrl-w: wide
    k.wait_until("the priority-1 column in wide", SLOW, |s| {
        s.contains("OWNER") && s.contains("team-x")
    });

    // A broken aggregated API: named in :ar, everything else still works.
    let broken = manifest("broken", BROKEN);
    cluster.kubectl_ok(&["apply", "-f", broken.to_str().unwrap()]);
    let start = Instant::now();
    let shown = loop {
        k.command("ar");
        std::thread::sleep(Duration::from_millis(500));
        let s = k.screen();
        if s.contains("broken.e2e.ktui.dev/v1") && s.contains("unavailable") {
            break true;
        }
        if start.elapsed() > SLOW {
            break false;
        }
        k.press_esc();
    };
    cluster.kubectl(&["delete", "-f", broken.to_str().unwrap(), "--ignore-not-found"]);
    assert!(shown, "the broken group is named\n{}", k.dump());

    // Back to the gadgets; deleting the CRD closes the view with a message.
    k.command("gdt");
    k.wait_for("sprocket", SLOW);
    cluster.kubectl_ok(&["delete", "-f", crd_path, "--wait=true"]);
    k.wait_for("the resource type was deleted", SLOW);
    assert!(!has_row(&k.screen(), "sprocket"), "{}", k.dump());
    for p in [crd, obj, broken] {
        let _ = std::fs::remove_file(p);
    }
}
