//! The demo's simulated shell: a small, clearly labelled stand-in for `/bin/sh` in a demo
//! container (no process runs anywhere). It answers a few commands from the pod object
//! (`hostname`, `env`, `ls`, `cat /etc/os-release`, `echo`, `stty size`, `exit N`…), edits
//! the line as a terminal would when a tty was asked for (echo, backspace, `ctrl-c`,
//! `ctrl-d`), and says `$0: X: not found` (status 127; `sh:` or `ash:`, after the name it was
//! started as, as BusyBox does) for anything else. Pure: bytes in,
//! bytes out; must not touch the network or the store.

use super::words::{split, Word};

mod commands;

/// What the shell knows of its container, read from the pod object.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Container {
    /// `metadata.namespace`.
    pub namespace: String,
    /// `metadata.name` (the hostname, as in a real pod).
    pub pod: String,
    /// `spec.containers[].name`.
    pub name: String,
    /// `spec.containers[].image`.
    pub image: String,
    /// The environment: the kubelet's (`HOSTNAME`, `PATH`, `HOME`, the `kubernetes` service
    /// variables) then `spec.containers[].env` (literal values and `fieldRef`s).
    pub env: Vec<(String, String)>,
    /// `status.podIP`.
    pub ip: String,
}

/// The shells that exist in a demo container (BusyBox-like: `sh` and `ash`, no `bash`).
pub const SHELLS: &[&str] = &["sh", "ash"];

/// The commands a demo container has besides its shells (BusyBox applets).
pub(super) const COMMANDS: &[&str] = &[
    "echo", "hostname", "env", "printenv", "ls", "cat", "pwd", "cd", "whoami", "id", "uname", "ps", "true",
    "false", "exit", "stty", "help", "clear",
];

/// Whether `program` (a name or a path such as `/bin/sh`) exists in a demo container.
pub fn exists(program: &str) -> bool {
    let base = program.rsplit('/').next().unwrap_or(program);
    SHELLS.contains(&base) || COMMANDS.contains(&base)
}

/// What one command line produced.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ran {
    /// Standard output, `\n`-terminated lines.
    pub out: String,
    /// Standard error.
    pub err: String,
    /// `Some(code)` when the line ended the shell (`exit`).
    pub exit: Option<i32>,
}

/// What feeding typed bytes to an interactive shell produced.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Fed {
    /// Terminal output (echo, command output, prompts); `\r\n` line ends with a tty.
    pub out: Vec<u8>,
    /// Standard error without a tty (with one it is merged into `out`).
    pub err: Vec<u8>,
    /// The shell exited with this status.
    pub exit: Option<i32>,
}

/// One shell session.
#[derive(Debug, Clone)]
pub struct Shell {
    c: Container,
    /// The name it was started as (`sh`, `ash`): `$0`.
    name: String,
    tty: bool,
    /// Terminal size as (columns, rows), from the resize channel.
    size: Option<(u16, u16)>,
    status: i32,
    cwd: String,
    line: Vec<u8>,
    /// Inside an escape sequence (arrow keys): bytes are dropped until its final byte.
    escape: bool,
}

impl Shell {
    /// A shell started as `name` (`sh`, `/bin/ash`) in container `c`.
    pub fn new(c: Container, name: &str, tty: bool) -> Shell {
        Shell {
            c,
            name: name.rsplit('/').next().unwrap_or(name).to_owned(),
            tty,
            size: None,
            status: 0,
            cwd: "/".into(),
            line: Vec::new(),
            escape: false,
        }
    }

    /// The terminal was resized to `cols`×`rows` (the resize channel).
    pub fn resize(&mut self, cols: u16, rows: u16) {
        self.size = Some((cols, rows));
    }

    /// The banner an interactive session opens with: says what this is.
    pub fn banner(&self) -> String {
        format!(
            "ktui demo: simulated container {c} of pod {ns}/{pod} ({img}).\n\
             No real process runs here: a small stand-in shell answers a few commands \
             (hostname, env, ls, cat, echo, stty size, exit N; `help` lists them).\n",
            c = self.c.name,
            ns = self.c.namespace,
            pod = self.c.pod,
            img = self.c.image,
        )
    }

