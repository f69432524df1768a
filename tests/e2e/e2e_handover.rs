//! Handing the terminal to a job and taking it back (`ktui::terminal::lend`,
//! `ktui::runtime::handover::run`), in a real pty: this test binary runs itself as the probe
//! program (`handover_probe`, active only with `KTUI_HANDOVER_PROBE` set), which enters
//! ktui's terminal mode, draws a frame, stops its event reader, lends the terminal to `sh`
//! exactly as the loop does, then takes it back and repaints. The tests compare the screens
//! before and after, look at the pty's modes during the job, type into the child and check
//! that the restarted reader sees keys again.

use std::collections::VecDeque;
use std::time::Duration;

use crossterm::event::{Event as TermEvent, KeyCode};
use ktui::app::handover::{CommandJob, Handover, Job, Then};
use ktui::runtime::handover::run;
use ktui::runtime::run::Event;
use ktui::terminal::{EventReader, TerminalGuard};
use ratatui::widgets::{Block, Paragraph};

use crate::pty::Tui;
use crate::util::assert_terminal_restored;

const SLOW: Duration = Duration::from_secs(15);

/// The child for a cooked-mode job: reads a line, then waits for SIGINT and exits 7.
const COOKED: &str = "trap 'printf \"child:INT\\n\"; exit 7' INT; printf 'child running\\n'; \
     read line; printf 'got:%s\\n' \"$line\"; while :; do sleep 0.1; done";

/// The probe program (see the module doc); a no-op as an ordinary test.
#[test]
fn handover_probe() {
    let Ok(script) = std::env::var("KTUI_HANDOVER_PROBE") else {
        return;
    };
    let out = std::env::var("KTUI_PROBE_OUT").expect("KTUI_PROBE_OUT");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async move {
        let mut guard = TerminalGuard::enter(false).unwrap();
        let draw = |g: &mut TerminalGuard| {
            g.terminal
                .draw(|f| {
                    let text = "handover probe\nline two  │ with a box char\nthird line";
                    f.render_widget(Paragraph::new(text).block(Block::bordered()), f.area());
                })
                .unwrap();
        };
        draw(&mut guard);
        let keys = |tx: tokio::sync::mpsc::UnboundedSender<char>| {
            EventReader::start(move |ev| match ev {
                Some(TermEvent::Key(k)) => match k.code {
                    KeyCode::Char(c) => tx.send(c).is_ok(),
                    _ => true,
                },
                _ => true,
            })
        };
        let (ktx, mut krx) = tokio::sync::mpsc::unbounded_channel();
        let reader = keys(ktx.clone());
        while krx.recv().await != Some('h') {}
        reader.stop().await;
        // The loop's channel: SIGINT arrives as ktui's own handler sends it.
        let (etx, mut erx) = tokio::sync::mpsc::unbounded_channel();
        let sig = etx.clone();
        let mut int = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt()).unwrap();
        tokio::spawn(async move {
            while int.recv().await.is_some() {
                let _ = sig.send(Event::Signal(2));
            }
        });
        etx.send(Event::Tick).unwrap();
        let h = Handover {
            label: "sh".into(),
            job: Job::Command(CommandJob {
                program: "sh".into(),
                args: vec!["-c".into(), script],
                env: vec![],
            }),
            then: Then::Note,
        };
        let mut backlog = VecDeque::new();
        let outcome = run(&h, &mut erx, &mut backlog, false, None).await;
        let reader = keys(ktx);
        {
            use ratatui::backend::Backend;
            guard.terminal.backend_mut().clear().unwrap();
            guard.terminal.current_buffer_mut().reset();
            guard.terminal.swap_buffers();
        }
        draw(&mut guard);
        let kept: Vec<&str> = backlog
            .iter()
            .map(|e| match e {
                Event::Tick => "Tick",
                Event::Signal(_) => "Signal",
                _ => "other",
            })
            .collect();
        std::fs::write(&out, format!("{}\n{}\n", outcome.words(), kept.join(","))).unwrap();
        while krx.recv().await != Some('q') {}
        reader.stop().await;
        drop(guard);
    });
    std::process::exit(0);
}

/// Runs the probe with `script` in an 80x24 pty; returns it and its outcome file.
fn probe(script: &str) -> (Tui, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("outcome");
    let exe = std::env::current_exe().unwrap();
    let k = Tui::spawn(
        &exe,
        &["--exact", "e2e_handover::handover_probe", "--nocapture", "-q"],
        &[
            ("KTUI_HANDOVER_PROBE", script.as_ref()),
            ("KTUI_PROBE_OUT", out.as_os_str()),
        ],
        24,
        80,
    );
    (k, dir)
}

/// Waits until the probe's whole first frame is on screen and returns it: the bottom
/// border is the last cell drawn, so a screen read as soon as the title shows can be a
/// half-written frame that the repaint after the job never matches.
fn whole_frame(k: &mut Tui) -> String {
    k.wait_until("the probe's whole first frame", SLOW, |s| {
        s.contains("third line") && s.trim_end().ends_with('┘')
    });
    k.screen()
}

fn outcome(dir: &tempfile::TempDir) -> String {
    let path = dir.path().join("outcome");
    let start = std::time::Instant::now();
    while start.elapsed() < SLOW {
        if let Ok(s) = std::fs::read_to_string(&path) {
            if s.ends_with('\n') {
                return s;
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("the probe wrote no outcome");
}

#[test]
fn a_cooked_job_gets_the_terminal_and_ctrl_c_and_the_screen_comes_back_identical() {
    let (mut k, dir) = probe(COOKED);
    let before = whole_frame(&mut k);
    assert!(k.alternate_screen());
    k.type_keys("h");
    k.wait_for("child running", SLOW);
    assert!(
        !k.alternate_screen(),
        "the job runs on the main screen\n{}",
        k.dump()
    );
    let t = k.termios().unwrap();
    assert!(
        t.c_lflag & libc::ICANON != 0 && t.c_lflag & libc::ECHO != 0,
        "a child gets a cooked terminal: c_lflag={:#o}",
        t.c_lflag
    );
    // Nothing of the probe reads stdin now: the whole line reaches the child.
    k.type_keys("hello");
    k.press_enter();
    k.wait_for("got:hello", SLOW);
    k.press_ctrl_c();
    let words = outcome(&dir);
    assert_eq!(
        words, "exit code 7\nTick\n",
        "the child ended on its SIGINT trap; the probe ignored SIGINT and kept the Tick"
    );
    k.wait_until("the screen from before the job", SLOW, |s| s == before);
    assert!(k.alternate_screen() && k.cursor_hidden(), "{}", k.dump());
    let t = k.termios().unwrap();
    assert!(t.c_lflag & libc::ICANON == 0, "raw mode again after the job");
    // The restarted reader sees keys again.
    k.type_keys("q");
    assert!(k.wait_exit(SLOW).is_some(), "probe did not quit\n{}", k.dump());
    assert_terminal_restored(&k);
}

#[test]
fn a_failing_child_is_reported_and_the_terminal_comes_back() {
    let (mut k, dir) = probe("exec /nonexistent/editor");
    let before = whole_frame(&mut k);
    k.type_keys("h");
    let words = outcome(&dir);
    assert!(words.starts_with("exit code 127"), "{words}");
    k.wait_until("the screen from before the job", SLOW, |s| s == before);
    k.type_keys("q");
    assert!(k.wait_exit(SLOW).is_some(), "probe did not quit\n{}", k.dump());
    assert_terminal_restored(&k);
}
