//! Edit against `ktui --demo` through a scripted `$KUBE_EDITOR` (the terminal handed over and
//! back): invalid YAML reopens the editor with the parse error on top, a save that meets a
//! concurrent write (409) reopens it with the conflict and the user's text kept, saving again
//! replaces the newer version, and a save without changes sends nothing.

use std::ffi::{OsStr, OsString};
use std::path::Path;

use crate::pty::Tui;
use crate::util::{row_of, SLOW};

/// `ktui --demo -n shop -c cm` with `$KUBE_EDITOR` set to `editor`, its home and log in `dir`.
fn with_editor(dir: &Path, editor: &Path) -> Tui {
    let home = dir.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let log = dir.join("ktui.log");
    let missing = dir.join("no-kubeconfig");
    let args: Vec<OsString> = vec![
        "--kubeconfig".into(),
        missing.clone().into(),
        "--log-file".into(),
        log.clone().into(),
        "--demo".into(),
        "-n".into(),
        "shop".into(),
        "-c".into(),
        "cm".into(),
    ];
    let envs: [(&str, &OsStr); 6] = [
        ("KUBECONFIG", missing.as_os_str()),
        ("HOME", home.as_os_str()),
        ("XDG_CONFIG_HOME", home.as_os_str()),
        ("XDG_STATE_HOME", home.as_os_str()),
        ("KUBE_EDITOR", editor.as_os_str()),
        ("EDITOR", OsStr::new("false")),
    ];
    let mut k = Tui::spawn(env!("CARGO_BIN_EXE_ktui"), &args, &envs, 40, 160);
    k.log_file = Some(log);
    k
}

/// Writes the editor script (mode 0755).
fn script(path: &Path, body: String) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, body).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// `e` through a scripted `$KUBE_EDITOR`: the first save is invalid YAML (reopened with the
/// parse error on top), the second changes a value and goes through; the YAML view shows it.
#[test]
fn edit_through_a_scripted_editor_reopens_on_invalid_yaml() {
    let dir = tempfile::tempdir().unwrap();
    let calls = dir.path().join("calls");
    let script_path = dir.path().join("editor.sh");
    script(
        &script_path,
        format!(
            r#"#!/bin/sh
f="$1"; n=$(cat {calls} 2>/dev/null | grep -c '^call'); echo "call $n" >> {calls}
case $n in
0) echo 'extra: [unclosed' >> "$f" ;;
1) grep -q 'invalid YAML' "$f" && echo "saw invalid" >> {calls}; sed -i '/^extra:/d; s/theme: dark/theme: light/' "$f" ;;
*) : ;;
esac
"#,
            calls = calls.display(),
        ),
    );
    let mut k = with_editor(dir.path(), &script_path);
    k.wait_for("● live", SLOW);
    k.type_keys("/^frontend-config");
    k.press_enter();
    k.wait_until("the frontend-config row", SLOW, |s| {
        row_of(s, "frontend-config").is_some()
    });
    k.type_keys("e");
    k.wait_for("edited configmap/frontend-config", SLOW);
    assert_eq!(
        std::fs::read_to_string(&calls).unwrap(),
        "call 0\ncall 1\nsaw invalid\n",
        "editor calls"
    );
    k.type_keys("y");
    k.wait_for("yaml configmap/frontend-config", SLOW);
    k.wait_for("theme: light", SLOW);
    k.press_esc();
    // Saved unchanged: nothing is sent.
    k.type_keys("e");
    k.wait_for("no changes; nothing was sent", SLOW);
}

/// The demo server's URL from the header (`server: http://127.0.0.1:PORT`).
fn server_of(screen: &str) -> String {
    let at = screen
        .find("server: http://")
        .expect("the header names the server")
        + "server: http://".len();
    screen[at..]
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_owned()
}

/// A merge patch sent straight to the demo server (a concurrent writer), as the admin;
/// returns the status line.
fn merge_patch(addr: &str, path: &str, body: &str) -> String {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    write!(
        s,
        "PATCH {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/merge-patch+json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out.lines().next().unwrap_or_default().to_owned()
}

/// `e` while another writer changes the object: the save meets 409, the editor reopens with
/// the conflict on top and the user's text kept; saving again replaces the newer version.
#[test]
fn edit_meets_a_concurrent_write_and_reopens_with_the_conflict() {
    let dir = tempfile::tempdir().unwrap();
    let calls = dir.path().join("calls");
    let editing = dir.path().join("editing");
    let patched = dir.path().join("patched");
    let script_path = dir.path().join("editor.sh");
    script(
        &script_path,
        format!(
            r#"#!/bin/sh
f="$1"; n=$(cat {calls} 2>/dev/null | grep -c '^call'); echo "call $n" >> {calls}
case $n in
0) sed -i 's/theme: dark/theme: light/' "$f"; touch {editing}
   i=0; while [ ! -e {patched} ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done ;;
1) grep -q 'changed on the server' "$f" && echo "saw conflict" >> {calls}
   grep -q 'theme: light' "$f" && echo "kept my change" >> {calls} ;;
*) : ;;
esac
"#,
            calls = calls.display(),
            editing = editing.display(),
            patched = patched.display(),
        ),
    );
    let mut k = with_editor(dir.path(), &script_path);
    k.wait_for("● live", SLOW);
    let addr = server_of(&k.screen());
    k.type_keys("/^frontend-config");
    k.press_enter();
    k.wait_until("the frontend-config row", SLOW, |s| {
        row_of(s, "frontend-config").is_some()
    });
    k.type_keys("e");
    let t0 = std::time::Instant::now();
    while !editing.exists() {
        assert!(t0.elapsed() < SLOW, "the editor never ran\n{}", k.dump());
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let status = merge_patch(
        &addr,
        "/api/v1/namespaces/shop/configmaps/frontend-config",
        r#"{"data":{"other":"x"}}"#,
    );
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");
    std::fs::write(&patched, "").unwrap();
    k.wait_for("edited configmap/frontend-config", SLOW);
    assert_eq!(
        std::fs::read_to_string(&calls).unwrap(),
        "call 0\ncall 1\nsaw conflict\nkept my change\n",
        "editor calls"
    );
    k.type_keys("y");
    k.wait_for("yaml configmap/frontend-config", SLOW);
    k.wait_for("theme: light", SLOW);
    // The save after the conflict replaced the newer version, as its comment said.
    assert!(!k.screen().contains("other: x"), "\n{}", k.dump());
}
