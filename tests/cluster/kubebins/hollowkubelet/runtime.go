// The hollow kubelet's container runtime: the CRI fake from k8s.io/cri-api (sandboxes and
// containers as records, no processes) extended so that containers behave like programs.
// This file owns that behaviour, chosen per container by HOLLOW_* env vars (documented in
// tests/cluster/README.md): CRI-format log files the kubelet serves (`kubectl logs`), exits
// with a code after a while (restarts, CrashLoopBackOff, Jobs), slow stops, readiness
// (the readiness prober stand-in), unique pod IPs per node, images from registry.invalid
// that fail to pull, and the node's machine size.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	apitest "k8s.io/cri-api/pkg/apis/testing"
	"k8s.io/cri-streaming/pkg/streaming"
	"k8s.io/klog/v2"

	cadvisorapi "github.com/google/cadvisor/lib/model"
	cadvisortest "k8s.io/kubernetes/pkg/kubelet/cadvisor/testing"
	probetest "k8s.io/kubernetes/pkg/kubelet/prober/testing"
)

// Env vars a pod spec sets on a container to pick its behaviour.
const (
	envStdout    = "HOLLOW_STDOUT"     // lines written to stdout at start
	envStderr    = "HOLLOW_STDERR"     // lines written to stderr at start
	envTick      = "HOLLOW_TICK"       // Go duration: write HOLLOW_TICK_LINE every interval
	envTickLine  = "HOLLOW_TICK_LINE"  // default "tick {n}"
	envExitAfter = "HOLLOW_EXIT_AFTER" // Go duration: exit after it, with HOLLOW_EXIT_CODE
	envExitCode  = "HOLLOW_EXIT_CODE"  // default 0
	envReady     = "HOLLOW_READY"      // "false": running but never ready
	envStopAfter = "HOLLOW_STOP_AFTER" // Go duration a stop takes (killed: 137 at the grace period)
)

type runtime struct {
	*apitest.FakeRuntimeService
	root      string // per-container working dirs, root/<container id>
	nodeIndex int
	stream    streaming.Server

	mu        sync.Mutex
	nextIP    int
	ctrs      map[string]*container // by container id
	sandboxes map[string]string     // sandbox id -> its log directory
}

// container is what the fake runtime's record lacks: the process stand-in.
type container struct {
	id, name, pod string
	attempt       uint32
	env           map[string]string
	envList       []string // KEY=VALUE, for exec
	dir           string
	logPath       string
	stop          chan struct{}
	stopOnce      sync.Once
	done          chan struct{} // closed when the behaviour goroutine has returned

	logMu sync.Mutex
	log   *os.File

	mainMu sync.Mutex
	main   *mainProc // attach's main process (tty.go), nil until the first attach
}

func newRuntime(root string, nodeIndex int) (*runtime, error) {
	if nodeIndex < 1 || nodeIndex > 150 {
		return nil, fmt.Errorf("--node-index %d out of 1..150", nodeIndex)
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, err
	}
	fake := apitest.NewFakeRuntimeService()
	fake.FakeStatus = &runtimeapi.RuntimeStatus{Conditions: []*runtimeapi.RuntimeCondition{
		{Type: runtimeapi.RuntimeReady, Status: true},
		{Type: runtimeapi.NetworkReady, Status: true},
	}}
	r := &runtime{
		FakeRuntimeService: fake,
		root:               root,
		nodeIndex:          nodeIndex,
		ctrs:               map[string]*container{},
		sandboxes:          map[string]string{},
	}
	s, err := startStreaming(r)
	if err != nil {
		return nil, err
	}
	r.stream = s
	return r, nil
}

// trimCallLogs empties the fakes' call logs every minute (they record every call for unit
// tests and would otherwise grow for as long as the node runs).
func (r *runtime) trimCallLogs(ctx context.Context, images *apitest.FakeImageService) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		r.Lock()
		r.Called = r.Called[:0]
		r.Unlock()
		images.Lock()
		images.Called = images.Called[:0]
		images.Unlock()
	}
}

