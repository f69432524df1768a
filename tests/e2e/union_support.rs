//! What the union-of-contexts e2e tests share (`e2e_union`, on demo servers, and
//! `e2e_union_real`, with the real test cluster): a `ktui demo-server` as its own process
//! with its admin's URL and token and plain-HTTP requests to it, the private kubeconfig
//! file they write, the steps both take (wait for a pod's delete, filter with a member
//! down) and the readers of the union's header line 2 (each member's state) and of its
//! CONTEXT column.
use crate::usage_screen as us;
use crate::util::*;

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// `ktui demo-server --seed N` as its own process (so it alone can be stopped or killed),
/// with what its kubeconfig says: the admin's server URL and token. Killed on drop.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    pub token: String,
}

impl Server {
    /// `ktui demo-server ARGS --seed SEED`, writing its kubeconfig into `dir`; returns once
    /// the kubeconfig is written.
    pub fn start(dir: &Path, seed: u64, args: &[&str]) -> Server {
        let kubeconfig = dir.join(format!("seed-{seed}.kubeconfig"));
        let child = Command::new(env!("CARGO_BIN_EXE_ktui"))
            .arg("demo-server")
            .args(args)
            .args(["--seed", &seed.to_string()])
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
        (server.url, server.token) = admin_of(&text);
        server
    }

    /// `127.0.0.1:PORT`.
    fn addr(&self) -> &str {
        self.url.strip_prefix("http://").unwrap()
    }

    pub fn signal(&self, sig: libc::c_int) {
        // SAFETY: kill(2) on our own child's pid (not reaped before drop).
        unsafe { libc::kill(self.child.id() as libc::pid_t, sig) };
    }

    pub fn kill(&self) {
        self.signal(libc::SIGKILL);
    }

