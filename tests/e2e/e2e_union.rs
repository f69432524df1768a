//! End-to-end: a union of contexts (`--context a,b,c`, `--all-contexts`) — every list the
//! union of several clusters with a CONTEXT column, the header naming each member with its own
//! row count and state. Three `ktui demo-server` processes (seeds 1, 2, 3) behind one merged
//! kubeconfig (contexts `c-one`, `c-two`, `c-three`): a delete on a `c-two` row reaches
//! `c-two` alone (checked through each server over plain HTTP); a stopped (SIGSTOP) member
//! stops reading `live` while the others stay live and the keys still work, and is `live`
//! again after SIGCONT; `ktui --demo --all-contexts` unites its three clusters and leaves the
//! viewer context (same API server as `ktui-demo`) out, saying so.
use crate::usage_screen as us;
use crate::util;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use util::*;

const WIDE: u16 = 200;
const TALL: u16 = 50;
/// The merged kubeconfig's contexts, one per server (seeds 1, 2, 3), in its order.
const CONTEXTS: [&str; 3] = ["c-one", "c-two", "c-three"];
const CTRL_D: &[u8] = b"\x04";

/// `ktui demo-server --seed N` as its own process (so it alone can be stopped), with what
/// its kubeconfig says: the admin's server URL and token.
struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    url: String,
    token: String,
}

impl Server {
    fn start(dir: &Path, seed: u64) -> Server {
        let kubeconfig = dir.join(format!("seed-{seed}.kubeconfig"));
        let child = Command::new(env!("CARGO_BIN_EXE_ktui"))
            .args(["demo-server", "--bookmark-secs", "1", "--seed", &seed.to_string()])
            .arg("--kubeconfig-out")
            .arg(&kubeconfig)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // From here on the child is killed on drop, a panic below included.
        let mut server = Server {
            child,
            url: String::new(),
            token: String::new(),
        };
        let start = Instant::now();
        let text = loop {
            let text = std::fs::read_to_string(&kubeconfig).unwrap_or_default();
            if text.contains("current-context") && text.contains("preferences") {
                break text;
            }
            assert!(
                start.elapsed() < SLOW,
                "demo server (seed {seed}) wrote no kubeconfig"
            );
            std::thread::sleep(Duration::from_millis(50));
        };
        let (url, token) = admin_of(&text);
        (server.url, server.token) = (url, token);
        server
    }

    /// `127.0.0.1:PORT`.
    fn addr(&self) -> &str {
        self.url.strip_prefix("http://").unwrap()
    }

    fn signal(&self, sig: libc::c_int) {
        // SAFETY: kill(2) on our own child's pid (not reaped before drop).
        unsafe { libc::kill(self.child.id() as libc::pid_t, sig) };
    }

    /// GET `path` as the admin: status and JSON body.
    fn get(&self, path: &str) -> (u16, Value) {
        let mut s = std::net::TcpStream::connect(self.addr()).expect("connect to the demo server");
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        write!(
            s,
            "GET {path} HTTP/1.0\r\nHost: {}\r\nAuthorization: Bearer {}\r\nAccept: application/json\r\n\r\n",
            self.addr(),
            self.token
        )
        .unwrap();
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).expect("read the answer");
        let at = crate::pty::find(&raw, b"\r\n\r\n").expect("an HTTP answer");
        let head = String::from_utf8_lossy(&raw[..at]);
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("status line of {head:?}"));
        let body = serde_json::from_slice(&raw[at + 4..])
            .unwrap_or_else(|e| panic!("GET {path}: {e}: {}", String::from_utf8_lossy(&raw)));
        (status, body)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.signal(libc::SIGCONT);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The admin's server URL (the cluster whose URL has no path: not the viewer's `…/viewer`)
