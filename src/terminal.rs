//! The terminal guard: raw mode and the alternate screen on entry, restored on every way out
//! (normal exit, error, panic, SIGINT/SIGTERM/SIGHUP handled by the app loop). Owns terminal
//! modes only; must not draw. Lending the terminal to a job ([`lend`]) and the stoppable
//! event reader ([`EventReader`]) live in the submodules.

mod handover;
mod reader;
mod stdin;

pub use handover::{lend, Lend, Lent};
pub use reader::EventReader;
pub use stdin::StdinPump;

use std::io::{self, Stdout};
use std::mem::ManuallyDrop;
use std::ops::{Deref, DerefMut};

use anyhow::Result;
use crossterm::{cursor, event, execute, terminal};
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;

/// The ratatui terminal ktui draws on.
pub type Term = Terminal<CrosstermBackend<Stdout>>;

/// Holds the terminal in TUI mode; restores it when dropped.
pub struct TerminalGuard {
    /// The terminal to draw on. Never dropped: ratatui's own drop re-shows the cursor and
    /// reports failure with `eprintln!`, which panics when the TTY is already gone (hangup).
    /// [`restore`] does that job, ignoring errors.
    pub terminal: Kept<Term>,
}

/// A value that is never dropped (see [`TerminalGuard::terminal`]).
pub struct Kept<T>(ManuallyDrop<T>);

impl<T> Deref for Kept<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> DerefMut for Kept<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

impl TerminalGuard {
    /// Enters raw mode and the alternate screen, and installs a panic hook that restores the
    /// terminal before the panic message is printed.
    /// With `mouse`, mouse reporting is turned on too (`[ui] mouse`).
    pub fn enter(mouse: bool) -> Result<Self> {
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            prev(info);
        }));
        handover::reenter(mouse)?;
        let terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
        Ok(TerminalGuard {
            terminal: Kept(ManuallyDrop::new(terminal)),
        })
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
    }
}

/// Leaves the alternate screen and raw mode. Safe to call more than once; errors are ignored
/// because there is nothing better to do with them while exiting.
pub fn restore() {
    let mut out = io::stdout();
    let _ = execute!(
        out,
        event::DisableMouseCapture,
        event::DisableBracketedPaste,
        terminal::LeaveAlternateScreen,
        cursor::Show
    );
    let _ = terminal::disable_raw_mode();
}
