//! End to end in a pseudo-terminal under `TERM=screen`, `tmux-256color` and
//! `xterm-256color` (and with `NO_COLOR`): the real binary draws the same clean screen
//! everywhere, uses only the colours the terminal has (no 256-colour or 24-bit sequences
//! under `screen`, none at all with `NO_COLOR`) and never paints the background. Needs no
//! cluster: the kubeconfig points at https://127.0.0.1:1.
use crate::pty;
use crate::util::SLOW;

use std::ffi::OsStr;
use std::path::Path;

use pty::Tui;

const ROWS: u16 = 40;
const COLS: u16 = 100;

/// ktui with the `light` theme (256-colour roles, so fallbacks show) in a pty under `term`.
fn spawn(dir: &Path, term: &str, no_color: &str) -> Tui {
    let kubeconfig = dir.join("kubeconfig");
    std::fs::write(
        &kubeconfig,
        "apiVersion: v1\nkind: Config\n\
         clusters:\n- name: dead\n  cluster:\n    server: https://127.0.0.1:1\n\
         users:\n- name: u\n  user:\n    token: e2e\n\
         contexts:\n- name: dead\n  context: {cluster: dead, user: u, namespace: e2e}\n\
         current-context: dead\n",
    )
    .unwrap();
    let config = dir.join("config.toml");
    std::fs::write(&config, "[ui]\ntheme = \"light\"\n").unwrap();
    let log = dir.join(format!("ktui-{term}.log"));
    let args = [
        OsStr::new("--kubeconfig"),
        kubeconfig.as_os_str(),
        OsStr::new("--log-file"),
        log.as_os_str(),
        OsStr::new("--config"),
        config.as_os_str(),
    ];
    let home = dir.as_os_str();
    let envs: [(&str, &OsStr); 8] = [
        ("TERM", OsStr::new(term)),
        ("COLORTERM", OsStr::new("")),
        ("NO_COLOR", OsStr::new(no_color)),
        ("KUBECONFIG", kubeconfig.as_os_str()),
        ("HOME", home),
        ("XDG_CONFIG_HOME", home),
        ("XDG_STATE_HOME", home),
        ("XDG_CACHE_HOME", home),
    ];
    let mut tui = Tui::spawn(env!("CARGO_BIN_EXE_ktui"), &args, &envs, ROWS, COLS);
    tui.log_file = Some(log);
    tui
}

/// SGR parameter lists of every `ESC [ … m` in `raw`.
fn sgr_params(raw: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(raw);
    let mut out = Vec::new();
    for part in text.split("\u{1b}[").skip(1) {
        let params: String = part
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == ';')
            .collect();
        if part[params.len()..].starts_with('m') {
            out.push(params);
        }
    }
    out
}