/// and token (user `ktui-demo`'s) in a kubeconfig the demo server wrote.
fn admin_of(kubeconfig: &str) -> (String, String) {
    let url = kubeconfig
        .lines()
        .filter_map(|l| l.trim().strip_prefix("server: "))
        .find(|u| u.strip_prefix("http://").is_some_and(|a| !a.contains('/')))
        .unwrap_or_else(|| panic!("no admin server in\n{kubeconfig}"))
        .to_owned();
    let users = kubeconfig
        .split_once("\nusers:\n")
        .unwrap_or_else(|| panic!("no users in\n{kubeconfig}"))
        .1;
    let token = users
        .split_once("- name: ktui-demo\n")
        .and_then(|(_, rest)| rest.lines().find_map(|l| l.trim().strip_prefix("token: ")))
        .unwrap_or_else(|| panic!("no token of user ktui-demo in\n{kubeconfig}"))
        .to_owned();
    (url, token)
}

/// Three demo servers (seeds 1, 2, 3) and one kubeconfig with a context for each
/// ([`CONTEXTS`], in that order; mode 0600).
struct Three {
    servers: Vec<Server>,
    kubeconfig: PathBuf,
    dir: tempfile::TempDir,
}

impl Three {
    fn start() -> Three {
        let dir = tempfile::tempdir().unwrap();
        let servers: Vec<Server> = (1..=3).map(|seed| Server::start(dir.path(), seed)).collect();
        let mut clusters = String::new();
        let mut contexts = String::new();
        let mut users = String::new();
        for (name, s) in CONTEXTS.iter().zip(&servers) {
            clusters.push_str(&format!("- name: {name}\n  cluster:\n    server: {}\n", s.url));
            contexts.push_str(&format!(
                "- name: {name}\n  context:\n    cluster: {name}\n    user: {name}\n"
            ));
            users.push_str(&format!("- name: {name}\n  user:\n    token: {}\n", s.token));
        }
        let yaml = format!(
            "apiVersion: v1\nkind: Config\nclusters:\n{clusters}contexts:\n{contexts}\
             current-context: {}\nusers:\n{users}preferences: {{}}\n",
            CONTEXTS[0]
        );
        let kubeconfig = dir.path().join("merged.kubeconfig");
        {
            use std::os::unix::fs::OpenOptionsExt;
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(&kubeconfig)
                .unwrap();
            f.write_all(yaml.as_bytes()).unwrap();
        }
        Three {
            servers,
            kubeconfig,
            dir,
        }
    }

    fn server(&self, context: &str) -> &Server {
        let i = CONTEXTS.iter().position(|c| *c == context).unwrap();
        &self.servers[i]
    }

    /// `ktui --kubeconfig <merged> --context c-one,c-two,c-three -A ARGS` at 200×50.
    fn ktui(&self, args: &[&str]) -> Ktui {
        let union = CONTEXTS.join(",");
        let mut all = vec!["--context", union.as_str(), "-A"];
        all.extend_from_slice(args);
        ktui_sized(&self.kubeconfig, &all, TALL, WIDE)
    }

    /// A `[watch]` config (bookmarks every second, stale after 3 quiet seconds), as the
    /// servers send a bookmark every second; the `--config` argument for it.
    fn watch_config(&self) -> String {
        let path = self.dir.path().join("config.toml");
        std::fs::write(
            &path,
            "[watch]\nbookmark_interval = \"1s\"\nstale_intervals = 3\n",
        )
        .unwrap();
        path.display().to_string()
    }
}

/// The per-member parts of header line 2 (after `│`): `(context, words after it)`, e.g.
/// `("c-two", "19")` for a live member, `("c-three", "18 ◷ stale: …")` for one that is not.
fn members(screen: &str) -> Vec<(String, String)> {
    let Some((_, parts)) = state_line(screen).split_once('│') else {
        return Vec::new();
    };
    parts
        .split(" · ")
        .filter_map(|p| {
            let (name, rest) = p.trim().split_once(' ')?;
            Some((name.to_owned(), rest.trim().to_owned()))
        })
        .collect()
}

/// What header line 2 says of member `context` (`None`: not named).
fn member(screen: &str, context: &str) -> Option<String> {
    members(screen)
        .into_iter()
        .find(|(c, _)| c == context)
        .map(|(_, w)| w)
}

/// `COUNT` alone: the member's list is complete and live (a member that is not says how).
fn is_live(words: &str) -> bool {
    let w: Vec<&str> = words.split_whitespace().collect();
    w.len() == 1 && w[0].chars().all(|c| c.is_ascii_digit() || c == ',')
}

