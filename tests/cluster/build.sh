#!/usr/bin/env bash
# Build the real-tier test binaries from source with the ordinary `go` command:
#   kube-apiserver, kube-controller-manager, kube-scheduler, kubectl  (k8s.io/kubernetes)
#   hollow-kubelet             (our main in kubebins/hollowkubelet, on k8s.io/kubernetes)
#   etcd                                                              (go.etcd.io/etcd/server/v3)
# into $KTUI_TEST_BIN (default ~/.cache/ktui-test/bin). A binary that already reports
# the wanted version is not rebuilt (hollow-kubelet: the wanted version and a hash of its
# sources, go.mod and go.sum), so a warm run takes about a second.
# Usage: tests/cluster/build.sh        (prints the bin dir on its last line)
set -euo pipefail
# The whole script is one { ... } block: bash reads it completely before running it, so an
# edit to this file during a long build cannot derail the running copy.
{

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
K8S_VERSION=v1.37.2   # keep in step with kubebins/go.mod
ETCD_VERSION=3.7.3    # keep in step with etcdbin/go.mod
BIN="${KTUI_TEST_BIN:-${HOME:?set HOME or KTUI_TEST_BIN}/.cache/ktui-test/bin}"
mkdir -p "$BIN"
BIN="$(cd "$BIN" && pwd)"

export CGO_ENABLED=0
export GOFLAGS="${GOFLAGS:-} -buildvcs=false -mod=readonly"

log() { echo "build.sh: $*" >&2; }

# One build at a time per bin dir (run.sh and a test's start_cluster may race).
exec 9>"$BIN/.build.lock"
flock 9

# True when binary $1, run with the remaining args, prints the wanted version string.
has_version() {
  local bin="$1" want="$2"; shift 2
  [[ -x "$BIN/$bin" ]] || return 1
  local out; out="$("$BIN/$bin" "$@" 2>/dev/null)" || return 1
  [[ "$out" == *"$want"* ]]
}

# Fail fast (before a 15-minute compile) if a module is still at v0.0.0 without a
# replace line: k8s.io/kubernetes's own staging replaces are not inherited.
guard() {
  local bad
  bad="$(cd "$1" && go list -m all | awk '$2 == "v0.0.0" && $3 != "=>"')"
  if [[ -n "$bad" ]]; then
    log "unreplaced v0.0.0 modules in $1/go.mod:"; echo "$bad" >&2; exit 1
  fi
}

# build_into_bin MODULE_DIR OUT GO_BUILD_ARGS...: go build into a scratch dir inside
# $BIN (OUT: a file name, or "" for one binary per package), then rename into $BIN, so a
# cached binary is never half-written.
build_into_bin() {
  local dir="$1" out="$2"; shift 2
  local tmp; tmp="$(mktemp -d "$BIN/.tmp.XXXXXX")"
  go -C "$dir" build -trimpath -o "$tmp/$out" "$@" || { rm -rf "$tmp"; return 1; }
  mv -f "$tmp"/* "$BIN/"
  rm -rf "$tmp"
}

minor="${K8S_VERSION#v1.}"; minor="${minor%%.*}"
ldflags="-s -w"
# Stamp the version in both places kubernetes reads it from; unstamped, /version and
# `kubectl version` say v0.0.0-master (and a kubelet registers as v0.0.0-master).
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ldflags+=" -X $pkg.gitVersion=$K8S_VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
  ldflags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z"
done

if has_version kube-apiserver "Kubernetes $K8S_VERSION" --version &&
   has_version kube-controller-manager "Kubernetes $K8S_VERSION" --version &&
   has_version kube-scheduler "Kubernetes $K8S_VERSION" --version &&
   has_version kubectl "Client Version: $K8S_VERSION" version --client; then
  log "kubernetes $K8S_VERSION binaries cached in $BIN"
else
  log "building kubernetes $K8S_VERSION binaries (cold: ~10 min on 2 idle cores) ..."
  guard "$HERE/kubebins"
  build_into_bin "$HERE/kubebins" "" -ldflags "$ldflags" \
    k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager \
    k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kubectl
fi

# hollow-kubelet is our own code: its stamp also covers its sources, so an edit rebuilds it.
HOLLOW_STAMP="$(cd "$HERE/kubebins" && cat go.mod go.sum hollowkubelet/*.go | sha256sum | cut -c1-16)"
if has_version hollow-kubelet "Kubernetes $K8S_VERSION stamp $HOLLOW_STAMP" --version; then
  log "hollow-kubelet ($HOLLOW_STAMP) cached in $BIN"
else
  log "building hollow-kubelet (cold, after the kube binaries: ~2 min) ..."
  guard "$HERE/kubebins"
  build_into_bin "$HERE/kubebins" hollow-kubelet \
    -ldflags "$ldflags -X main.stamp=$HOLLOW_STAMP" ./hollowkubelet
fi

if has_version etcd "etcd Version: $ETCD_VERSION" --version; then
  log "etcd $ETCD_VERSION cached in $BIN"
else
  log "building etcd $ETCD_VERSION (cold: ~2 min) ..."
  guard "$HERE/etcdbin"
  # -o names the file: go would otherwise call it after the path element before /v3 ("server")
  build_into_bin "$HERE/etcdbin" etcd -ldflags "-s -w" go.etcd.io/etcd/server/v3
fi

has_version kube-apiserver "Kubernetes $K8S_VERSION" --version || { log "kube-apiserver version check failed"; exit 1; }
has_version kubectl "Client Version: $K8S_VERSION" version --client || { log "kubectl version check failed"; exit 1; }
has_version etcd "etcd Version: $ETCD_VERSION" --version || { log "etcd version check failed"; exit 1; }
has_version hollow-kubelet "stamp $HOLLOW_STAMP" --version || { log "hollow-kubelet version check failed"; exit 1; }
echo "$BIN"
exit 0
}