// RunPodSandbox: a sandbox with a pod IP of its own (10.(100+node).x.y) and its log dir.
func (r *runtime) RunPodSandbox(ctx context.Context, config *runtimeapi.PodSandboxConfig, handler string) (string, error) {
	id, err := r.FakeRuntimeService.RunPodSandbox(ctx, config, handler)
	if err != nil {
		return "", err
	}
	if dir := config.GetLogDirectory(); dir != "" {
		// the kubelet's own MkdirAll goes through kubemark's fake OS interface
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", err
		}
	}
	r.mu.Lock()
	n := r.nextIP
	r.nextIP = (r.nextIP + 1) % (254 * 254)
	r.sandboxes[id] = config.GetLogDirectory()
	r.mu.Unlock()
	ip := fmt.Sprintf("10.%d.%d.%d", 100+r.nodeIndex, n/254, n%254+1)
	if config.GetLinux().GetSecurityContext().GetNamespaceOptions().GetNetwork() == runtimeapi.NamespaceMode_NODE {
		ip = "127.0.0.1" // hostNetwork
	}
	r.Lock()
	if sb, ok := r.Sandboxes[id]; ok {
		sb.Network.Ip = ip
	}
	r.Unlock()
	return id, nil
}

func (r *runtime) RemovePodSandbox(ctx context.Context, id string) error {
	if err := r.FakeRuntimeService.RemovePodSandbox(ctx, id); err != nil {
		return err
	}
	r.mu.Lock()
	dir := r.sandboxes[id]
	delete(r.sandboxes, id)
	r.mu.Unlock()
	if dir != "" {
		os.RemoveAll(dir)
	}
	return nil
}

// CreateContainer: the record gets its log path (the kubelet reads logs from there) and
// the container a working dir (exec runs there).
func (r *runtime) CreateContainer(ctx context.Context, sandboxID string, config *runtimeapi.ContainerConfig, sandboxConfig *runtimeapi.PodSandboxConfig) (string, error) {
	id, err := r.FakeRuntimeService.CreateContainer(ctx, sandboxID, config, sandboxConfig)
	if err != nil {
		return "", err
	}
	logPath := filepath.Join(sandboxConfig.GetLogDirectory(), config.GetLogPath())
	c := &container{
		id:      id,
		name:    config.GetMetadata().GetName(),
		pod:     sandboxConfig.GetMetadata().GetName(),
		attempt: config.GetMetadata().GetAttempt(),
		env:     map[string]string{},
		dir:     filepath.Join(r.root, id),
		logPath: logPath,
		stop:    make(chan struct{}),
		done:    make(chan struct{}),
	}
	for _, kv := range config.GetEnvs() {
		c.env[kv.Key] = string(kv.Value)
		c.envList = append(c.envList, kv.Key+"="+string(kv.Value))
	}
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
		return "", err
	}
	r.Lock()
	if rec, ok := r.Containers[id]; ok {
		rec.LogPath = logPath
	}
	r.Unlock()
	r.mu.Lock()
	r.ctrs[id] = c
	r.mu.Unlock()
	return id, nil
}

func (r *runtime) container(id string) *container {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ctrs[id]
}

