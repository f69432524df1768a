//! Copy to the clipboard through the terminal: the OSC 52 escape sequence, which terminals
//! (and tmux, when wrapped in its passthrough) turn into a clipboard write — so it works over
//! SSH. Owns building that sequence under a size cap; must not read the environment (the
//! loop says whether tmux is in between) nor write to the terminal itself.

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
}