/// The member's row count in header line 2, when it says `COUNT` and nothing else.
fn live_count(screen: &str, context: &str) -> Option<u64> {
    let w = member(screen, context).filter(|w| is_live(w))?;
    w.split_whitespace().next()?.replace(',', "").parse().ok()
}

/// Every one of `contexts` named in header line 2 as `COUNT` (live), and the union's own
/// state `● N/N live` with a count that is their sum.
fn all_live(screen: &str, contexts: &[&str]) -> bool {
    let counts: Option<Vec<u64>> = contexts.iter().map(|c| live_count(screen, c)).collect();
    let Some(counts) = counts else { return false };
    let words = state_words(screen);
    let n = contexts.len();
    words.get(1).and_then(|n| n.replace(',', "").parse::<u64>().ok()) == Some(counts.iter().sum())
        && words.get(2..5) == Some(&["●", format!("{n}/{n}").as_str(), "live"][..])
}

/// The distinct CONTEXT cells of the table on screen.
fn shown_contexts(screen: &str) -> Vec<String> {
    let Some(t) = us::table(screen) else {
        return Vec::new();
    };
    let mut cells = t.column("CONTEXT");
    cells.retain(|c| !c.is_empty());
    cells.sort();
    cells.dedup();
    cells
}

/// The header's first line names the union of [`CONTEXTS`].
fn names_the_union(screen: &str) -> bool {
    screen
        .lines()
        .next()
        .is_some_and(|l| l.contains("context: union of 3: c-one, c-two, c-three"))
}

/// The table's first column is CONTEXT, then NAMESPACE and NAME.
fn context_column_first(screen: &str) -> bool {
    us::table(screen).is_some_and(|t| t.headers().starts_with(&["CONTEXT", "NAMESPACE", "NAME"]))
}

/// `data/postgres-0` as the server has it now: `(uid, deletionTimestamp)`, `None` when gone.
fn postgres_0(server: &Server) -> Option<(String, Option<String>)> {
    let (status, pod) = server.get("/api/v1/namespaces/data/pods/postgres-0");
    if status == 404 {
        return None;
    }
    assert_eq!(status, 200, "GET postgres-0: {pod}");
    let uid = pod["metadata"]["uid"].as_str().expect("a uid").to_owned();
    let deleting = pod["metadata"]["deletionTimestamp"].as_str().map(str::to_owned);
    Some((uid, deleting))
}

