//! A pseudo-terminal harness for end-to-end tests: runs a program (the real `ktui` binary)
//! on a portable-pty slave, feeds everything it writes into a vt100 parser, and lets the
//! test type keys, read the screen, poll for text and check how the program exits.
//!
//! Declared once in tests/e2e/main.rs (and benches/scale_pty.rs) with `#[path]`. All I/O on the master goes through
//! our own duplicate of its fd (not portable-pty's writer, whose drop types "\n" + EOT), so
//! [`Tui::close_pty`] really closes the terminal without typing anything first.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use portable_pty::{native_pty_system, Child, CommandBuilder, MasterPty, PtySize};

/// How often the polling helpers look at the screen when nothing arrives (a screen change
/// wakes [`Tui::wait_until`] at once, so its latencies are not rounded to this grain).
const POLL: Duration = Duration::from_millis(20);

/// Everything the program wrote so far, raw and as parsed by vt100.
struct Output {
    parser: vt100::Parser,
    raw: Vec<u8>,
    /// The master read hit EOF/EIO: every process holding the slave closed it.
    eof: bool,
    /// Counts reads from the master (a change wakes the waiters of `Tui::changed`).
    seq: u64,
}

/// A program running in a pseudo-terminal of a fixed size.
pub struct Tui {
    /// What was run, for failure messages.
    pub label: String,
    pub rows: u16,
    pub cols: u16,
    /// When the program was spawned.
    pub started: Instant,
    pid: u32,
    child: Box<dyn Child + Send + Sync>,
    master: Option<Box<dyn MasterPty + Send>>,
    /// Our own duplicate of the master fd, for typing.
    writer: Option<File>,
    out: Arc<Mutex<Output>>,
    /// Signalled after each read from the master (paired with `out`).
    changed: Arc<Condvar>,
    stop: Arc<AtomicBool>,
    reader: Option<JoinHandle<()>>,
    /// Exit status once reaped.
    status: Option<portable_pty::ExitStatus>,
    /// A log file whose tail [`Tui::dump`] appends (the program's `--log-file`).
    pub log_file: Option<std::path::PathBuf>,
}

