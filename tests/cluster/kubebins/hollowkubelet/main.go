// hollow-kubelet: one test-cluster node for ktui's real test tier. The real kubelet code
// (k8s.io/kubernetes/cmd/kubelet/app.RunKubelet, set up through kubemark's
// GetHollowKubeletConfig / NewHollowKubelet) driving an in-process fake container runtime
// (runtime.go) whose containers follow HOLLOW_* env vars, with exec and port-forward served
// by the CRI streaming server (streaming.go). This file owns the command line, the wiring,
// and the node's set-up in the API (loopback address, labels, start-up taints lifted).
// Only the test cluster uses it (tests/cluster/up.sh); see tests/cluster/README.md.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	clientset "k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/component-base/version"
	apitest "k8s.io/cri-api/pkg/apis/testing"
	"k8s.io/klog/v2"
	kubeletapp "k8s.io/kubernetes/cmd/kubelet/app"
	"k8s.io/kubernetes/cmd/kubelet/app/options"
	cadvisortest "k8s.io/kubernetes/pkg/kubelet/cadvisor/testing"
	"k8s.io/kubernetes/pkg/kubelet/cm"
	"k8s.io/kubernetes/pkg/kubemark"
)

// stamp is set by build.sh (-X main.stamp=...): a hash of this module's sources, printed
// by --version so a warm build.sh can tell a stale binary from a current one.
var stamp = "dev"

func main() {
	var (
		kubeconfig = flag.String("kubeconfig", "", "kubeconfig of the node's API user")
		name       = flag.String("name", "node-1", "node name")
		port       = flag.Int("port", 10250, "HTTPS port of the kubelet API, on 127.0.0.1")
		rootDir    = flag.String("root-dir", "", "directory for all of this node's files (created)")
		nodeIndex  = flag.Int("node-index", 1, "1..150: pod IPs are 10.(100+index).x.y")
		labels     = flag.String("labels", "", "extra node labels k=v,k=v (node-role.kubernetes.io/* allowed)")
		taints     = flag.String("register-with-taints", "", "taints k=v:Effect,k:Effect the node registers with")
		backoffMax = flag.Duration("max-restart-backoff", 40*time.Second, "longest CrashLoopBackOff delay (kubelet default 5m)")
		showVer    = flag.Bool("version", false, "print the version and exit")
	)
	klog.InitFlags(nil)
	flag.Parse()
	if *showVer {
		fmt.Printf("hollow-kubelet Kubernetes %s stamp %s\n", version.Get().GitVersion, stamp)
		return
	}
	if *kubeconfig == "" || *rootDir == "" {
		fmt.Fprintln(os.Stderr, "hollow-kubelet: --kubeconfig and --root-dir are required")
		os.Exit(2)
	}
	if err := run(*kubeconfig, *name, *port, *rootDir, *nodeIndex, *labels, *taints, *backoffMax); err != nil {
		klog.ErrorS(err, "hollow-kubelet failed")
		os.Exit(1)
	}
}

func run(kubeconfig, name string, port int, rootDir string, nodeIndex int, labelArg, taintArg string, backoffMax time.Duration) error {
	ctx, cancel := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer cancel()

	root, err := filepath.Abs(rootDir)
	if err != nil {
		return err
	}
	// Any temp file goes under root too.
	tmp := filepath.Join(root, "tmp")
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return err
	}
	os.Setenv("TMPDIR", tmp)

	nodeLabels, err := parseLabels(labelArg)
	if err != nil {
		return err
	}
	registerTaints, err := parseTaints(taintArg)
	if err != nil {
		return err
	}

	restConfig, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return fmt.Errorf("kubeconfig %s: %w", kubeconfig, err)
	}
	restConfig.UserAgent = "hollow-kubelet/" + name
	restConfig.ContentType = "application/vnd.kubernetes.protobuf"
	restConfig.QPS, restConfig.Burst = 50, 100
	client, err := clientset.NewForConfig(restConfig)
	if err != nil {
		return err
	}

	f, c := kubemark.GetHollowKubeletConfig(&kubemark.HollowKubeletOptions{
		NodeName:            name,
		KubeletPort:         port,
		KubeletReadOnlyPort: 0,
		MaxPods:             110,
		PodsPerCore:         0,
		RegisterWithTaints:  registerTaints,
	})
	// kubemark makes its root dir (with static-pods and pod-logs in it) in a hard-coded
	// /tmp/hollow-kubelet.*: move all of it under root.
	if strings.HasPrefix(f.RootDirectory, "/tmp/hollow-kubelet.") {
		os.RemoveAll(f.RootDirectory)
	}
	f.RootDirectory = filepath.Join(root, "kubelet")
	c.StaticPodPath = filepath.Join(f.RootDirectory, "static-pods")
	c.PodLogsDir = filepath.Join(f.RootDirectory, "pod-logs")
	for _, d := range []string{c.StaticPodPath, c.PodLogsDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	// Loopback only. The kubelet refuses a loopback node IP, so the node runs as if a cloud
	// provider (setUpNode below) owned its addresses.
	c.Address = "127.0.0.1"
	f.CloudProvider = "external"
	f.CertDirectory = filepath.Join(f.RootDirectory, "pki")
	c.CrashLoopBackOff.MaxContainerRestartPeriod = &metav1.Duration{Duration: backoffMax}
	// as a kubeadm cluster has it (without, every pod sync warns MissingClusterDNS); no DNS
	// server answers there, nothing in a hollow pod resolves names
	c.ClusterDNS = []string{"10.0.0.10"}
	c.ClusterDomain = "cluster.local"

	heartbeatConfig := *restConfig
	heartbeatConfig.Timeout = c.NodeStatusUpdateFrequency.Duration
	if lease := time.Duration(c.NodeLeaseDurationSeconds) * time.Second; heartbeatConfig.Timeout > lease {
		heartbeatConfig.Timeout = lease
	}
	heartbeatConfig.QPS = -1
	heartbeatClient, err := clientset.NewForConfig(&heartbeatConfig)
	if err != nil {
		return err
	}

	// HTTPS with a self-signed certificate, as a kubelet without --tls-cert-file (the
	// kube-apiserver does not verify it unless given --kubelet-certificate-authority).
	tlsOptions, err := kubeletapp.InitializeTLS(ctx, f, c)
	if err != nil {
		return fmt.Errorf("serving certificate: %w", err)
	}

	rt, err := newRuntime(filepath.Join(root, "containers"), nodeIndex)
	if err != nil {
		return err
	}
	imageService := apitest.NewFakeImageService()
	go rt.trimCallLogs(ctx, imageService)

	hk := kubemark.NewHollowKubelet(f, c, client, heartbeatClient,
		&machine{cadvisortest.Fake{NodeName: name}}, images{imageService}, rt, cm.NewStubContainerManager())
	deps := hk.KubeletDeps
	deps.TLSOptions = tlsOptions
	// A real event recorder (RunKubelet makes one when Recorder is nil): Pulling, Pulled,
	// Created, Started, Killing, BackOff reach the API.
	deps.Recorder = nil
	deps.EventClient = client.CoreV1()
	deps.ProbeManager = readiness{}

	go setUpNode(ctx, client, name, nodeLabels)
	if err := kubeletapp.RunKubelet(ctx, &options.KubeletServer{
		KubeletFlags:         *f,
		KubeletConfiguration: *c,
	}, deps); err != nil {
		return fmt.Errorf("run kubelet: %w", err)
	}
	<-ctx.Done()
	rt.stopAll()
	klog.InfoS("hollow-kubelet stopping", "node", name)
	return nil
}

