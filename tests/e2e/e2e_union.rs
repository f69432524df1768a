//! End-to-end: a union of contexts (`--context a,b,c`, `--all-contexts`) — every list the
//! union of several clusters with a CONTEXT column, the header naming each member with its own
//! row count and state. Three `ktui demo-server` processes (seeds 1, 2, 3) behind one merged
//! kubeconfig (contexts `c-one`, `c-two`, `c-three`): a delete on a `c-two` row reaches
//! `c-two` alone (checked through each server over plain HTTP); a stopped (SIGSTOP) member
//! stops reading `live` while the others stay live and the keys still work, and is `live`
//! again after SIGCONT; `ktui --demo --all-contexts` unites its three clusters and leaves the
//! viewer context (same API server as `ktui-demo`) out, saying so.
use crate::union_support::*;
use crate::usage_screen as us;
use crate::util::*;

use std::path::PathBuf;
use std::time::{Duration, Instant};

const WIDE: u16 = 200;
const TALL: u16 = 50;
/// The merged kubeconfig's contexts, one per server (seeds 1, 2, 3), in its order.
const CONTEXTS: [&str; 3] = ["c-one", "c-two", "c-three"];
const CTRL_D: &[u8] = b"\x04";
/// How often a demo server is asked whether a pod is deleted.
const POLL: Duration = Duration::from_millis(100);

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
        let servers: Vec<Server> = (1..=3)
            .map(|seed| Server::start(dir.path(), seed, &["--bookmark-secs", "1"]))
            .collect();
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
        write_kubeconfig(&kubeconfig, &yaml);
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

/// The header's first line names the union of [`CONTEXTS`].
fn names_the_union(screen: &str) -> bool {
    screen
        .lines()
        .next()
        .is_some_and(|l| l.contains("context: union of 3: c-one, c-two, c-three"))
}

/// `data/postgres-0` as the server has it now: `(uid, deletionTimestamp)`, `None` when gone.
fn postgres_0(server: &Server) -> Option<(String, Option<String>)> {
    server.pod("data", "postgres-0")
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
        "the union's header, all three live, rows of the union",
        SLOW,
        |s| {
            // Rows are ordered by cluster: a page shows one or two clusters' rows (the
            // filter below shows all three's).
            let shown = shown_contexts(s);
            names_the_union(s)
                && all_live(s, &CONTEXTS)
                && context_column_first(s)
                && !shown.is_empty()
                && shown.iter().all(|c| CONTEXTS.contains(&c.as_str()))
        },
    );
    let screen = k.screen();
    eprintln!("union up after {took:.2?}: {:?}", state_line(&screen));
    // Each member counts its own rows: the servers' pod lists, as they were a moment ago.
    for c in CONTEXTS {
        let n = three.server(c).pod_count() as u64;
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
    wait_deleted(&k, "c-two's postgres-0", &before[1], true, t0, POLL, || {
        postgres_0(three.server("c-two"))
    });
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
        names_the_union(s) && all_live(s, &CONTEXTS) && !shown_contexts(s).is_empty()
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
        let what = format!("{c}'s postgres-0");
        wait_deleted(&k, &what, &before[i].0, true, t0, POLL, || {
            postgres_0(three.server(c))
        });
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
        names_the_union(s) && all_live(s, &CONTEXTS) && !shown_contexts(s).is_empty()
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
    let not_live =
        |s: &str| member(s, "c-three").is_some_and(|w| !is_count_alone(&w)) && all_live_but(s, "c-three");
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
    assert_state_in_words(&k, "c-three", &said);
    // Never back to live while stopped; the others stay live.
    std::thread::sleep(Duration::from_secs(3));
    let s = k.screen();
    assert!(
        member(&s, "c-three").is_some_and(|w| !is_count_alone(&w)) && all_live_but(&s, "c-three"),
        "{}",
        k.dump()
    );

    // The keys still work: the filter narrows at once, esc restores the list.
    let narrowed = |s: &str| {
        us::table(s).is_some_and(|t| {
            let names = t.names();
            !names.is_empty()
                && names.iter().all(|n| n.starts_with("postgres-"))
                && t.column("CONTEXT").iter().any(|c| c == "c-one")
                && t.column("CONTEXT").iter().any(|c| c == "c-two")
        })
    };
    filter_and_restore(
        &mut k,
        "/^postgres-",
        "the filter to narrow to postgres-* rows of c-one and c-two",
        narrowed,
        "filter with a stopped member",
        |n| n.starts_with("postgres-"),
    );

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
    // Every CONTEXT cell one of the three (or cut with `…` in the middle at 80 columns), `n`
    // of them at least. (One screen read may fall between two halves of a frame: wait for a
    // whole one.)
    let cells_ok = |s: &str, n: usize| {
        let cells = shown_contexts(s);
        let known = |c: &str| {
            demo.contains(&c)
                || c.split_once('…')
                    .is_some_and(|(a, b)| demo.iter().any(|d| d.starts_with(a) && d.ends_with(b)))
        };
        cells.len() >= n && cells.iter().all(|c| known(c))
    };
    k.wait_until("a union header and rows", SLOW, |s| {
        s.lines()
            .next()
            .is_some_and(|l| l.contains("context: union of 3: ktui-demo"))
            && context_column_first(s)
            && cells_ok(s, 1)
    });
    // Rows are ordered by cluster; a name all three hold shows each one's.
    k.type_keys("/postgres-0");
    k.press_enter();
    k.wait_until("postgres-0 of the three clusters", SLOW, |s| cells_ok(s, 3));
    k.send("\x1b");
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
