// The hollow kubelet's terminals: `exec -t` runs its command on a pty of its own (so a
// client's terminal size and resizes reach it: `stty size` answers them), and attach
// reaches a container's main process — a command named by the container's
// HOLLOW_ATTACH_CMD (e.g. "sh"), started on a pty by the first attach and kept until it
// exits or the container stops, so a second attach finds the state the first one left.
// This file owns those ptys; it must not decide what a container does otherwise.
package main

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"
	remotecommandserver "k8s.io/cri-streaming/pkg/streaming/remotecommand"
)

// envAttachCmd names the main process attach reaches (split on spaces).
const envAttachCmd = "HOLLOW_ATTACH_CMD"

// execTTY runs cmd for container id (see command) on a new pty, resizes applied as they
// come, until it exits (its exit code) or ctx ends (the session is killed).
func (r *runtime) execTTY(ctx context.Context, id string, cmd []string, in io.Reader, out io.Writer, resize <-chan remotecommandserver.TerminalSize) error {
	p, err := r.command(ctx, id, cmd, out)
	if err != nil {
		return err
	}
	tty, err := pty.StartWithAttrs(p, firstSize(resize), &syscall.SysProcAttr{Setsid: true, Setctty: true, Pdeathsig: syscall.SIGKILL})
	if err != nil {
		return err
	}
	defer tty.Close()
	go applySizes(tty, resize)
	if in != nil {
		go io.Copy(tty, in)
	}
	copied := make(chan struct{})
	go func() {
		io.Copy(out, tty) // ends with EIO once the last process holding the pty exits
		close(copied)
	}()
	err = p.Wait()
	// the rest of its output; a child left holding the pty must not hold the session
	select {
	case <-copied:
	case <-time.After(time.Second):
	}
	return exitStatus(err)
}

// mainProc is a container's main process for attach: its pty, and the client attached now.
type mainProc struct {
	tty    *os.File
	exited chan struct{} // closed when the process has exited

	mu  sync.Mutex
	out io.Writer // the attached client's stdout, or nil (output is then dropped)
}

// pump copies the process's output to whoever is attached, until the pty closes.
func (m *mainProc) pump() {
	buf := make([]byte, 32<<10)
	for {
		n, err := m.tty.Read(buf)
		if n > 0 {
			m.mu.Lock()
			if m.out != nil {
				m.out.Write(buf[:n])
			}
			m.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// mainOf returns container id's main process, starting it (with the first client's size and
// output, so its first prompt reaches that client) if it is not running; it is killed when
// the container stops.
func (r *runtime) mainOf(id string, size *pty.Winsize, out io.Writer) (*mainProc, error) {
	c := r.container(id)
	if c == nil {
		return nil, errors.New("container " + id + " not found")
	}
	line, ok := envValue(c.envList, envAttachCmd)
	if !ok || strings.TrimSpace(line) == "" {
		return nil, errors.New("attach is not supported by the hollow kubelet (the container's env has no " + envAttachCmd + ")")
	}
	c.mainMu.Lock()
	defer c.mainMu.Unlock()
	if m := c.main; m != nil {
		select {
		case <-m.exited:
		default:
			return m, nil
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	p, err := r.command(ctx, id, strings.Fields(line), nil)
	if err != nil {
		cancel()
		return nil, err
	}
	tty, err := pty.StartWithAttrs(p, size, &syscall.SysProcAttr{Setsid: true, Setctty: true, Pdeathsig: syscall.SIGKILL})
	if err != nil {
		cancel()
		return nil, err
	}
	m := &mainProc{tty: tty, exited: make(chan struct{}), out: out}
	c.main = m
	go m.pump()
	go func() {
		p.Wait()
		cancel()
		tty.Close()
		close(m.exited)
	}()
	go func() {
		select {
		case <-c.done: // the container stopped: so does its main process
			cancel()
		case <-m.exited:
		}
	}()
	return m, nil
}

// attach connects the client to container id's main process: its output to out, in to its
// terminal, resizes applied, until the client goes (ctx ends or in closes: the process goes
// on, as after `kubectl attach` detaches) or the process exits. Either way the answer is
// success, as from a real runtime: the streaming server reports no exit code for attach.
func (r *runtime) attach(ctx context.Context, id string, in io.Reader, out io.Writer, resize <-chan remotecommandserver.TerminalSize) error {
	m, err := r.mainOf(id, firstSize(resize), out)
	if err != nil {
		// Answer after a moment, as a runtime's round trip would: hanging up at once races
		// the API server's own stream setup (seen with kube-apiserver 1.37: its client got
		// "write: broken pipe" instead of this error, or a session it never ended).
		select {
		case <-ctx.Done():
		case <-time.After(300 * time.Millisecond):
		}
		return err
	}
	m.mu.Lock()
	m.out = out
	m.mu.Unlock()
	defer func() {
		m.mu.Lock()
		if m.out == out {
			m.out = nil
		}
		m.mu.Unlock()
	}()
	go applySizes(m.tty, resize)
	gone := make(chan struct{})
	if in != nil {
		go func() {
			io.Copy(m.tty, in)
			close(gone)
		}()
	}
	select {
	case <-m.exited:
		return nil
	case <-gone:
		return nil
	case <-ctx.Done():
		return nil
	}
}

// firstSize waits briefly for the client's first terminal size (clients send it at once).
func firstSize(resize <-chan remotecommandserver.TerminalSize) *pty.Winsize {
	if resize == nil {
		return nil
	}
	select {
	case s, ok := <-resize:
		if ok {
			return &pty.Winsize{Cols: s.Width, Rows: s.Height}
		}
	case <-time.After(500 * time.Millisecond):
	}
	return nil
}

// applySizes sets each size the client sends on tty, until the channel closes.
func applySizes(tty *os.File, resize <-chan remotecommandserver.TerminalSize) {
	if resize == nil {
		return
	}
	for s := range resize {
		pty.Setsize(tty, &pty.Winsize{Cols: s.Width, Rows: s.Height})
	}
}