// setUpNode does what a cloud controller manager and the node-lifecycle controller would
// do for a new node (up.sh runs neither): status.addresses InternalIP 127.0.0.1 (the
// kubelet keeps addresses someone else set when it runs with an external cloud provider),
// the extra labels, and, once the node is Ready, the uninitialized and not-ready taints
// lifted. Retries until all of that holds, then returns.
func setUpNode(ctx context.Context, client clientset.Interface, name string, labels map[string]string) {
	nodes := client.CoreV1().Nodes()
	for ctx.Err() == nil {
		done, err := setUpNodeOnce(ctx, nodes, name, labels)
		if err != nil {
			klog.V(2).InfoS("node set-up: retrying", "err", err)
		}
		if done {
			klog.InfoS("node set up: address 127.0.0.1, Ready, start-up taints lifted", "node", name)
			return
		}
		select {
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
}

type nodeClient interface {
	Get(ctx context.Context, name string, opts metav1.GetOptions) (*v1.Node, error)
	Patch(ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (*v1.Node, error)
}

func setUpNodeOnce(ctx context.Context, nodes nodeClient, name string, labels map[string]string) (bool, error) {
	node, err := nodes.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return false, err // not registered yet
	}
	wantAddrs := []v1.NodeAddress{{Type: v1.NodeInternalIP, Address: "127.0.0.1"}, {Type: v1.NodeHostName, Address: name}}
	if !sameAddresses(node.Status.Addresses, wantAddrs) {
		patch, _ := json.Marshal(map[string]any{"status": map[string]any{"addresses": wantAddrs}})
		if node, err = nodes.Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{}, "status"); err != nil {
			return false, err
		}
	}
	missing := map[string]string{}
	for k, v := range labels {
		if have, ok := node.Labels[k]; !ok || have != v {
			missing[k] = v
		}
	}
	if len(missing) > 0 {
		patch, _ := json.Marshal(map[string]any{"metadata": map[string]any{"labels": missing}})
		if node, err = nodes.Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
			return false, err
		}
	}
	if !isReady(node) {
		return false, nil
	}
	kept := []v1.Taint{}
	for _, t := range node.Spec.Taints {
		if t.Key != "node.cloudprovider.kubernetes.io/uninitialized" && t.Key != v1.TaintNodeNotReady {
			kept = append(kept, t)
		}
	}
	if len(kept) != len(node.Spec.Taints) {
		// resourceVersion makes it a compare-and-swap of the whole taint list.
		patch, _ := json.Marshal(map[string]any{
			"metadata": map[string]any{"resourceVersion": node.ResourceVersion},
			"spec":     map[string]any{"taints": kept},
		})
		if _, err = nodes.Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
			return false, err
		}
	}
	return true, nil
}

func sameAddresses(a, b []v1.NodeAddress) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func isReady(node *v1.Node) bool {
	for _, c := range node.Status.Conditions {
		if c.Type == v1.NodeReady {
			return c.Status == v1.ConditionTrue
		}
	}
	return false
}

func parseLabels(s string) (map[string]string, error) {
	out := map[string]string{}
	for _, kv := range strings.Split(s, ",") {
		if kv == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("bad label %q (want k=v)", kv)
		}
		out[k] = v
	}
	return out, nil
}

func parseTaints(s string) ([]v1.Taint, error) {
	var out []v1.Taint
	for _, t := range strings.Split(s, ",") {
		if t == "" {
			continue
		}
		kv, effect, ok := strings.Cut(t, ":")
		if !ok {
			return nil, fmt.Errorf("bad taint %q (want k=v:Effect)", t)
		}
		k, v, _ := strings.Cut(kv, "=")
		out = append(out, v1.Taint{Key: k, Value: v, Effect: v1.TaintEffect(effect)})
	}
	return out, nil
}