    /// `METHOD path` as the admin, with a JSON body if given: status and JSON answer.
    pub fn request(&self, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
        let mut s = std::net::TcpStream::connect(self.addr()).expect("connect to the demo server");
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        write!(
            s,
            "{method} {path} HTTP/1.0\r\nHost: {}\r\nAuthorization: Bearer {}\r\n\
             Accept: application/json\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n{body}",
            self.addr(),
            self.token,
            body.len()
        )
        .unwrap();
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).expect("read the answer");
        answer(&raw).unwrap_or_else(|e| panic!("{method} {path}: {e}: {}", String::from_utf8_lossy(&raw)))
    }

    /// GET `path` as the admin: status and JSON answer.
    pub fn get(&self, path: &str) -> (u16, Value) {
        self.request("GET", path, None)
    }

    /// POST `body` to `path`; panics unless the server created it.
    pub fn create(&self, path: &str, body: Value) -> Value {
        let (status, answer) = self.request("POST", path, Some(&body));
        assert_eq!(status, 201, "POST {path}: {answer}");
        answer
    }

    /// The number of pods the server lists in all namespaces.
    pub fn pod_count(&self) -> usize {
        let (status, list) = self.get("/api/v1/pods");
        assert_eq!(status, 200, "GET /api/v1/pods: {list}");
        list["items"].as_array().expect("a pod list").len()
    }

    /// `ns/name` as the server has it now: `(uid, deletionTimestamp)`, `None` when gone.
    pub fn pod(&self, ns: &str, name: &str) -> Option<(String, Option<String>)> {
        let (status, pod) = self.get(&format!("/api/v1/namespaces/{ns}/pods/{name}"));
        if status == 404 {
            return None;
        }
        assert_eq!(status, 200, "GET pod {ns}/{name}: {pod}");
        Some(uid_and_deletion(&pod))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // A stopped server is woken first, then killed.
        self.signal(libc::SIGCONT);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP answer's status code and JSON body, or why it is not one.
fn answer(raw: &[u8]) -> Result<(u16, Value), String> {
    let at = crate::pty::find(raw, b"\r\n\r\n").ok_or("not an HTTP answer")?;
    let head = String::from_utf8_lossy(&raw[..at]);
    let Some(code) = head.split_whitespace().nth(1).and_then(|c| c.parse().ok()) else {
        return Err(format!("status line of {head:?}"));
    };
    let body = serde_json::from_slice(&raw[at + 4..]).map_err(|e| e.to_string())?;
    Ok((code, body))
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

/// `(uid, deletionTimestamp)` of a pod's JSON.
pub fn uid_and_deletion(pod: &Value) -> (String, Option<String>) {
    let uid = pod["metadata"]["uid"].as_str().expect("a uid").to_owned();
    let deleting = pod["metadata"]["deletionTimestamp"].as_str().map(str::to_owned);
    (uid, deleting)
}

/// Polls a pod (`pod()`: its `(uid, deletionTimestamp)` now, `None` when gone) every `every`
/// until the one with `uid` is gone or being deleted. Another uid under its name counts as
/// deleted when `replaced_ok` (a StatefulSet's replacement), else fails the test. Fails it
/// too, `WHAT was not deleted` with ktui's screen, once `since` is [`SLOW`] ago.
pub fn wait_deleted(
    k: &Ktui,
    what: &str,
    uid: &str,
    replaced_ok: bool,
    since: Instant,
    every: Duration,
    mut pod: impl FnMut() -> Option<(String, Option<String>)>,
) {
    loop {
        match pod() {
            None | Some((_, Some(_))) => return,
            Some((now, None)) if now != uid => {
                assert!(replaced_ok, "a new pod under the old name: uid {now}, was {uid}");
                return;
            }
            Some(_) => {}
        }
        assert!(since.elapsed() < SLOW, "{what} was not deleted\n{}", k.dump());
        std::thread::sleep(every);
    }
}

/// The keys still work with a member down: `filter` (typed as it is, `/` first) narrows the
/// list until `narrowed` holds (`what`: the wait; timed as `timing` against a 1 s goal), and
/// esc brings back a row whose name `kept` says the filter drops.
pub fn filter_and_restore(
    k: &mut Ktui,
    filter: &str,
    what: &str,
    narrowed: impl Fn(&str) -> bool,
    timing: &str,
    kept: impl Fn(&str) -> bool,
) {
    let t0 = Instant::now();
    k.type_keys(filter);
    k.wait_until(what, SLOW, narrowed);
    report_timing(timing, t0.elapsed(), Duration::from_secs(1));
    k.press_esc();
    k.wait_until("esc to restore the whole list", SLOW, |s| {
        us::table(s).is_some_and(|t| t.names().iter().any(|n| !kept(n.as_str())))
    });
}

/// Writes a merged kubeconfig: `text` as a new file at `path`, mode 0600.
pub fn write_kubeconfig(path: &Path, text: &str) {
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .unwrap();
    f.write_all(text.as_bytes()).unwrap();
}

// ---------------------------------------------------------------------------------------
// the union's header line 2 and CONTEXT column

/// The per-member parts of header line 2 (after `│`): `(context, words after it)`, e.g.
/// `("c-two", "19")` for a live member, `("c-three", "18 ◷ stale: …")` or
/// `("demo-b", "19 ↻ reconnecting (attempt 2, 1s): …")` for one that is not.
pub fn members(screen: &str) -> Vec<(String, String)> {
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
pub fn member(screen: &str, context: &str) -> Option<String> {
    members(screen)
        .into_iter()
        .find(|(c, _)| c == context)
        .map(|(_, w)| w)
}

/// Asserts that `said`, what header line 2 says of member `context`, puts in words why the
/// member is not live: stale, reconnecting, unreachable or not connected.
pub fn assert_state_in_words(k: &Ktui, context: &str, said: &str) {
    assert!(
        ["stale", "reconnecting", "unreachable", "not connected"]
            .iter()
            .any(|w| said.contains(w)),
        "{context}'s state is not in words: {said:?}\n{}",
        k.dump()
    );
}

/// A row count as drawn: digits and thousands commas.
fn is_count(word: &str) -> bool {
    !word.is_empty() && word.chars().all(|c| c.is_ascii_digit() || c == ',')
}

/// `COUNT` alone: how a member whose list is complete and live is named (a member that is
/// not says how).
pub fn is_count_alone(words: &str) -> bool {
    let w: Vec<&str> = words.split_whitespace().collect();
    w.len() == 1 && is_count(w[0])
}

/// The member's list is complete and live: its words are `COUNT` alone (a live member is
/// named by its count) or `COUNT ● live` (the same with its state spelled out).
pub fn is_live(words: &str) -> bool {
    let w: Vec<&str> = words.split_whitespace().collect();
    w.first().is_some_and(|c| is_count(c)) && (w.len() == 1 || w[1..] == ["●", "live"] || w[1..] == ["live"])
}

/// Member `context` named in header line 2 and live (see [`is_live`]).
pub fn member_live(screen: &str, context: &str) -> bool {
    member(screen, context).is_some_and(|w| is_live(&w))
}

/// The member's row count in header line 2, when it says `COUNT` and nothing else.
pub fn live_count(screen: &str, context: &str) -> Option<u64> {
    let w = member(screen, context).filter(|w| is_count_alone(w))?;
    w.split_whitespace().next()?.replace(',', "").parse().ok()
}

/// Every one of `contexts` named in header line 2 as `COUNT` (live), and the union's own
/// state `● N/N live` with a count that is their sum.
pub fn all_live(screen: &str, contexts: &[&str]) -> bool {
    let counts: Option<Vec<u64>> = contexts.iter().map(|c| live_count(screen, c)).collect();
    let Some(counts) = counts else { return false };
    let words = state_words(screen);
    let n = contexts.len();
    words.get(1).and_then(|n| n.replace(',', "").parse::<u64>().ok()) == Some(counts.iter().sum())
        && words.get(2..5) == Some(&["●", format!("{n}/{n}").as_str(), "live"][..])
}

/// The union's own state (header line 2 before `│`) says live: `live`, or `N/N live` with
/// every member live.
pub fn union_live(screen: &str) -> bool {
    let own = state_line(screen).split('│').next().unwrap_or("");
    let w: Vec<&str> = own.split_whitespace().collect();
    let Some((&"live", before)) = w.split_last() else {
        return false;
    };
    // The word before it: `N/M` members live (the count of rows, `SHOWN/ALL`, comes earlier).
    before
        .last()
        .and_then(|x| x.split_once('/'))
        .is_none_or(|(a, b)| a == b)
}

/// The distinct CONTEXT cells of the table on screen.
pub fn shown_contexts(screen: &str) -> Vec<String> {
    let Some(t) = us::table(screen) else {
        return Vec::new();
    };
    let mut cells = t.column("CONTEXT");
    cells.retain(|c| !c.is_empty());
    cells.sort();
    cells.dedup();
    cells
}

/// The table's first column is CONTEXT, then NAMESPACE and NAME.
pub fn context_column_first(screen: &str) -> bool {
    us::table(screen).is_some_and(|t| t.headers().starts_with(&["CONTEXT", "NAMESPACE", "NAME"]))
}
