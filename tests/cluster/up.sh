#!/usr/bin/env bash
# Start a real, private Kubernetes control plane on 127.0.0.1 with everything under DIR:
#   etcd, kube-apiserver, kube-controller-manager, kube-scheduler, plus hollow nodes
#   node-1..node-N (tests/cluster/kubebins/hollowkubelet: the real kubelet with a fake
#   container runtime, so pods run, log, exec and port-forward; N=2 by default, node-1
#   tainted control-plane when N >= 2 so pods land on node-2..node-N).
# Writes DIR/kubeconfig (contexts ktui-test = admin, ktui-viewer = view in team-a only),
# DIR/env (KUBECONFIG, KUBECTL), DIR/<component>.pid, DIR/<component>.log, DIR/ports.env,
# DIR/audit.log (the API server's audit log, Metadata level, without the control plane's
# own requests)
# (nodes: DIR/hollow-node-I.{pid,log}, their files in DIR/node-I/).
# Exits 0 only when the cluster answers; on failure prints the failing component's log
# tail and stops everything it started. Stop it with tests/cluster/down.sh DIR.
# Usage: tests/cluster/up.sh DIR      (DIR new or empty; env KTUI_TEST_BIN picks the binary
#        cache, KTUI_TEST_APISERVER_ARGS adds kube-apiserver flags, KTUI_TEST_NODES=N
#        the number of hollow nodes, default 2; KTUI_TEST_MINIMAL=1 starts etcd and
#        kube-apiserver only)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[[ $# -eq 1 ]] || { echo "usage: $0 DIR" >&2; exit 2; }
mkdir -p "$1"
DIR="$(cd "$1" && pwd)"
# DIR must be new or empty: it is ours to fill (and down.sh removes it).
[[ -z "$(ls -A "$DIR")" ]] || { echo "up.sh: $DIR is not empty" >&2; exit 2; }
ATTEMPT="${KTUI_UP_ATTEMPT:-1}"
NODES="${KTUI_TEST_NODES:-2}"
[[ "$NODES" =~ ^[0-9]+$ ]] && (( NODES >= 1 && NODES <= 150 )) ||
  { echo "up.sh: KTUI_TEST_NODES must be 1..150, not '$NODES'" >&2; exit 2; }

BIN="$(bash "$HERE/build.sh" | tail -n 1)"
log() { echo "up.sh: $*" >&2; }
START=$SECONDS

