//! Copy to the clipboard, and where it went: inside tmux `tmux load-buffer -w -` (a tmux
//! buffer, and the outer terminal's clipboard when it can take one — with tmux's default
//! settings, where an OSC 52 wrapped in tmux's DCS passthrough is dropped, `allow-passthrough
//! off`, and a plain one does not make a buffer, `set-clipboard external`); else a system
//! clipboard tool found on PATH (`wl-copy`, `xclip`, `xsel`, `pbcopy`); else the OSC 52
//! escape sequence, which terminals turn into a clipboard write (so it works over SSH). Owns
//! choosing the way ([`Way`]), running the tool (in a blocking task of the runtime) and
//! building the sequence under a size cap; the loop writes the sequence to the terminal.

use base64::Engine;

/// Most bytes of text copied: terminals drop longer OSC 52 sequences (xterm's default
/// limit is around 100 kB of base64), so more is refused rather than cut silently.
pub const MAX_BYTES: usize = 64 * 1024;

/// The sequence putting `text` on the clipboard (`ESC ] 52 ; c ; <base64> BEL`); inside tmux
/// wrapped in its DCS passthrough (`ESC P tmux ; …ESC doubled… ESC \`). `Err` when the text is
/// over [`MAX_BYTES`].
pub fn osc52(text: &str, tmux: bool) -> Result<String, String> {
    if text.len() > MAX_BYTES {
        return Err(format!(
            "{} bytes are too many to copy through the terminal (at most {MAX_BYTES})",
            text.len()
        ));
    }
    let b64 = base64::engine::general_purpose::STANDARD.encode(text);
    let seq = format!("\x1b]52;c;{b64}\x07");
    Ok(if tmux {
        format!("\x1bPtmux;{}\x1b\\", seq.replace('\x1b', "\x1b\x1b"))
    } else {
        seq
    })
}

/// How a copy reaches a clipboard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Way {
    /// `tmux load-buffer -w -`: tmux's buffer, and the terminal's clipboard through tmux.
    Tmux(std::path::PathBuf),
    /// A clipboard tool (program, arguments).
    Tool(std::path::PathBuf, &'static [&'static str]),
    /// The OSC 52 sequence written to the terminal.
    Osc52,
}

impl Way {
    /// Where the text went, for the footer.
    pub fn words(&self) -> String {
        match self {
            Way::Tmux(_) => "to tmux's paste buffer (and the terminal's clipboard)".into(),
            Way::Tool(p, _) => format!(
                "to the system clipboard ({})",
                p.file_name().and_then(|n| n.to_str()).unwrap_or("tool")
            ),
            Way::Osc52 => "to the terminal's clipboard (OSC 52)".into(),
        }
    }
}

/// The way to copy here, from the environment (`var` reads a variable) and the programs on
/// `path` (`$PATH`).
pub fn choose(var: impl Fn(&str) -> Option<String>, path: &str) -> Way {
    let find = |name: &str| {
        std::env::split_paths(path)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    };
    let set = |v: &str| var(v).is_some_and(|s| !s.is_empty());
    if set("TMUX") {
        if let Some(p) = find("tmux") {
            return Way::Tmux(p);
        }
    }
    let tools: [(&str, &'static [&'static str], bool); 4] = [
        ("wl-copy", &[], set("WAYLAND_DISPLAY")),
        ("xclip", &["-selection", "clipboard"], set("DISPLAY")),
        ("xsel", &["--clipboard", "--input"], set("DISPLAY")),
        ("pbcopy", &[], cfg!(target_os = "macos")),
    ];
    for (name, args, usable) in tools {
        if let Some(p) = find(name).filter(|_| usable) {
            return Way::Tool(p, args);
        }
    }
    Way::Osc52
}

/// Runs `way`'s program with `text` on its standard input (blocking: run it off the loop);
/// `Err` in words when it could not run or failed.
pub fn run(way: &Way, text: &str) -> Result<(), String> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut cmd = match way {
        Way::Tmux(p) => {
            let mut c = Command::new(p);
            c.args(["load-buffer", "-w", "-"]);
            c
        }
        Way::Tool(p, args) => {
            let mut c = Command::new(p);
            c.args(*args);
            c
        }
        Way::Osc52 => return Ok(()),
    };
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{}: {e}", way.words()))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    }
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        let err = String::from_utf8_lossy(&out.stderr);
        Err(format!("{}: {}", out.status, err.trim()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_and_wraps_for_tmux() {
        assert_eq!(osc52("web", false).unwrap(), "\x1b]52;c;d2Vi\x07");
        assert_eq!(
            osc52("web", true).unwrap(),
            "\x1bPtmux;\x1b\x1b]52;c;d2Vi\x07\x1b\\"
        );
        assert!(osc52(&"x".repeat(MAX_BYTES + 1), false).is_err());
        assert!(osc52(&"x".repeat(MAX_BYTES), false).is_ok());
    }

    #[test]
    fn tmux_first_then_a_tool_for_the_display_then_osc52() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["tmux", "xclip", "wl-copy"] {
            std::fs::write(dir.path().join(name), "").unwrap();
        }
        let path = dir.path().to_str().unwrap().to_owned();
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |k: &str| vars.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
        };
        let tmux = choose(
            env(&[("TMUX", "/tmp/tmux-0/default,1,0"), ("DISPLAY", ":0")]),
            &path,
        );
        assert!(matches!(tmux, Way::Tmux(_)), "{tmux:?}");
        let x = choose(env(&[("DISPLAY", ":0")]), &path);
        assert!(x.words().contains("xclip"), "{x:?}");
        let w = choose(env(&[("WAYLAND_DISPLAY", "wayland-0"), ("DISPLAY", ":0")]), &path);
        assert!(w.words().contains("wl-copy"), "{w:?}");
        assert_eq!(choose(env(&[]), &path), Way::Osc52, "no display: the terminal");
        assert_eq!(choose(env(&[("TMUX", "x")]), ""), Way::Osc52, "no tmux program");
    }
}
