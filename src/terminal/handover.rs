//! Lending the real terminal to a job and taking it back: [`lend`] leaves ktui's screen (the
//! alternate screen, mouse capture, bracketed paste, hidden cursor and, for a child process,
//! raw mode) and returns a [`Lent`] guard whose [`Lent::take_back`] (or drop, on every other
//! path: error, panic unwinding) re-enters it. Owns those mode switches only; must not read
//! input or draw (the loop stops its event reader first and repaints everything after).
//!
//! The sequence the loop runs (see `app::handover`):
//! 1. stop the event reader ([`super::EventReader::stop`]) so nothing in ktui reads stdin;
//! 2. [`lend`] with [`Lend::Cooked`] for a child process that owns the terminal itself
//!    (`$EDITOR`, a pager), or [`Lend::Raw`] for an in-process session that pipes stdin and
//!    stdout itself (exec, attach) and forwards SIGWINCH as resizes;
//! 3. run the job to completion;
//! 4. [`Lent::take_back`], restart the reader, repaint the whole screen.

use std::io;

use crossterm::{cursor, event, execute, terminal};

/// How the terminal is lent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lend {
    /// Cooked (canonical) mode with echo, as a shell leaves it for a child process: the
    /// child sets whatever modes it needs and the tty delivers `ctrl-c` to it as SIGINT.
    Cooked,
    /// Raw mode kept: every byte, `ctrl-c` included, reaches whoever reads stdin (an
    /// in-process session forwarding them to a remote process).
    Raw,
}

/// The terminal as lent; dropping it (or [`Lent::take_back`]) restores ktui's modes.
#[derive(Debug)]
pub struct Lent {
    mode: Lend,
    mouse: bool,
    back: bool,
}

/// Leaves ktui's screen for a job. `mouse` says whether ktui had mouse capture on (`[ui]
/// mouse`), so that it is turned back on. Errors are the terminal's write or `tcsetattr`
/// failures; on an error ktui's modes are re-entered before it is returned.
pub fn lend(mode: Lend, mouse: bool) -> io::Result<Lent> {
    // Built first: if a switch below fails, its drop re-enters ktui's modes.
    let lent = Lent {
        mode,
        mouse,
        back: false,
    };
    let mut out = io::stdout();
    execute!(
        out,
        event::DisableMouseCapture,
        event::DisableBracketedPaste,
        terminal::LeaveAlternateScreen,
        cursor::Show
    )?;
    if mode == Lend::Cooked {
        terminal::disable_raw_mode()?;
    }
    Ok(lent)
}

impl Lent {
    /// How the terminal was lent.
    pub fn mode(&self) -> Lend {
        self.mode
    }

    /// Re-enters ktui's screen: raw mode, the alternate screen, hidden cursor, bracketed
    /// paste and mouse capture as before. The caller repaints everything afterwards (the
    /// alternate screen's contents are not kept by every terminal).
    pub fn take_back(mut self) -> io::Result<()> {
        self.back = true;
        reenter(self.mouse)
    }
}

impl Drop for Lent {
    fn drop(&mut self) {
        if !self.back {
            let _ = reenter(self.mouse);
        }
    }
}

/// Raw mode, the alternate screen, a hidden cursor, bracketed paste and (with `mouse`) mouse
/// reporting: ktui's modes, at start and again after a job (which may have changed them).
pub(super) fn reenter(mouse: bool) -> io::Result<()> {
    terminal::enable_raw_mode()?;
    let mut out = io::stdout();
    execute!(
        out,
        terminal::EnterAlternateScreen,
        cursor::Hide,
        event::EnableBracketedPaste
    )?;
    if mouse {
        execute!(out, event::EnableMouseCapture)?;
    }
    Ok(())
}