/// Colour codes of an SGR list: `38;5;N`, `38;2;R;G;B`, `48;…`, and the basic 30–37/40–47/90–107.
fn colours(params: &str) -> Vec<String> {
    let p: Vec<&str> = params.split(';').collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < p.len() {
        match p[i] {
            "38" | "48" | "58" => {
                let n = if p.get(i + 1) == Some(&"2") { 5 } else { 3 };
                out.push(p[i..(i + n).min(p.len())].join(";"));
                i += n;
                continue;
            }
            c if c.parse::<u8>().is_ok_and(|v| {
                (30..=37).contains(&v) || (40..=47).contains(&v) || (90..=107).contains(&v)
            }) =>
            {
                out.push(c.to_owned())
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// Opens the help, checks the screen is clean, returns the help box and all colour codes used.
fn session(term: &str, no_color: &str) -> (Vec<String>, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let mut k = spawn(dir.path(), term, no_color);
    k.wait_until("the header", SLOW, |s| {
        s.lines().next().is_some_and(|l| l.contains("context: dead"))
    });
    // The view's state line says why (its text is behind the help box in every session).
    k.wait_until("the unreachable state", SLOW, |s| {
        s.lines().nth(1).is_some_and(|l| l.contains("unreachable"))
    });
    let help_open = |s: &str| s.lines().any(|l| l.contains('┌') && l.contains("help"));
    k.type_keys("?");
    k.wait_until("`?` to open the help", SLOW, help_open);
    k.wait_until("the help's last line", SLOW, |s| s.contains(":informers"));
    let screen = k.screen();
    for bad in ['\u{1b}', '\u{fffd}', '\u{7}'] {
        assert!(
            !screen.contains(bad),
            "TERM={term}: {bad:?} on screen\n{}",
            k.dump()
        );
    }
    for bad in ["[38;", "[48;", "[0m", ";5;"] {
        assert!(
            !screen.contains(bad),
            "TERM={term}: escape remnant {bad:?} on screen\n{}",
            k.dump()
        );
    }
    let lines = k.lines();
    let top = lines.iter().position(|l| l.contains('┌')).unwrap();
    let bottom = lines.iter().rposition(|l| l.contains('└')).unwrap();
    let help: Vec<String> = lines[top..=bottom].to_vec();
    k.press_ctrl_c();
    let (status, _) = k
        .wait_exit(SLOW)
        .unwrap_or_else(|| panic!("ctrl-c did not exit\n{}", k.dump()));
    assert_eq!(status.exit_code(), 0, "TERM={term}\n{}", k.dump());
    let mut codes: Vec<String> = sgr_params(&k.raw()).iter().flat_map(|p| colours(p)).collect();
    codes.sort();
    codes.dedup();
    eprintln!("TERM={term} NO_COLOR={no_color:?}: colours {codes:?}");
    (help, codes)
}

fn is_256_or_rgb(code: &str) -> bool {
    let p: Vec<&str> = code.split(';').collect();
    match p.as_slice() {
        [_, "2", ..] => true,
        [_, "5", n] => n.parse::<u8>().is_ok_and(|n| n >= 16),
        _ => false,
    }
}

#[test]
fn screen_tmux_and_xterm_draw_the_same_clean_help() {
    let (help_screen, screen_codes) = session("screen", "");
    let (help_tmux, tmux_codes) = session("tmux-256color", "");
    let (help_xterm, xterm_codes) = session("xterm-256color", "");
    assert!(help_screen.len() > 15, "{help_screen:#?}");
    assert_eq!(
        help_screen, help_tmux,
        "TERM=screen and tmux-256color draw the same help"
    );
    assert_eq!(
        help_tmux, help_xterm,
        "TERM=tmux-256color and xterm-256color draw the same help"
    );
    let wide: Vec<&String> = screen_codes.iter().filter(|c| is_256_or_rgb(c)).collect();
    assert!(wide.is_empty(), "TERM=screen got 256/24-bit colours: {wide:?}");
    assert!(!screen_codes.is_empty(), "TERM=screen still has the 16 colours");
    assert!(
        tmux_codes.iter().any(|c| is_256_or_rgb(c)),
        "tmux-256color uses its 256 colours: {tmux_codes:?}"
    );
    assert!(
        !xterm_codes.iter().any(|c| c.starts_with("38;2")),
        "no 24-bit colour without COLORTERM"
    );
    for (term, codes) in [
        ("screen", &screen_codes),
        ("tmux-256color", &tmux_codes),
        ("xterm-256color", &xterm_codes),
    ] {
        let bg: Vec<&String> = codes
            .iter()
            .filter(|c| c.starts_with("48;") || c.starts_with('4') && c.len() == 2)
            .collect();
        assert!(bg.is_empty(), "TERM={term}: the background was painted: {bg:?}");
    }
}

#[test]
fn no_color_means_no_colour_sequences() {
    let (help, codes) = session("xterm-256color", "1");
    assert!(help.len() > 15);
    assert!(codes.is_empty(), "NO_COLOR=1 but ktui sent colours: {codes:?}");
}