    /// The prompt (BusyBox's, for root).
    pub fn prompt(&self) -> String {
        format!("{} # ", self.cwd)
    }

    /// What an interactive session shows first: the banner and the first prompt.
    pub fn greeting(&self) -> Vec<u8> {
        let mut s = self.banner();
        if self.tty {
            s.push_str(&self.prompt());
        }
        self.terminal(&s)
    }

    /// `\n` → `\r\n` with a tty (what the pty's line discipline does).
    fn terminal(&self, s: &str) -> Vec<u8> {
        if self.tty {
            s.replace('\n', "\r\n").into_bytes()
        } else {
            s.as_bytes().to_vec()
        }
    }

    /// Feeds typed bytes (stdin) to the interactive shell.
    pub fn feed(&mut self, bytes: &[u8]) -> Fed {
        let mut fed = Fed::default();
        for &b in bytes {
            if self.escape {
                self.escape = !(b.is_ascii_alphabetic() || b == b'~');
                continue;
            }
            match b {
                b'\r' | b'\n' => {
                    if self.tty {
                        fed.out.extend_from_slice(b"\r\n");
                    }
                    let line = String::from_utf8_lossy(&std::mem::take(&mut self.line)).into_owned();
                    let ran = self.run(&line);
                    if self.tty {
                        fed.out.extend(self.terminal(&ran.out));
                        fed.out.extend(self.terminal(&ran.err));
                    } else {
                        fed.out.extend(ran.out.into_bytes());
                        fed.err.extend(ran.err.into_bytes());
                    }
                    if let Some(code) = ran.exit {
                        fed.exit = Some(code);
                        return fed;
                    }
                    if self.tty {
                        fed.out.extend(self.prompt().into_bytes());
                    }
                }
                _ if !self.tty => self.line.push(b),
                0x7f | 0x08 => {
                    if !self.line.is_empty() {
                        // Drop one whole UTF-8 character.
                        while let Some(last) = self.line.pop() {
                            if last & 0xc0 != 0x80 {
                                break;
                            }
                        }
                        fed.out.extend_from_slice(b"\x08 \x08");
                    }
                }
                0x03 => {
                    self.line.clear();
                    self.status = 130;
                    fed.out.extend_from_slice(b"^C\r\n");
                    fed.out.extend(self.prompt().into_bytes());
                }
                0x04 if self.line.is_empty() => {
                    fed.out.extend_from_slice(b"\r\n");
                    fed.exit = Some(self.status);
                    return fed;
                }
                0x15 => {
                    let n = String::from_utf8_lossy(&self.line).chars().count();
                    self.line.clear();
                    for _ in 0..n {
                        fed.out.extend_from_slice(b"\x08 \x08");
                    }
                }
                0x0c => {
                    fed.out.extend_from_slice(b"\x1b[H\x1b[2J");
                    fed.out.extend(self.prompt().into_bytes());
                    fed.out.extend_from_slice(&self.line);
                }
                0x1b => self.escape = true,
                b if b < 0x20 => {}
                b => {
                    self.line.push(b);
                    fed.out.push(b);
                }
            }
        }
        fed
    }

    /// Runs one command line (`;` separates commands); `$?` is kept.
    pub fn run(&mut self, line: &str) -> Ran {
        let mut ran = Ran::default();
        let words = match split(line, &|v| self.var(v)) {
            Ok(w) => w,
            Err(e) => {
                ran.err = format!("{}: syntax error: {e}\n", self.name);
                self.status = 2;
                return ran;
            }
        };
        for cmd in words.split(|w| *w == Word::Separator) {
            let argv: Vec<&str> = cmd
                .iter()
                .filter_map(|w| match w {
                    Word::Text(t) => Some(t.as_str()),
                    Word::Separator => None,
                })
                .collect();
            if argv.is_empty() {
                continue;
            }
            let one = self.command(&argv);
            ran.out.push_str(&one.out);
            ran.err.push_str(&one.err);
            if one.exit.is_some() {
                ran.exit = one.exit;
                return ran;
            }
        }
        ran
    }