#[test]
fn a_union_of_three_servers_shows_every_row_and_deletes_in_the_rows_cluster_only() {
    let three = Three::start();
    // The pod deleted below, in each cluster: there and not being deleted.
    let before: Vec<String> = CONTEXTS
        .iter()
        .map(|c| match postgres_0(three.server(c)) {
            Some((uid, None)) => uid,
            other => panic!("{c}: postgres-0 should exist, untouched: {other:?}"),
        })
        .collect();
    let mut k = three.ktui(&[]);
    let took = k.wait_until(
        "the union's header, all three live, rows of all three",
        SLOW,
        |s| {
            names_the_union(s)
                && all_live(s, &CONTEXTS)
                && context_column_first(s)
                && shown_contexts(s) == ["c-one", "c-three", "c-two"]
        },
    );
    let screen = k.screen();
    eprintln!("union up after {took:.2?}: {:?}", state_line(&screen));
    // Each member counts its own rows: the servers' pod lists, as they were a moment ago.
    for c in CONTEXTS {
        let (status, list) = three.server(c).get("/api/v1/pods");
        assert_eq!(status, 200, "{list}");
        let n = list["items"].as_array().unwrap().len() as u64;
        let shown = live_count(&screen, c).unwrap();
        assert!(
            n.abs_diff(shown) <= 3,
            "{c}: the header counts {shown} pods, its server lists {n}\n{}",
            k.dump()
        );
    }

    // The postgres-0 of each cluster: three rows, in the union's order.
    narrow_to_postgres_0(&mut k);

    // The selection starts on the first row (c-one's); c-two's is the next.
    k.type_keys("j");
    k.send(CTRL_D);
    k.wait_until("the delete dialog of c-two's postgres-0", SLOW, |s| {
        s.contains("delete pod/postgres-0?") && s.contains("context: c-two")
    });
    let dialog = k.screen();
    assert!(
        !dialog.contains("context: c-one") && !dialog.contains("context: c-three"),
        "the dialog names another context\n{}",
        k.dump()
    );
    k.type_keys("y");
    k.wait_for("deleted pod/postgres-0 (context c-two)", SLOW);

    // Through each server: gone (or going, or replaced by its StatefulSet) in c-two alone.
    let t0 = Instant::now();
    loop {
        match postgres_0(three.server("c-two")) {
            None => break,
            Some((_, Some(_))) => break,
            Some((uid, None)) if uid != before[1] => break,
            Some(_) => {}
        }
        assert!(
            t0.elapsed() < SLOW,
            "c-two's postgres-0 was not deleted\n{}",
            k.dump()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let deleted = t0.elapsed();
    eprintln!(
        "c-two: postgres-0 now {:?} ({deleted:.2?} after the footer)",
        postgres_0(three.server("c-two"))
    );
    for (i, c) in CONTEXTS.iter().enumerate().filter(|(_, c)| **c != "c-two") {
        assert_eq!(
            postgres_0(three.server(c)),
            Some((before[i].clone(), None)),
            "{c}'s postgres-0 was touched\n{}",
            k.dump()
        );
    }
    // The screen follows without a key: c-two's row Terminating or gone (a replacement is a
    // new row: its AGE is seconds), c-one's and c-three's as they were.
    let t1 = Instant::now();
    k.wait_until(
        "c-two's postgres-0 Terminating, gone or replaced on screen",
        SLOW,
        |s| {
            us::table(s).is_some_and(|t| {
                let row = t.rows.iter().find(|r| {
                    t.cell_of(r, "CONTEXT").as_deref() == Some("c-two")
                        && t.cell_of(r, "NAME").as_deref() == Some("postgres-0")
                });
                let others = ["c-one", "c-three"].iter().all(|c| {
                    t.rows.iter().any(|r| {
                        t.cell_of(r, "CONTEXT").as_deref() == Some(*c)
                            && t.cell_of(r, "STATUS").as_deref() == Some("Running")
                    })
                });
                others
                    && row.is_none_or(|r| {
                        t.cell_of(r, "STATUS").as_deref() != Some("Running")
                            || t.cell_of(r, "AGE")
                                .is_some_and(|a| a.ends_with('s') && !a.contains('d'))
                    })
            })
        },
    );
    report_timing("the delete on screen, no key pressed", t1.elapsed(), LIVE);
    k.command("q");
    k.wait_exit(SLOW).expect("ktui exits on :q");
}

/// `/^postgres-0`, enter: the three postgres-0 rows, one per context in the union's order.
fn narrow_to_postgres_0(k: &mut Ktui) {
    k.type_keys("/^postgres-0");
    k.press_enter();
    k.wait_until("three postgres-0 rows, one per context", SLOW, |s| {
        s.contains("</^postgres-0>")
            && us::table(s).is_some_and(|t| {
                t.names().iter().all(|n| n == "postgres-0") && t.column("CONTEXT") == CONTEXTS
            })
    });
}

#[test]
fn marked_rows_of_two_clusters_are_deleted_in_those_two_only() {
    let three = Three::start();
    let before: Vec<(String, Option<String>)> = CONTEXTS
        .iter()
        .map(|c| postgres_0(three.server(c)).unwrap_or_else(|| panic!("{c}: no postgres-0")))
        .collect();
    // The demo servers give an object the same uid whatever the seed: the three postgres-0
    // are three objects (one per cluster) with one uid.
    eprintln!("postgres-0 uids: {before:?}");
    let mut k = three.ktui(&[]);
    k.wait_until("all three live", SLOW, |s| {
        names_the_union(s) && all_live(s, &CONTEXTS) && shown_contexts(s).len() == 3
    });
    narrow_to_postgres_0(&mut k);

    // One row marked (c-one's; the selection moves on to c-two's): the dialog is about it alone.
    k.type_keys(" ");
    k.wait_until("one row marked", SLOW, |s| state_line(s).contains("1 marked"));
    k.send(CTRL_D);
    k.wait_for("delete pod/postgres-0", SLOW);
    let dialog = k.screen();
    assert!(
        dialog.contains("context: c-one") && !dialog.contains("c-two (") && !dialog.contains("c-three ("),
        "one row (c-one's) is marked, the dialog should delete it in c-one alone\n{}",
        k.dump()
    );
    k.press_enter();
    k.wait_for("cancelled: nothing was sent", SLOW);

    // c-three's row too: two rows of two clusters.
    k.type_keys("j ");
    k.wait_until("two rows marked", SLOW, |s| state_line(s).contains("2 marked"));
    k.send(CTRL_D);
    k.wait_until("a delete dialog over c-one and c-three", SLOW, |s| {
        s.contains("delete 2 pods in c-one (1), c-three (1)?")
    });
    assert!(!k.screen().contains("c-two ("), "{}", k.dump());
    k.type_keys("y");
    k.wait_until("the deletes sent to c-one and c-three", SLOW, |s| {
        s.contains("(contexts c-one (1), c-three (1))") || s.contains("deleted")
    });

    // Through each server: gone, going or replaced in c-one and c-three; c-two's untouched.
    let t0 = Instant::now();
    for (i, c) in CONTEXTS.iter().enumerate().filter(|(_, c)| **c != "c-two") {
        loop {
            match postgres_0(three.server(c)) {
                None | Some((_, Some(_))) => break,
                Some((uid, None)) if uid != before[i].0 => break,
                Some(_) => {}
            }
            assert!(
                t0.elapsed() < SLOW,
                "{c}'s postgres-0 was not deleted\n{}",
                k.dump()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    assert_eq!(
        postgres_0(three.server("c-two")),
        Some(before[1].clone()),
        "c-two's postgres-0 was touched\n{}",
        k.dump()
    );
    k.command("q");
    k.wait_exit(SLOW).expect("ktui exits on :q");
}

#[test]
fn a_stopped_member_stops_reading_live_while_the_others_stay_live() {
    let three = Three::start();
    let cfg = three.watch_config();
    let mut k = three.ktui(&["--config", &cfg]);
    k.wait_until("all three live", SLOW, |s| {
        names_the_union(s) && all_live(s, &CONTEXTS) && shown_contexts(s).len() == 3
    });

    let log = k.log_file.clone().expect("ktui's log file");
    let stale_lines = || {
        std::fs::read_to_string(&log)
            .unwrap_or_default()
            .matches("watch stale; restarting")
            .count()
    };
    let before = stale_lines();
    three.server("c-three").signal(libc::SIGSTOP);
    let stopped = Instant::now();
    // The informer of c-three notices the silence (3 bookmark intervals) and says so in the
    // log; the header must follow as it does for the context in use (no key pressed).
    while stale_lines() == before {
        assert!(
            stopped.elapsed() < Duration::from_secs(15),
            "c-three's informer never noticed the silence\n{}",
            k.dump()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let noticed = stopped.elapsed();
    let not_live = |s: &str| member(s, "c-three").is_some_and(|w| !is_live(&w)) && all_live_but(s, "c-three");
    let shown = k.try_wait_until(Duration::from_secs(5), not_live);
    let took = stopped.elapsed();
    assert!(
        shown.is_some(),
        "c-three's informer went stale {noticed:.2?} after SIGSTOP (ktui's log), but 5 s \
         later the header still says c-three is live: the union list was not redrawn\n{}",
        k.dump()
    );
    assert!(
        took <= Duration::from_secs(15),
        "c-three still read live {took:.2?} after SIGSTOP\n{}",
        k.dump()
    );
    let said = member(&k.screen(), "c-three").unwrap();
    eprintln!("SIGSTOP → informer stale after {noticed:.2?}, header says {said:?} after {took:.2?}");
    assert!(
        ["stale", "reconnecting", "unreachable", "not connected"]
            .iter()
            .any(|w| said.contains(w)),
        "c-three's state is not in words: {said:?}\n{}",
        k.dump()
    );
    // Never back to live while stopped; the others stay live.
    std::thread::sleep(Duration::from_secs(3));
    let s = k.screen();
    assert!(
        member(&s, "c-three").is_some_and(|w| !is_live(&w)) && all_live_but(&s, "c-three"),
        "{}",
        k.dump()
    );

    // The keys still work: the filter narrows at once, esc restores the list.
    let t0 = Instant::now();
    k.type_keys("/^postgres-");
    k.wait_until(
        "the filter to narrow to postgres-* rows of c-one and c-two",
        SLOW,
        |s| {
            us::table(s).is_some_and(|t| {
                let names = t.names();
                !names.is_empty()
                    && names.iter().all(|n| n.starts_with("postgres-"))
                    && t.column("CONTEXT").iter().any(|c| c == "c-one")
                    && t.column("CONTEXT").iter().any(|c| c == "c-two")
            })
        },
    );
    report_timing(
        "filter with a stopped member",
        t0.elapsed(),
        Duration::from_secs(1),
    );
    k.press_esc();
    k.wait_until("esc to restore the whole list", SLOW, |s| {
        us::table(s).is_some_and(|t| t.names().iter().any(|n| !n.starts_with("postgres-")))
    });

    three.server("c-three").signal(libc::SIGCONT);
    let took = k.wait_until("c-three live again", Duration::from_secs(90), |s| {
        all_live(s, &CONTEXTS)
    });
    eprintln!(
        "SIGCONT → all live after {took:.2?} (stopped {:.2?} in all): {:?}",
        stopped.elapsed(),
        state_line(&k.screen())
    );
    k.command("q");
    k.wait_exit(SLOW).expect("ktui exits on :q");
}

/// Every member but `but` named in header line 2 as `COUNT` (live).
fn all_live_but(screen: &str, but: &str) -> bool {
    let others: Vec<&str> = CONTEXTS.iter().copied().filter(|c| *c != but).collect();
    others.iter().all(|c| live_count(screen, c).is_some())
}

#[test]
fn demo_all_contexts_unites_its_three_clusters_and_leaves_the_viewer_out() {
    let dir = tempfile::tempdir().unwrap();
    let mut k = ktui_sized(
        &dir.path().join("no-kubeconfig"),
        &["--demo", "--all-contexts"],
        24,
        80,
    );
    let demo = ["ktui-demo", "ktui-demo-eu", "ktui-demo-us"];
    // Every CONTEXT cell one of the three (or cut with `…` at 80 columns), two of them whole
    // at least. (One screen read may fall between two halves of a frame: wait for a whole one.)
    let cells_ok = |s: &str| {
        let cells = shown_contexts(s);
        let whole = cells.iter().filter(|c| demo.contains(&c.as_str())).count();
        whole >= 2
            && cells.iter().all(|c| {
                demo.contains(&c.as_str())
                    || c.strip_suffix('…')
                        .is_some_and(|cut| demo.iter().any(|d| d.starts_with(cut)))
            })
    };
    k.wait_until("a union header and rows of two contexts or more", SLOW, |s| {
        s.lines()
            .next()
            .is_some_and(|l| l.contains("context: union of 3: ktui-demo"))
            && context_column_first(s)
            && cells_ok(s)
    });
    let left_out = "left out: ktui-demo-viewer: same server as ktui-demo";
    let on_screen = k.try_wait_until(SLOW, |s| s.contains("left out: ktui-demo-viewer"));
    assert!(
        on_screen.is_some() || k.raw_contains(left_out),
        "no `{left_out}`\n{}",
        k.dump()
    );
    eprintln!("at 80 columns:\n{}", k.dump());
    // Wide enough for the whole header.
    k.resize(TALL, WIDE);
    k.wait_until("the whole union named at 200 columns", SLOW, |s| {
        s.lines().next().is_some_and(|l| {
            l.contains("context: union of 3: ktui-demo, ktui-demo-eu, ktui-demo-us")
                && !l.contains("ktui-demo-viewer")
        }) && all_live(s, &demo)
    });
    eprintln!("at 200 columns: {:?}", state_line(&k.screen()));
    k.command("q");
    k.wait_exit(SLOW).expect("ktui exits on :q");
}
