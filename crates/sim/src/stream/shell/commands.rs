//! The simulated shell's commands (BusyBox applets in spirit): each answers from the pod
//! object or the simulated file system and sets `$?`. Pure; must not touch the network.

use super::super::fs::{contents, entry, Entry};
use super::{Ran, Shell, COMMANDS};

impl Shell {
    /// One command with its arguments; sets `$?`.
    pub(super) fn command(&mut self, argv: &[&str]) -> Ran {
        let mut r = Ran::default();
        let prog = argv[0].rsplit('/').next().unwrap_or(argv[0]);
        let args = &argv[1..];
        let status = match prog {
            "exit" => {
                let code = match args.first() {
                    None => self.status,
                    Some(a) => match a.parse::<i64>() {
                        Ok(n) => (n & 0xff) as i32,
                        Err(_) => {
                            r.err = format!("{}: exit: Illegal number: {a}\n", self.name);
                            2
                        }
                    },
                };
                r.exit = Some(code);
                code
            }
            "echo" => {
                let (newline, words) = match args.first() {
                    Some(&"-n") => (false, &args[1..]),
                    _ => (true, args),
                };
                r.out = words.join(" ");
                if newline {
                    r.out.push('\n');
                }
                0
            }
            "hostname" => {
                r.out = format!("{}\n", self.c.pod);
                0
            }
            "env" | "printenv" if args.is_empty() => {
                for (k, v) in &self.c.env {
                    r.out.push_str(&format!("{k}={v}\n"));
                }
                0
            }
            "printenv" => {
                let mut found = true;
                for a in args {
                    match self.c.env.iter().rev().find(|(k, _)| k == a) {
                        Some((_, v)) => r.out.push_str(&format!("{v}\n")),
                        None => found = false,
                    }
                }
                i32::from(!found)
            }
            "env" => {
                r.err = "env: running commands is not simulated in the ktui demo\n".into();
                127
            }
            "pwd" => {
                r.out = format!("{}\n", self.cwd);
                0
            }
            "cd" => {
                let to = self.path(args.first().copied().unwrap_or("/root"));
                if matches!(entry(&to), Some(Entry::Dir(_))) {
                    self.cwd = to;
                    0
                } else {
                    r.err = format!(
                        "{}: cd: can't cd to {}: No such file or directory\n",
                        self.name, args[0]
                    );
                    2
                }
            }
            "ls" => self.ls(args, &mut r),
            "cat" => self.cat(args, &mut r),
            "whoami" => {
                r.out = "root\n".into();
                0
            }
            "id" => {
                r.out = "uid=0(root) gid=0(root) groups=0(root)\n".into();
                0
            }
            "uname" => {
                r.out = if args.contains(&"-a") {
                    format!(
                        "Linux {} 6.8.0-ktui-demo #1 SMP simulated x86_64 Linux\n",
                        self.c.pod
                    )
                } else {
                    "Linux\n".into()
                };
                0
            }
            "ps" => {
                r.out = format!(
                    "PID   USER     TIME  COMMAND\n    1 root      0:00 (simulated: the demo runs no process for {})\n    7 root      0:00 {}\n",
                    self.c.name, self.name
                );
                0
            }
            "stty" if args == ["size"] => match (self.tty, self.size) {
                (true, Some((cols, rows))) => {
                    r.out = format!("{rows} {cols}\n");
                    0
                }
                (true, None) => {
                    r.out = "24 80\n".into();
                    0
                }
                (false, _) => {
                    r.err = "stty: standard input: Not a tty\n".into();
                    1
                }
            },
            "stty" => 0,
            "clear" => {
                r.out = "\x1b[H\x1b[2J".into();
                0
            }
            "true" => 0,
            "false" => 1,
            "help" => {
                r.out = format!(
                    "ktui demo: this shell is simulated. Commands: {}.\n",
                    COMMANDS.join(", ")
                );
                0
            }
            _ => {
                r.err = format!("{}: {}: not found\n", self.name, argv[0]);
                127
            }
        };
        self.status = status;
        r
    }

    fn path(&self, p: &str) -> String {
        let joined = if p.starts_with('/') {
            p.to_owned()
        } else {
            format!("{}/{p}", self.cwd)
        };
        let mut parts: Vec<&str> = Vec::new();
        for seg in joined.split('/') {
            match seg {
                "" | "." => {}
                ".." => {
                    parts.pop();
                }
                s => parts.push(s),
            }
        }
        format!("/{}", parts.join("/"))
    }

    fn ls(&self, args: &[&str], r: &mut Ran) -> i32 {
        let paths: Vec<&str> = args.iter().copied().filter(|a| !a.starts_with('-')).collect();
        let paths = if paths.is_empty() { vec!["."] } else { paths };
        let mut status = 0;
        for p in paths {
            match entry(&self.path(p)) {
                Some(Entry::Dir(names)) => {
                    if !names.is_empty() {
                        r.out.push_str(&names.join("  "));
                        r.out.push('\n');
                    }
                }
                Some(Entry::File(_)) => r.out.push_str(&format!("{p}\n")),
                None => {
                    r.err.push_str(&format!("ls: {p}: No such file or directory\n"));
                    status = 2;
                }
            }
        }
        status
    }

    fn cat(&self, args: &[&str], r: &mut Ran) -> i32 {
        let mut status = 0;
        for p in args {
            match entry(&self.path(p)) {
                Some(Entry::File(f)) => r.out.push_str(&contents(f, &self.c)),
                Some(Entry::Dir(_)) => {
                    r.err.push_str("cat: read error: Is a directory\n");
                    status = 1;
                }
                None => {
                    r.err
                        .push_str(&format!("cat: can't open '{p}': No such file or directory\n"));
                    status = 1;
                }
            }
        }
        status
    }
}