    fn var(&self, name: &str) -> String {
        match name {
            "?" => self.status.to_string(),
            "0" => self.name.clone(),
            "$" => "1".into(),
            "PWD" => self.cwd.clone(),
            _ => self
                .c
                .env
                .iter()
                .rev()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
                .unwrap_or_default(),
        }
    }

    /// Runs one program with its arguments, as `kubectl exec POD -- hostname` does (no
    /// shell parsing); sets `$?`.
    pub fn command_argv(&mut self, argv: &[String]) -> Ran {
        let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
        if argv.is_empty() {
            return Ran::default();
        }
        self.command(&argv)
    }

    /// `$?`: the status of the last command.
    pub fn status(&self) -> i32 {
        self.status
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn container() -> Container {
        Container {
            namespace: "shop".into(),
            pod: "web-1".into(),
            name: "web".into(),
            image: "ghcr.io/ktui/web:1".into(),
            env: vec![
                ("HOSTNAME".into(), "web-1".into()),
                ("MODE".into(), "demo".into()),
            ],
            ip: "10.244.0.7".into(),
        }
    }

    #[test]
    fn commands_answer_from_the_pod() {
        let mut sh = Shell::new(container(), "/bin/sh", false);
        assert_eq!(sh.run("hostname").out, "web-1\n");
        assert_eq!(sh.run("env").out, "HOSTNAME=web-1\nMODE=demo\n");
        assert_eq!(sh.run("echo \"$MODE\" '$MODE' $0").out, "demo $MODE sh\n");
        assert!(sh.run("cat /etc/os-release").out.contains("simulated"));
        assert_eq!(
            sh.run("ls /etc").out,
            "hostname  hosts  os-release  passwd  resolv.conf\n"
        );
        let missing = sh.run("bash");
        assert_eq!((missing.err.as_str(), sh.status), ("sh: bash: not found\n", 127));
        assert_eq!(sh.run("echo $?").out, "127\n");
        assert_eq!(sh.run("cd /etc; pwd; cat hostname").out, "/etc\nweb-1\n");
        assert_eq!(sh.run("exit 3").exit, Some(3));
        assert_eq!(sh.run("exit 256").exit, Some(0));
        assert_eq!(sh.run("true; exit").exit, Some(0));
    }

    #[test]
    fn a_tty_echoes_edits_the_line_and_reports_its_size() {
        let mut sh = Shell::new(container(), "sh", true);
        assert!(String::from_utf8_lossy(&sh.greeting()).contains("simulated container web of pod shop/web-1"));
        let fed = sh.feed(b"hostnamx\x7fe\r");
        assert_eq!(
            String::from_utf8_lossy(&fed.out),
            "hostnamx\x08 \x08e\r\nweb-1\r\n/ # "
        );
        assert_eq!(fed.exit, None);
        sh.resize(132, 40);
        assert!(String::from_utf8_lossy(&sh.feed(b"stty size\r").out).contains("40 132\r\n"));
        // Arrow keys are dropped, ctrl-c abandons the line.
        let fed = sh.feed(b"ec\x1b[Aho\x03");
        assert_eq!(String::from_utf8_lossy(&fed.out), "echo^C\r\n/ # ");
        let fed = sh.feed(b"nope\r");
        assert!(String::from_utf8_lossy(&fed.out).contains("sh: nope: not found\r\n"));
        assert_eq!(sh.feed(b"exit 3\r").exit, Some(3));
        let mut sh = Shell::new(container(), "sh", true);
        assert_eq!(sh.feed(b"\x04").exit, Some(0));
        // Named after `$0`, as BusyBox does: ktui's `s` starts `ash` (README § the demo).
        let mut ash = Shell::new(container(), "/bin/ash", true);
        assert!(String::from_utf8_lossy(&ash.feed(b"nope\r").out).contains("ash: nope: not found\r\n"));
    }

    #[test]
    fn only_busybox_programs_exist() {
        assert!(exists("sh") && exists("/bin/ash") && exists("hostname"));
        assert!(!exists("bash") && !exists("/usr/bin/python3"));
    }
}