# --- failure handling: stop whatever we started, show the failing component's log -----
FAILED_COMPONENT=""
cleanup_on_failure() {
  local rc=$?
  [[ $rc -ne 0 ]] || return 0
  log "failed (exit $rc)${FAILED_COMPONENT:+ in $FAILED_COMPONENT}"
  if [[ -n "$FAILED_COMPONENT" && -f "$DIR/$FAILED_COMPONENT.log" ]]; then
    log "last lines of $DIR/$FAILED_COMPONENT.log:"
    tail -n 40 "$DIR/$FAILED_COMPONENT.log" >&2
  fi
  bash "$HERE/down.sh" --keep "$DIR" || true
  # Another cluster took one of our ports between choosing and binding: start afresh.
  if (( ATTEMPT < 3 )) && grep -qs "address already in use" "$DIR"/*.log; then
    log "port clash, retrying"
    rm -rf "${DIR:?}"/* && exec env KTUI_UP_ATTEMPT=$((ATTEMPT + 1)) bash "$0" "$DIR"
  fi
  exit "$rc"
}
trap cleanup_on_failure EXIT

# --- free ports ----------------------------------------------------------------------
# Random ports below the kernel's ephemeral range (so outgoing connections never hold
# them), skipping any port that already has a TCP socket. Two clusters started at the
# same moment could still pick the same port; a start that fails with "address already
# in use" is then retried from scratch (up to 3 attempts).
declare -A TAKEN=()
free_port() {
  local p hex
  while :; do
    p=$(( 20000 + RANDOM % 12000 ))
    [[ -z "${TAKEN[$p]:-}" ]] || continue
    hex="$(printf ':%04X ' "$p")"
    if ! grep -q "$hex" /proc/net/tcp /proc/net/tcp6 2>/dev/null; then
      TAKEN[$p]=1; echo "$p"; return
    fi
  done
}
ETCD_PORT=$(free_port); ETCD_PEER_PORT=$(free_port); API_PORT=$(free_port)
KCM_PORT=$(free_port); SCHED_PORT=$(free_port)
NODE_PORTS=()
for ((i = 1; i <= NODES; i++)); do NODE_PORTS[i]=$(free_port); done
cat >"$DIR/ports.env" <<EOF
BIN=$(printf %q "$BIN")
ETCD_PORT=$ETCD_PORT
ETCD_PEER_PORT=$ETCD_PEER_PORT
API_PORT=$API_PORT
KCM_PORT=$KCM_PORT
SCHED_PORT=$SCHED_PORT
NODE_PORTS=(${NODE_PORTS[*]})
EOF

# --- PKI (openssl) and tokens ----------------------------------------------------------
PKI="$DIR/pki"; mkdir -p "$PKI"
openssl_q() { openssl "$@" 2>>"$PKI/openssl.log" >/dev/null; }
openssl_q req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=ktui-test-ca" \
  -keyout "$PKI/ca.key" -out "$PKI/ca.crt" \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign"
openssl_q req -newkey rsa:2048 -nodes -subj "/CN=kube-apiserver" \
  -keyout "$PKI/apiserver.key" -out "$PKI/apiserver.csr"
cat >"$PKI/apiserver.ext" <<'EOF'
basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=IP:127.0.0.1,IP:10.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc
EOF
openssl_q x509 -req -in "$PKI/apiserver.csr" -CA "$PKI/ca.crt" -CAkey "$PKI/ca.key" \
  -CAcreateserial -days 3650 -extfile "$PKI/apiserver.ext" -out "$PKI/apiserver.crt"
# The aggregation layer's client certificate: kube-apiserver shows it to the servers behind
# APIServices (--proxy-client-cert-file), signed by the requestheader CA (here the cluster
# CA) with the CN --requestheader-allowed-names names. EC P-256: made in milliseconds.
openssl_q req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=front-proxy-client" \
  -keyout "$PKI/front-proxy-client.key" -out "$PKI/front-proxy-client.csr"
printf '%s\n' "basicConstraints=critical,CA:FALSE" "keyUsage=critical,digitalSignature" \
  "extendedKeyUsage=clientAuth" >"$PKI/front-proxy-client.ext"
openssl_q x509 -req -in "$PKI/front-proxy-client.csr" -CA "$PKI/ca.crt" -CAkey "$PKI/ca.key" \
  -CAcreateserial -days 3650 -extfile "$PKI/front-proxy-client.ext" -out "$PKI/front-proxy-client.crt"
openssl_q genrsa -out "$PKI/sa.key" 2048
openssl_q rsa -in "$PKI/sa.key" -pubout -out "$PKI/sa.pub"

token() { openssl rand -hex 24; }
ADMIN_TOKEN=$(token); VIEWER_TOKEN=$(token); KCM_TOKEN=$(token); SCHED_TOKEN=$(token)
# token,user,uid,"groups" — kcm and scheduler use the user names the built-in RBAC binds.
cat >"$PKI/tokens.csv" <<EOF
$ADMIN_TOKEN,ktui-admin,ktui-admin,"system:masters"
$VIEWER_TOKEN,ktui-viewer,ktui-viewer,"ktui:viewers"
$KCM_TOKEN,system:kube-controller-manager,system:kube-controller-manager
$SCHED_TOKEN,system:kube-scheduler,system:kube-scheduler
EOF
# One API user per hollow node, in group system:nodes (bound to the system:node role below).
NODE_TOKENS=()
for ((i = 1; i <= NODES; i++)); do
  NODE_TOKENS[i]=$(token)
  echo "${NODE_TOKENS[i]},system:node:node-$i,system:node:node-$i,\"system:nodes\"" >>"$PKI/tokens.csv"
done
chmod 600 "$PKI"/*.key "$PKI/tokens.csv"

# write_kubeconfig FILE USER TOKEN [NAMESPACE]: a single-context kubeconfig
write_kubeconfig() {
  cat >"$1" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: ktui-test
  cluster:
    server: https://127.0.0.1:$API_PORT
    certificate-authority-data: $(base64 -w0 "$PKI/ca.crt")
users:
- name: $2
  user:
    token: $3
contexts:
- name: $2
  context: {cluster: ktui-test, user: $2${4:+, namespace: $4}}
current-context: $2
EOF
}
write_kubeconfig "$DIR/kcm.kubeconfig" system:kube-controller-manager "$KCM_TOKEN"
write_kubeconfig "$DIR/scheduler.kubeconfig" system:kube-scheduler "$SCHED_TOKEN"
for ((i = 1; i <= NODES; i++)); do
  write_kubeconfig "$DIR/node-$i.kubeconfig" "system:node:node-$i" "${NODE_TOKENS[i]}"
done

# --- processes -------------------------------------------------------------------------
# start NAME ARGS...: run in the background with stdin/stdout/stderr detached (so a
# caller that captures our output is not held open), log to DIR/NAME.log, pid to DIR/NAME.pid.
start() {
  local name="$1"; shift
  "$@" </dev/null >"$DIR/$name.log" 2>&1 &
  echo $! >"$DIR/$name.pid"
}
# wait_http NAME URL [CURL ARGS...]: poll until URL answers "ok" (60 s), failing early
# if the process died.
wait_http() {
  local name="$1" url="$2"; shift 2
  local deadline=$((SECONDS + 60))
  until [[ "$(curl -s --max-time 2 "$@" "$url" 2>/dev/null)" == ok ]]; do
    if ! kill -0 "$(cat "$DIR/$name.pid")" 2>/dev/null; then
      FAILED_COMPONENT=$name; log "$name exited"; return 1
    fi
    if (( SECONDS > deadline )); then
      FAILED_COMPONENT=$name; log "$name not healthy at $url after 60 s"; return 1
    fi
    sleep 0.2
  done
}

mkdir -p "$DIR/etcd-data"
# Kept in a file, like the apiserver's, so etcd-snapshot.sh can restart it identically.
ETCD_ARGS=(
  --name ktui-test --data-dir "$DIR/etcd-data"
  --listen-client-urls "http://127.0.0.1:$ETCD_PORT"
  --advertise-client-urls "http://127.0.0.1:$ETCD_PORT"
  --listen-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT"
  --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT"
  --initial-cluster "ktui-test=http://127.0.0.1:$ETCD_PEER_PORT"
  --unsafe-no-fsync --watch-progress-notify-interval 5s --log-level warn
)
printf '%s\n' "${ETCD_ARGS[@]}" >"$DIR/etcd.args"
start etcd "$BIN/etcd" "${ETCD_ARGS[@]}"
ETCD_HEALTHY=0
for _ in $(seq 300); do
  if [[ "$(curl -s --max-time 2 "http://127.0.0.1:$ETCD_PORT/health" || true)" == *'"health":"true"'* ]]; then
    ETCD_HEALTHY=1; break
  fi
  kill -0 "$(cat "$DIR/etcd.pid")" 2>/dev/null || break
  sleep 0.2
done
[[ $ETCD_HEALTHY == 1 ]] || { FAILED_COMPONENT=etcd; log "etcd not healthy"; exit 1; }

# Audit: Metadata only (no bodies), one event per request (ResponseComplete; a watch also
# ResponseStarted), the control plane's and the nodes' own traffic left out, so the file
# stays small and the writes cheap; tests find ktui's requests by user agent in
# DIR/audit.log (tests/real/user_agent.rs).
cat >"$DIR/audit-policy.yaml" <<'POLICY'
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: None
  users: [system:kube-controller-manager, system:kube-scheduler, system:apiserver]
- level: None
  userGroups: [system:nodes, system:serviceaccounts:kube-system]
- level: None
  nonResourceURLs: [/healthz*, /readyz*, /livez*]
- level: Metadata
POLICY

# The apiserver's arguments are kept in a file so force-410.sh can restart it identically.
APISERVER_ARGS=(
  --audit-policy-file "$DIR/audit-policy.yaml" --audit-log-path "$DIR/audit.log"
  --audit-log-maxsize 100 --audit-log-maxbackup 1
  --etcd-servers "http://127.0.0.1:$ETCD_PORT"
  --bind-address 127.0.0.1 --secure-port "$API_PORT"
  --advertise-address 127.0.0.1 --endpoint-reconciler-type none
  --tls-cert-file "$PKI/apiserver.crt" --tls-private-key-file "$PKI/apiserver.key"
  --client-ca-file "$PKI/ca.crt" --token-auth-file "$PKI/tokens.csv"
  --authorization-mode RBAC
  --service-account-issuer "https://127.0.0.1:$API_PORT"
  --service-account-key-file "$PKI/sa.pub" --service-account-signing-key-file "$PKI/sa.key"
  --service-cluster-ip-range 10.0.0.0/24 --allow-privileged=true
  --disable-admission-plugins ServiceAccount
  --etcd-compaction-interval 0
  # logs, exec and port-forward: reach the hollow kubelets at their InternalIP 127.0.0.1
  # (HTTPS, certificate not verified: no --kubelet-certificate-authority)
  --kubelet-preferred-address-types InternalIP,Hostname
  # the aggregation layer, as kubeadm sets it up: a front-proxy CA (kcm and the scheduler
  # also look for one in extension-apiserver-authentication), the client certificate
  # kube-apiserver proxies to APIService backends with, and the user in X-Remote-* headers
  --requestheader-client-ca-file "$PKI/ca.crt" --requestheader-allowed-names front-proxy-client
  --requestheader-username-headers X-Remote-User --requestheader-group-headers X-Remote-Group
  --requestheader-extra-headers-prefix X-Remote-Extra-
  --proxy-client-cert-file "$PKI/front-proxy-client.crt" --proxy-client-key-file "$PKI/front-proxy-client.key"
  # no kube-proxy here: proxy to an APIService's endpoint IP, not to its Service's cluster IP
  --enable-aggregator-routing=true
  --cert-dir "$DIR/apiserver-certs"
)
# Extra flags for a test's own cluster, e.g. KTUI_TEST_APISERVER_ARGS="--watch-cache-sizes=configmaps#0"
# (whitespace-separated; no quoting).
read -r -a EXTRA_ARGS <<<"${KTUI_TEST_APISERVER_ARGS:-}"
APISERVER_ARGS+=(${EXTRA_ARGS[@]+"${EXTRA_ARGS[@]}"})
printf '%s\n' "${APISERVER_ARGS[@]}" >"$DIR/kube-apiserver.args"
start kube-apiserver "$BIN/kube-apiserver" "${APISERVER_ARGS[@]}"
wait_http kube-apiserver "https://127.0.0.1:$API_PORT/readyz" \
  --cacert "$PKI/ca.crt" -H "Authorization: Bearer $ADMIN_TOKEN"

# --- kubeconfig with the admin and viewer contexts --------------------------------------
cat >"$DIR/kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: ktui-test
  cluster:
    server: https://127.0.0.1:$API_PORT
    certificate-authority-data: $(base64 -w0 "$PKI/ca.crt")
users:
- name: ktui-admin
  user:
    token: $ADMIN_TOKEN
- name: ktui-viewer
  user:
    token: $VIEWER_TOKEN
contexts:
- name: ktui-test
  context: {cluster: ktui-test, user: ktui-admin}
- name: ktui-viewer
  context: {cluster: ktui-test, user: ktui-viewer, namespace: team-a}
current-context: ktui-test
EOF
chmod 600 "$DIR/kubeconfig"
KC=("$BIN/kubectl" --kubeconfig "$DIR/kubeconfig" --context ktui-test --request-timeout 20s)

# --- seed objects: team-a + viewer binding, the nodes' role binding ------------------------
FAILED_COMPONENT=kube-apiserver
"${KC[@]}" apply -f - >/dev/null <<'EOF'
apiVersion: v1
kind: Namespace
metadata: {name: team-a}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: ktui-viewer-view, namespace: team-a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}
subjects:
- {apiGroup: rbac.authorization.k8s.io, kind: User, name: ktui-viewer}
---
# The kubelets' permissions (a kubeadm cluster adds the Node authorizer; up.sh runs RBAC only)
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: ktui-test:nodes}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: system:node}
subjects:
- {apiGroup: rbac.authorization.k8s.io, kind: Group, name: system:nodes}
EOF
FAILED_COMPONENT=""

# KTUI_TEST_MINIMAL=1: etcd and kube-apiserver only (no nodes, controller-manager or
# scheduler), for a test's own cluster that it restarts, freezes or rolls back: nothing else
# writes to etcd, and nothing else is disturbed. (The viewer's `view` role stays empty:
# aggregating it is the controller-manager's job.)
if [[ "${KTUI_TEST_MINIMAL:-0}" == 1 ]]; then
  printf 'export KUBECONFIG=%q\nexport KUBECTL=%q\n' "$DIR/kubeconfig" "$BIN/kubectl" >"$DIR/env"
  trap - EXIT
  log "minimal cluster (etcd + kube-apiserver) up in $((SECONDS - START)) s: https://127.0.0.1:$API_PORT (source $DIR/env)"
  exit 0
fi

# --- hollow nodes ------------------------------------------------------------------------
# Started now, so they register while the controller-manager and scheduler come up. Each
# sets its own node up (address 127.0.0.1, labels, start-up taints lifted once Ready).
for ((i = 1; i <= NODES; i++)); do
  role=worker taints=""
  if (( i == 1 && NODES >= 2 )); then
    role=control-plane taints="node-role.kubernetes.io/control-plane=:NoSchedule"
  fi
  mkdir -p "$DIR/node-$i"
  start "hollow-node-$i" "$BIN/hollow-kubelet" --kubeconfig "$DIR/node-$i.kubeconfig" \
    --name "node-$i" --port "${NODE_PORTS[i]}" --root-dir "$DIR/node-$i" --node-index "$i" \
    --labels "node-role.kubernetes.io/$role=,topology.kubernetes.io/zone=zone-$i" \
    --register-with-taints "$taints"
done

# --- controller-manager and scheduler ---------------------------------------------------
# node-lifecycle-controller is off: nodes are never lost here, and on a busy machine a late
# heartbeat would otherwise get a node tainted NotReady in the middle of a test.
start kube-controller-manager "$BIN/kube-controller-manager" \
  --kubeconfig "$DIR/kcm.kubeconfig" \
  --authentication-kubeconfig "$DIR/kcm.kubeconfig" --authorization-kubeconfig "$DIR/kcm.kubeconfig" \
  --bind-address 127.0.0.1 --secure-port "$KCM_PORT" --cert-dir "$DIR/kcm-certs" \
  --leader-elect=false --use-service-account-credentials=true \
  --controllers '*,-node-lifecycle-controller' \
  --service-account-private-key-file "$PKI/sa.key" --root-ca-file "$PKI/ca.crt" \
  --cluster-signing-cert-file "$PKI/ca.crt" --cluster-signing-key-file "$PKI/ca.key" \
  --service-cluster-ip-range 10.0.0.0/24
start kube-scheduler "$BIN/kube-scheduler" \
  --kubeconfig "$DIR/scheduler.kubeconfig" \
  --authentication-kubeconfig "$DIR/scheduler.kubeconfig" --authorization-kubeconfig "$DIR/scheduler.kubeconfig" \
  --bind-address 127.0.0.1 --secure-port "$SCHED_PORT" --cert-dir "$DIR/scheduler-certs" \
  --leader-elect=false
wait_http kube-controller-manager "https://127.0.0.1:$KCM_PORT/healthz" -k
wait_http kube-scheduler "https://127.0.0.1:$SCHED_PORT/healthz" -k
# The built-in view ClusterRole is aggregated: its rules appear once kcm's
# clusterrole-aggregation controller has run. Wait until the viewer can read team-a.
FAILED_COMPONENT=kube-controller-manager
for _ in $(seq 150); do
  [[ "$("${KC[@]}" auth can-i list pods -n team-a --as ktui-viewer 2>/dev/null || true)" == yes ]] && break
  sleep 0.2
done
[[ "$("${KC[@]}" auth can-i list pods -n team-a --as ktui-viewer 2>/dev/null || true)" == yes ]] ||
  { log "the view ClusterRole was never aggregated"; exit 1; }
FAILED_COMPONENT=""

# --- nodes Ready and schedulable -------------------------------------------------------------
# node-I: Ready, InternalIP 127.0.0.1, no uninitialized/not-ready taint left.
nodes_ready() {
  local out want i rest
  out="$("${KC[@]}" get nodes -o jsonpath='{range .items[*]}{.metadata.name}={.status.conditions[?(@.type=="Ready")].status},{.status.addresses[?(@.type=="InternalIP")].address},{.spec.taints[*].key};{end}' 2>/dev/null)" || return 1
  for ((i = 1; i <= NODES; i++)); do
    want="node-$i=True,127.0.0.1,"
    [[ ";$out" == *";$want"* ]] || return 1
    rest="${out#*"$want"}"; rest="${rest%%;*}"
    [[ "$rest" != *uninitialized* && "$rest" != *not-ready* ]] || return 1
  done
}
NODES_START=$SECONDS
until nodes_ready; do
  for ((i = 1; i <= NODES; i++)); do
    if ! kill -0 "$(cat "$DIR/hollow-node-$i.pid")" 2>/dev/null; then
      FAILED_COMPONENT=hollow-node-$i; log "hollow-node-$i exited"; exit 1
    fi
  done
  if (( SECONDS - NODES_START > 60 )); then
    FAILED_COMPONENT=hollow-node-1; log "nodes not Ready and schedulable after 60 s"
    "${KC[@]}" get nodes -o wide >&2 || true
    exit 1
  fi
  sleep 0.2
done
FAILED_COMPONENT=""

# --- the caller's view ------------------------------------------------------------------
printf 'export KUBECONFIG=%q\nexport KUBECTL=%q\n' "$DIR/kubeconfig" "$BIN/kubectl" >"$DIR/env"
trap - EXIT
log "cluster up in $((SECONDS - START)) s with $NODES hollow nodes: https://127.0.0.1:$API_PORT (source $DIR/env)"
