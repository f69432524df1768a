#!/usr/bin/env python3
"""Loads N pods or N ConfigMaps into a real test cluster (tests/cluster/up.sh DIR, best with
KTUI_TEST_MINIMAL=1: no scheduler or kubelets, so the pods stay Pending and nothing else
writes) through the API, for benches/real_sync/run.sh. Objects are named `load-NNNNNN` and
spread over NS namespaces (`load-00`…), each about 2 KB of JSON, created by THREADS
keep-alive HTTPS connections:
  pods: labels, annotations, one container with env, ports, resources and probes;
  configmaps: labels, annotations and `data` of 8 keys of ~200 bytes each.

usage: load.py DIR N [--kind pods|configmaps] [--namespaces NS] [--threads THREADS]
"""
import argparse, http.client, json, os, ssl, sys, threading, time, base64, re

ap = argparse.ArgumentParser()
ap.add_argument("dir")
ap.add_argument("n", type=int)
ap.add_argument("--kind", choices=["pods", "configmaps"], default="pods")
ap.add_argument("--namespaces", type=int, default=100)
ap.add_argument("--threads", type=int, default=8)
a = ap.parse_args()

kc = open(os.path.join(a.dir, "kubeconfig")).read()
server = re.search(r"server: https://([0-9.]+):(\d+)", kc)
host, port = server.group(1), int(server.group(2))
ca = base64.b64decode(re.search(r"certificate-authority-data: (\S+)", kc).group(1))
token = re.search(r"token: (\S+)", kc).group(1)  # the first user: the admin context's
ctx = ssl.create_default_context(cadata=ca.decode())

def conn():
    return http.client.HTTPSConnection(host, port, context=ctx, timeout=60)

def post(c, path, body):
    for attempt in range(20):
        try:
            c.request("POST", path, body=json.dumps(body),
                      headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
            r = c.getresponse()
            data = r.read()
            if r.status in (200, 201, 409):
                return c
            if r.status == 429 or r.status >= 500:
                time.sleep(0.2 * (attempt + 1))
                continue
            sys.exit(f"POST {path}: {r.status} {data[:300]!r}")
        except (OSError, http.client.HTTPException):
            c.close()
            c = conn()
            time.sleep(0.2)
    sys.exit(f"POST {path}: gave up")

def pod(ns, i):
    name = f"load-{i:06d}"
    app = f"app-{i % 500:03d}"
    return {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": ns,
                     "labels": {"app": app, "tier": ["web", "api", "db"][i % 3],
                                "pod-template-hash": f"{i % 7919:x}5d9f"},
                     "annotations": {"ktui.dev/load": "real_sync", "prometheus.io/scrape": "true"}},
        "spec": {
            "schedulerName": "nobody",  # stays Pending even with a scheduler running
            "containers": [{
                "name": "main", "image": f"registry.example.com/{app}:1.{i % 40}.0",
                "args": ["--port=8080", "--log-level=info"],
                "env": [{"name": "POD_NAME", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
                        {"name": "MODE", "value": "load"}],
                "ports": [{"containerPort": 8080, "name": "http"}, {"containerPort": 9090, "name": "metrics"}],
                "resources": {"requests": {"cpu": "10m", "memory": "32Mi"},
                              "limits": {"cpu": "100m", "memory": "64Mi"}},
                "readinessProbe": {"httpGet": {"path": "/ready", "port": 8080}, "periodSeconds": 10},
                "livenessProbe": {"httpGet": {"path": "/live", "port": 8080}, "periodSeconds": 20},
            }],
            "terminationGracePeriodSeconds": 5,
        },
    }

# The `data` keys of a load ConfigMap: config-file-like values of ~200 bytes each.
CM_KEYS = ["app.properties", "logging.yaml", "feature-flags.json", "upstreams.conf",
           "limits.yaml", "cache.properties", "tracing.yaml", "routes.txt"]

def configmap(ns, i):
    name = f"load-{i:06d}"
    app = f"app-{i % 500:03d}"
    data = {}
    for j, key in enumerate(CM_KEYS):
        line = f"{key.split('.')[0]}.{j}.setting-{(i * 31 + j) % 9973:04d} = value-{i:06d}-{j}-{app}\n"
        data[key] = (line * 4)[:200]
    return {
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": name, "namespace": ns,
                     "labels": {"app": app, "tier": ["web", "api", "db"][i % 3],
                                "config-hash": f"{i % 7919:x}5d9f"},
                     "annotations": {"ktui.dev/load": "real_sync",
                                     "example.com/owner": f"team-{i % 17:02d}"}},
        "data": data,
    }

body = {"pods": pod, "configmaps": configmap}[a.kind]

c = conn()
for k in range(a.namespaces):
    c = post(c, "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace",
                                        "metadata": {"name": f"load-{k:02d}"}})
c.close()

done = [0]
lock = threading.Lock()
start = time.time()

def work(t):
    c = conn()
    for i in range(t, a.n, a.threads):
        ns = f"load-{i % a.namespaces:02d}"
        c = post(c, f"/api/v1/namespaces/{ns}/{a.kind}", body(ns, i))
        with lock:
            done[0] += 1
            if done[0] % 10000 == 0:
                el = time.time() - start
                print(f"{done[0]} {a.kind} in {el:.0f} s ({done[0] / el:.0f}/s)", file=sys.stderr, flush=True)
    c.close()

ts = [threading.Thread(target=work, args=(t,)) for t in range(a.threads)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print(f"loaded {a.n} {a.kind} in {time.time() - start:.0f} s", file=sys.stderr)