impl Tui {
    /// Spawn `program args…` in a `rows`×`cols` pty with `TERM=xterm-256color` plus `envs`.
    pub fn spawn<S: AsRef<OsStr>>(
        program: impl AsRef<OsStr>,
        args: &[S],
        envs: &[(&str, &OsStr)],
        rows: u16,
        cols: u16,
    ) -> Tui {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("open a pty");
        let mut cmd = CommandBuilder::new(program.as_ref());
        for a in args {
            cmd.arg(a.as_ref());
        }
        cmd.env("TERM", "xterm-256color");
        for (k, v) in envs {
            cmd.env(k, v);
        }
        let label = std::iter::once(program.as_ref())
            .chain(args.iter().map(|a| a.as_ref()))
            .map(|s| s.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" ");
        let fd = pair.master.as_raw_fd().expect("pty master fd");
        let dup = |what: &str| {
            // SAFETY: dup of a valid fd we own; the new fd is owned by the returned File.
            let d = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 0) };
            assert!(
                d >= 0,
                "dup pty master for {what}: {}",
                std::io::Error::last_os_error()
            );
            unsafe { File::from_raw_fd(d) }
        };
        let read_file = dup("reading");
        let writer = dup("writing");
        let started = Instant::now();
        let child = pair
            .slave
            .spawn_command(cmd)
            .unwrap_or_else(|e| panic!("spawn {label}: {e}"));
        // Only the child may hold the slave: its EOF on our side must mean the child let go.
        drop(pair.slave);
        let pid = child.process_id().expect("child pid");
        let out = Arc::new(Mutex::new(Output {
            parser: vt100::Parser::new(rows, cols, 0),
            raw: Vec::new(),
            eof: false,
            seq: 0,
        }));
        let changed = Arc::new(Condvar::new());
        let stop = Arc::new(AtomicBool::new(false));
        let reader = {
            let (out, changed, stop) = (out.clone(), changed.clone(), stop.clone());
            std::thread::spawn(move || read_loop(read_file, out, changed, stop))
        };
        Tui {
            label,
            rows,
            cols,
            started,
            pid,
            child,
            master: Some(pair.master),
            writer: Some(writer),
            out,
            changed,
            stop,
            reader: Some(reader),
            status: None,
            log_file: None,
        }
    }

    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// Resizes the terminal to `rows`×`cols`, as a terminal emulator's window resize does:
    /// the pty's size changes (the program gets SIGWINCH) and so does the screen parsed.
    pub fn resize(&mut self, rows: u16, cols: u16) {
        let master = self.master.as_ref().expect("pty already closed");
        master
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("resize the pty");
        self.out.lock().unwrap().parser.screen_mut().set_size(rows, cols);
        (self.rows, self.cols) = (rows, cols);
    }

    /// Type raw bytes (keys) into the terminal.
    pub fn send(&mut self, bytes: impl AsRef<[u8]>) {
        let w = self.writer.as_mut().expect("pty already closed");
        w.write_all(bytes.as_ref()).expect("write to pty");
        w.flush().expect("flush pty");
    }

    /// Type `keys` one key at a time with a short pause after each, the way a person types
    /// (so a lone ESC is never glued to the next key into an Alt chord).
    pub fn type_keys(&mut self, keys: &str) {
        for c in keys.chars() {
            let mut b = [0u8; 4];
            self.send(c.encode_utf8(&mut b).as_bytes());
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    pub fn press_esc(&mut self) {
        self.send(b"\x1b");
        // crossterm tells a lone ESC from an escape sequence by the bytes that follow
        std::thread::sleep(Duration::from_millis(80));
    }

    pub fn press_enter(&mut self) {
        self.send(b"\r");
        std::thread::sleep(Duration::from_millis(30));
    }

    pub fn press_ctrl_c(&mut self) {
        self.send(b"\x03");
    }

    /// Type `:cmd` and enter.
    pub fn command(&mut self, cmd: &str) {
        self.type_keys(":");
        self.type_keys(cmd);
        self.press_enter();
    }

    /// The screen as lines of text (trailing blanks trimmed).
    pub fn lines(&self) -> Vec<String> {
        let out = self.out.lock().unwrap();
        let screen = out.parser.screen();
        screen
            .rows(0, self.cols)
            .map(|l| l.trim_end().to_string())
            .collect()
    }

    /// The screen as one string, lines joined by '\n'.
    pub fn screen(&self) -> String {
        self.lines().join("\n")
    }

    /// Screen line `n` (0-based), or "" past the end.
    pub fn line(&self, n: usize) -> String {
        self.lines().into_iter().nth(n).unwrap_or_default()
    }

    /// A copy of all raw bytes the program wrote.
    pub fn raw(&self) -> Vec<u8> {
        self.out.lock().unwrap().raw.clone()
    }

    /// How many raw bytes the program wrote so far.
    pub fn raw_len(&self) -> usize {
        self.out.lock().unwrap().raw.len()
    }

    /// A copy of the raw bytes from offset `start` on (empty past the end).
    pub fn raw_from(&self, start: usize) -> Vec<u8> {
        let out = self.out.lock().unwrap();
        out.raw.get(start..).unwrap_or_default().to_vec()
    }

    pub fn raw_contains(&self, needle: &str) -> bool {
        let out = self.out.lock().unwrap();
        find(&out.raw, needle.as_bytes()).is_some()
    }

    /// Whether vt100 thinks the alternate screen is active / the cursor hidden.
    pub fn alternate_screen(&self) -> bool {
        self.out.lock().unwrap().parser.screen().alternate_screen()
    }

    pub fn cursor_hidden(&self) -> bool {
        self.out.lock().unwrap().parser.screen().hide_cursor()
    }

    /// The pty's current termios (shared by master and slave on Linux).
    pub fn termios(&self) -> Option<libc::termios> {
        let w = self.writer.as_ref()?;
        // SAFETY: tcgetattr fills a plain-old-data struct.
        let mut t: libc::termios = unsafe { std::mem::zeroed() };
        (unsafe { libc::tcgetattr(w.as_raw_fd(), &mut t) } == 0).then_some(t)
    }

    /// A failure report: what ran, how long ago, and the screen as it is now.
    pub fn dump(&self) -> String {
        let elapsed = self.started.elapsed();
        let eof = self.out.lock().unwrap().eof;
        let mut s = format!(
            "--- screen of `{}` (pid {}, {:.2?} after spawn{}) ---\n",
            self.label,
            self.pid,
            elapsed,
            if eof { ", pty closed by the program" } else { "" }
        );
        for (i, l) in self.lines().iter().enumerate() {
            s.push_str(&format!("{i:2}|{l}\n"));
        }
        s.push_str("--- end of screen ---");
        if let Some(path) = &self.log_file {
            let text = std::fs::read_to_string(path).unwrap_or_default();
            let lines: Vec<&str> = text.lines().collect();
            s.push_str(&format!("\n--- last lines of {} ---\n", path.display()));
            for l in &lines[lines.len().saturating_sub(15)..] {
                s.push_str(l);
                s.push('\n');
            }
            s.push_str("--- end of log ---");
        }
        s
    }

    /// Poll the screen until `pred(screen text)` holds; returns how long that took (measured
    /// from the call). Panics with `what` and a screen dump after `timeout`.
    pub fn wait_until(&self, what: &str, timeout: Duration, pred: impl Fn(&str) -> bool) -> Duration {
        self.try_wait_until(timeout, pred)
            .unwrap_or_else(|| panic!("timed out after {timeout:?} waiting for {what}\n{}", self.dump()))
    }

    /// [`Tui::wait_until`] that gives up with `None` after `timeout` instead of panicking.
    pub fn try_wait_until(&self, timeout: Duration, pred: impl Fn(&str) -> bool) -> Option<Duration> {
        self.try_wait_output(timeout, |_| pred(&self.screen()))
    }

    /// Polls until `pred(self)` holds, waking at each read from the master (or every POLL);
    /// returns how long that took, or `None` after `timeout`. For conditions on the raw
    /// output (a line that scrolled off the screen) as well as on the screen.
    pub fn try_wait_output(&self, timeout: Duration, mut pred: impl FnMut(&Tui) -> bool) -> Option<Duration> {
        let t0 = Instant::now();
        loop {
            let seq = self.out.lock().unwrap().seq;
            if pred(self) {
                return Some(t0.elapsed());
            }
            if t0.elapsed() > timeout {
                return None;
            }
            // Sleep until the next read from the master (or POLL), unless one came meanwhile.
            let out = self.out.lock().unwrap();
            if out.seq == seq {
                drop(self.changed.wait_timeout(out, POLL).unwrap());
            }
        }
    }

    /// Poll until the screen contains `text`; returns how long that took.
    pub fn wait_for(&self, text: &str, timeout: Duration) -> Duration {
        self.wait_until(&format!("{text:?} on screen"), timeout, |s| s.contains(text))
    }

    /// Poll until the screen no longer contains `text`; returns how long that took.
    pub fn wait_gone(&self, text: &str, timeout: Duration) -> Duration {
        self.wait_until(&format!("{text:?} to leave the screen"), timeout, |s| {
            !s.contains(text)
        })
    }

    /// Reap the child if it has exited.
    pub fn try_wait(&mut self) -> Option<portable_pty::ExitStatus> {
        if self.status.is_none() {
            self.status = self.child.try_wait().expect("try_wait");
        }
        self.status.clone()
    }

    /// Wait up to `timeout` for the program to exit; returns its status and how long it
    /// took, or `None` if it is still running.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<(portable_pty::ExitStatus, Duration)> {
        let t0 = Instant::now();
        loop {
            if let Some(s) = self.try_wait() {
                return Some((s, t0.elapsed()));
            }
            if t0.elapsed() > timeout {
                return None;
            }
            std::thread::sleep(POLL);
        }
    }

    /// Wait until the reader saw EOF (the program and its children let go of the pty), so
    /// that [`Tui::raw`] holds everything it wrote. Returns whether that happened in time.
    pub fn wait_output_done(&self, timeout: Duration) -> bool {
        let t0 = Instant::now();
        while t0.elapsed() < timeout {
            if self.out.lock().unwrap().eof {
                return true;
            }
            std::thread::sleep(POLL);
        }
        false
    }

    /// Send a signal to the program.
    pub fn signal(&self, sig: libc::c_int) {
        // SAFETY: plain kill(2) on our own child's pid (not yet reaped: we reap only here).
        let rc = unsafe { libc::kill(self.pid as libc::pid_t, sig) };
        assert_eq!(
            rc,
            0,
            "kill({}, {sig}): {}",
            self.pid,
            std::io::Error::last_os_error()
        );
    }

    /// Close our side of the terminal: stop the reader and close every fd we hold on the
    /// master, so the program sees a hangup.
    pub fn close_pty(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(h) = self.reader.take() {
            let _ = h.join();
        }
        self.writer = None;
        self.master = None;
    }
}