// StartContainer marks the record running and starts the container's behaviour.
func (r *runtime) StartContainer(ctx context.Context, id string) error {
	c := r.container(id)
	if c == nil {
		return fmt.Errorf("container %s not found", id)
	}
	f, err := os.OpenFile(c.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	c.log = f
	if err := r.FakeRuntimeService.StartContainer(ctx, id); err != nil {
		f.Close()
		return err
	}
	go r.behave(c)
	return nil
}

// behave is the container's "process": start lines, ticks, and an exit if asked for.
func (r *runtime) behave(c *container) {
	defer close(c.done)
	expand := func(s string, n int) string {
		return strings.NewReplacer("{attempt}", strconv.Itoa(int(c.attempt)), "{n}", strconv.Itoa(n),
			"{container}", c.name, "{pod}", c.pod).Replace(s)
	}
	if s, ok := c.env[envStdout]; ok {
		c.write("stdout", expand(s, 0))
	}
	if s, ok := c.env[envStderr]; ok {
		c.write("stderr", expand(s, 0))
	}
	var tick <-chan time.Time
	if d, err := time.ParseDuration(c.env[envTick]); err == nil && d > 0 {
		t := time.NewTicker(d)
		defer t.Stop()
		tick = t.C
	}
	var exit <-chan time.Time
	if d, err := time.ParseDuration(c.env[envExitAfter]); err == nil && d >= 0 {
		exit = time.After(d)
	}
	tickLine := c.env[envTickLine]
	if tickLine == "" {
		tickLine = "tick {n}"
	}
	for n := 1; ; {
		select {
		case <-c.stop:
			return
		case <-tick:
			c.write("stdout", expand(tickLine, n))
			n++
		case <-exit:
			code, _ := strconv.Atoi(c.env[envExitCode])
			r.exited(c, int32(code))
			return
		}
	}
}

// write appends text to the container's log in the CRI format the kubelet reads: one
// "<RFC 3339 nano time> <stream> F <line>" record per line.
func (c *container) write(stream, text string) {
	c.logMu.Lock()
	defer c.logMu.Unlock()
	if c.log == nil {
		return
	}
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		fmt.Fprintf(&b, "%s %s F %s\n", time.Now().UTC().Format(time.RFC3339Nano), stream, line)
	}
	c.log.WriteString(b.String())
}

func (c *container) closeLog() {
	c.logMu.Lock()
	defer c.logMu.Unlock()
	if c.log != nil {
		c.log.Close()
		c.log = nil
	}
}

// exited records the container's exit, as a runtime reports it (reason Completed or Error).
func (r *runtime) exited(c *container, code int32) {
	c.closeLog()
	r.Lock()
	defer r.Unlock()
	rec, ok := r.Containers[c.id]
	if !ok || rec.State != runtimeapi.ContainerState_CONTAINER_RUNNING {
		return
	}
	rec.State = runtimeapi.ContainerState_CONTAINER_EXITED
	rec.FinishedAt = time.Now().UnixNano()
	rec.ExitCode = code
	rec.Reason = "Completed"
	if code != 0 {
		rec.Reason = "Error"
	}
}

// StopContainer: the container "handles SIGTERM" and exits 0, after HOLLOW_STOP_AFTER if
// set; past the grace period (timeout, in seconds) it is killed instead (137).
func (r *runtime) StopContainer(ctx context.Context, id string, timeout int64) error {
	c := r.container(id)
	if c == nil {
		return r.FakeRuntimeService.StopContainer(ctx, id, timeout)
	}
	code := int32(0)
	if d, err := time.ParseDuration(c.env[envStopAfter]); err == nil && d > 0 {
		grace := time.Duration(timeout) * time.Second
		if d > grace {
			d, code = grace, 137
		}
		select {
		case <-time.After(d):
		case <-c.done: // exited on its own meanwhile
		case <-ctx.Done():
		}
	}
	c.stopOnce.Do(func() { close(c.stop) })
	r.exited(c, code)
	return nil
}

func (r *runtime) RemoveContainer(ctx context.Context, id string) error {
	if err := r.FakeRuntimeService.RemoveContainer(ctx, id); err != nil {
		return err
	}
	r.mu.Lock()
	c := r.ctrs[id]
	delete(r.ctrs, id)
	r.mu.Unlock()
	if c != nil {
		c.stopOnce.Do(func() { close(c.stop) })
		c.closeLog()
		os.RemoveAll(c.dir)
		os.Remove(c.logPath)
	}
	return nil
}

// stopAll ends every container's behaviour (on shutdown).
func (r *runtime) stopAll() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.ctrs {
		c.stopOnce.Do(func() { close(c.stop) })
	}
}

// Exec, Attach and PortForward hand out URLs of the streaming server (streaming.go).
func (r *runtime) Exec(ctx context.Context, req *runtimeapi.ExecRequest) (*runtimeapi.ExecResponse, error) {
	return r.stream.GetExec(req)
}

