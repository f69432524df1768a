// The hollow kubelet's streaming side: the CRI streaming server (k8s.io/cri-streaming, the
// one containerd embeds) on a loopback port, behind the kubelet's /exec, /attach and
// /portforward. This file owns what those streams do: exec runs the command on the host,
// in the container's working dir with the container's env (stdin, stdout, stderr and the
// exit code pass through; a PATH in the container's env is where the command is looked up,
// so a test can leave bash out; -t runs it on a pty of its own, tty.go); port-forward
// connects to 127.0.0.1:PORT on the host; attach reaches a main process (tty.go) only for
// containers whose env names one in HOLLOW_ATTACH_CMD, and is refused otherwise.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/cri-streaming/pkg/streaming"
	remotecommandserver "k8s.io/cri-streaming/pkg/streaming/remotecommand"
	"k8s.io/klog/v2"
	utilexec "k8s.io/utils/exec"
)

// startStreaming serves the streaming server on 127.0.0.1 (a port of its own choosing; the
// kubelet proxies to the URLs it hands out, so nothing else needs to know the port).
func startStreaming(r *runtime) (streaming.Server, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	config := streaming.DefaultConfig
	config.Addr = l.Addr().String()
	config.BaseURL = &url.URL{Scheme: "http", Host: l.Addr().String()}
	s, err := streaming.NewServer(config, streamRuntime{r})
	if err != nil {
		l.Close()
		return nil, err
	}
	go func() {
		if err := http.Serve(l, s); err != nil {
			klog.ErrorS(err, "streaming server stopped")
		}
	}()
	return s, nil
}

type streamRuntime struct{ r *runtime }

func (s streamRuntime) Exec(ctx context.Context, id string, cmd []string, in io.Reader, out, errOut io.WriteCloser, tty bool, resize <-chan remotecommandserver.TerminalSize) error {
	if tty {
		return s.r.execTTY(ctx, id, cmd, in, out, resize)
	}
	return s.r.execIn(ctx, id, cmd, in, out, errOut)
}

func (s streamRuntime) Attach(ctx context.Context, id string, in io.Reader, out, _ io.WriteCloser, _ bool, resize <-chan remotecommandserver.TerminalSize) error {
	return s.r.attach(ctx, id, in, out, resize)
}

func (s streamRuntime) PortForward(ctx context.Context, _ string, port int32, stream io.ReadWriteCloser) error {
	defer stream.Close()
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(int(port))))
	if err != nil {
		return fmt.Errorf("port-forward to 127.0.0.1:%d: %w", port, err)
	}
	defer conn.Close()
	fromPod := make(chan error, 1)
	go func() {
		_, err := io.Copy(stream, conn)
		fromPod <- err
	}()
	go func() {
		io.Copy(conn, stream)
		// the client is done sending: half-close so the server sees EOF
		if tc, ok := conn.(*net.TCPConn); ok {
			tc.CloseWrite()
		}
	}()
	select {
	case err := <-fromPod:
		return err
	case <-ctx.Done():
		return nil
	}
}

// command prepares cmd for container id: looked up in the container's PATH, in its working
// dir, with its env (after the host's PATH). Nothing is started; a command that cannot be
// found is reported on errOut as runc words it.
func (r *runtime) command(ctx context.Context, id string, cmd []string, errOut io.Writer) (*osexec.Cmd, error) {
	c := r.container(id)
	if c == nil {
		return nil, fmt.Errorf("container %s not found", id)
	}
	if len(cmd) == 0 {
		return nil, errors.New("no command")
	}
	r.Lock()
	rec, ok := r.Containers[id]
	running := ok && rec.State == runtimeapi.ContainerState_CONTAINER_RUNNING
	r.Unlock()
	if !running {
		return nil, fmt.Errorf("container %s is not running", c.name)
	}
	name := cmd[0]
	if path, ok := envValue(c.envList, "PATH"); ok && !strings.Contains(name, "/") {
		found, err := lookIn(path, name)
		if err != nil {
			if errOut != nil {
				fmt.Fprintf(errOut, "exec: %q: executable file not found in $PATH\n", name)
			}
			return nil, err
		}
		name = found
	}
	p := osexec.CommandContext(ctx, name, cmd[1:]...)
	p.Args[0] = cmd[0]
	p.Dir = c.dir
	p.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + c.dir, "HOSTNAME=" + c.pod}, c.envList...)
	// the whole process group (or session, for a pty) dies with ctx and with the kubelet
	p.Cancel = func() error { return syscall.Kill(-p.Process.Pid, syscall.SIGKILL) }
	return p, nil
}

// execIn runs cmd for container id (see command) with pipes, in a process group of its own
// that is killed when ctx ends.
func (r *runtime) execIn(ctx context.Context, id string, cmd []string, in io.Reader, out, errOut io.Writer) error {
	p, err := r.command(ctx, id, cmd, errOut)
	if err != nil {
		return err
	}
	p.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if out != nil {
		p.Stdout = out
	}
	if errOut != nil {
		p.Stderr = errOut
	}
	var stdin io.WriteCloser
	if in != nil {
		var err error
		if stdin, err = p.StdinPipe(); err != nil {
			return err
		}
	}
	if err := p.Start(); err != nil {
		// worded as runc words it
		if errOut != nil && (errors.Is(err, osexec.ErrNotFound) || errors.Is(err, os.ErrNotExist)) {
			fmt.Fprintf(errOut, "exec: %q: executable file not found in $PATH\n", cmd[0])
		}
		return err
	}
	if stdin != nil {
		// copied apart from Wait, so a command that exits without reading stdin to its
		// end does not wait for the client to close it
		go func() {
			io.Copy(stdin, in)
			stdin.Close()
		}()
	}
	return exitStatus(p.Wait())
}

// exitStatus turns a process's exit into what the streaming server reports as an exit code.
func exitStatus(err error) error {
	var exitErr *osexec.ExitError
	if errors.As(err, &exitErr) {
		return &utilexec.ExitErrorWrapper{ExitError: exitErr}
	}
	return err
}

// envValue is the last value of key in a KEY=VALUE list (the last one wins, as for exec).
func envValue(env []string, key string) (string, bool) {
	value, ok := "", false
	for _, kv := range env {
		if k, v, cut := strings.Cut(kv, "="); cut && k == key {
			value, ok = v, true
		}
	}
	return value, ok
}

// lookIn finds the executable name in the directories of path (the container's PATH; Go's
// LookPath would use the kubelet's own).
func lookIn(path, name string) (string, error) {
	for _, dir := range filepath.SplitList(path) {
		candidate := filepath.Join(dir, name)
		if fi, err := os.Stat(candidate); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return candidate, nil
		}
	}
	return "", &osexec.Error{Name: name, Err: osexec.ErrNotFound}
}