impl Drop for Tui {
    /// Never leave the program behind: SIGKILL it if it is still running, then reap it.
    fn drop(&mut self) {
        if self.try_wait().is_none() {
            // SAFETY: the child is not reaped yet, so the pid is still ours.
            unsafe { libc::kill(self.pid as libc::pid_t, libc::SIGKILL) };
            let _ = self.child.wait();
        }
        self.close_pty();
    }
}

/// Read the master until EOF/EIO or until `stop`, feeding the parser.
fn read_loop(mut file: File, out: Arc<Mutex<Output>>, changed: Arc<Condvar>, stop: Arc<AtomicBool>) {
    let mut buf = [0u8; 16 * 1024];
    while !stop.load(Ordering::SeqCst) {
        let mut pfd = libc::pollfd {
            fd: file.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd.
        let n = unsafe { libc::poll(&mut pfd, 1, 50) };
        if n < 0 {
            if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            break;
        }
        if n == 0 {
            continue;
        }
        match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                let mut o = out.lock().unwrap();
                o.raw.extend_from_slice(&buf[..n]);
                o.parser.process(&buf[..n]);
                o.seq += 1;
                drop(o);
                changed.notify_all();
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break, // EIO: the slave side is closed
        }
    }
    out.lock().unwrap().eof = true;
}

/// Byte offset of the first `needle` in `hay`.
pub fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Byte offset of the last `needle` in `hay`.
pub fn rfind(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}