func (r *runtime) Attach(ctx context.Context, req *runtimeapi.AttachRequest) (*runtimeapi.AttachResponse, error) {
	return r.stream.GetAttach(req)
}

func (r *runtime) PortForward(ctx context.Context, req *runtimeapi.PortForwardRequest) (*runtimeapi.PortForwardResponse, error) {
	return r.stream.GetPortForward(req)
}

// ExecSync runs the command like exec does (exec probes, if a prober ever asks).
func (r *runtime) ExecSync(ctx context.Context, id string, cmd []string, timeout time.Duration) ([]byte, []byte, error) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	var out, errOut strings.Builder
	err := r.execIn(ctx, id, cmd, nil, &out, &errOut)
	return []byte(out.String()), []byte(errOut.String()), err
}

// images is the CRI fake image service, except that an image from a registry under the
// reserved .invalid TLD (registry.invalid/app:1) fails to pull as on a real node, so such
// pods stay Pending in ErrImagePull / ImagePullBackOff.
type images struct{ *apitest.FakeImageService }

func (i images) PullImage(ctx context.Context, image *runtimeapi.ImageSpec, auth *runtimeapi.AuthConfig, sandbox *runtimeapi.PodSandboxConfig) (string, error) {
	ref := image.GetImage()
	if host, _, ok := strings.Cut(ref, "/"); ok && strings.HasSuffix(strings.Split(host, ":")[0], ".invalid") {
		return "", fmt.Errorf("failed to pull and unpack image %q: failed to resolve reference %q: "+
			"failed to do request: dial tcp: lookup %s: no such host", ref, ref, strings.Split(host, ":")[0])
	}
	return i.FakeImageService.PullImage(ctx, image, auth, sandbox)
}

// readiness stands in for the prober manager: a container is started and ready while it
// runs, unless its env says HOLLOW_READY=false (probes in the spec are not run).
// Init containers are ready once they completed (sidecars: while they run).
type readiness struct{ probetest.FakeManager }

func (readiness) UpdatePodStatus(_ context.Context, pod *v1.Pod, status *v1.PodStatus) {
	notReady := map[string]bool{}
	for _, list := range [][]v1.Container{pod.Spec.Containers, pod.Spec.InitContainers} {
		for _, c := range list {
			for _, e := range c.Env {
				if e.Name == envReady && e.Value == "false" {
					notReady[c.Name] = true
				}
			}
		}
	}
	for i := range status.ContainerStatuses {
		cs := &status.ContainerStatuses[i]
		running := cs.State.Running != nil
		cs.Started = &running
		cs.Ready = running && !notReady[cs.Name]
	}
	for i := range status.InitContainerStatuses {
		cs := &status.InitContainerStatuses[i]
		running := cs.State.Running != nil
		cs.Started = &running
		done := cs.State.Terminated != nil && cs.State.Terminated.ExitCode == 0
		cs.Ready = (done || running && isSidecar(pod, cs.Name)) && !notReady[cs.Name]
	}
}

func isSidecar(pod *v1.Pod, name string) bool {
	for _, c := range pod.Spec.InitContainers {
		if c.Name == name {
			return c.RestartPolicy != nil && *c.RestartPolicy == v1.ContainerRestartPolicyAlways
		}
	}
	return false
}

// machine is kubemark's fake cAdvisor with the size and OS the old fake nodes had (4 CPU,
// 8 GiB, Debian 12).
type machine struct{ cadvisortest.Fake }

func (m *machine) VersionInfo() (*cadvisorapi.VersionInfo, error) {
	info, err := m.Fake.VersionInfo()
	if err != nil {
		return nil, err
	}
	info.KernelVersion = "6.1.0-ktui"
	info.ContainerOsVersion = "Debian GNU/Linux 12 (bookworm)"
	return info, nil
}

func (m *machine) MachineInfo(logger klog.Logger) (*cadvisorapi.MachineInfo, error) {
	info, err := m.Fake.MachineInfo(logger)
	if err != nil {
		return nil, err
	}
	info.NumCores = 4
	info.MemoryCapacity = 8 << 30
	return info, nil
}
