//! Unit tests of the drain overlay's end: cancelling says so in the footer (no `…` left
//! behind), a finished drain's outcome replaces the "running" note, and keys
//! after a finished drain are not swallowed; a dialog (and `c`) over marked rows the filter
//! hides says so. Helpers are the parent module's.

use super::*;
use crate::app::outcome::WriteEvent;
use crate::app::writes::model::DrainState;
use crate::kube::write::drain::DrainEvent;

fn draining(f: &mut Fixture) {
    f.state.note("drain node/n1 (context dev)…".into());
    f.state.screens.overlays.drain = Some(DrainState::new("n1".into(), "dev".into()));
    crate::app::outcome::apply(&mut f.state, WriteEvent::Drain(DrainEvent::Cordoned));
    crate::app::outcome::apply(
        &mut f.state,
        WriteEvent::Drain(DrainEvent::Evicted("a/p1".into())),
    );
}

fn footer(f: &Fixture) -> String {
    f.state.screens.footer.message.clone().unwrap_or_default()
}

#[test]
fn cancelling_a_drain_says_it_stopped_and_the_next_key_acts() {
    let mut f = pods(&["web", "db"]);
    draining(&mut f);
    let fx = press(&mut f.state, "esc");
    assert!(fx.contains(&Effect::CancelDrain), "{fx:?}");
    let d = f
        .state
        .screens
        .overlays
        .drain
        .as_ref()
        .expect("the overlay shows what was done");
    assert!(!d.running);
    let said = footer(&f);
    assert!(said.contains("cancelled") && !said.contains('…'), "{said}");
    assert!(said.contains("1 evicted"), "{said}");
    // A step already on its way changes nothing, and the next keys act.
    press(&mut f.state, "j");
    assert!(f.state.screens.overlays.drain.is_none(), "j closed it");
    assert_eq!(f.state.top_list().unwrap().selected, 1, "and moved");
    // A step still on its way changes nothing.
    crate::app::outcome::apply(
        &mut f.state,
        WriteEvent::Drain(DrainEvent::Evicted("a/p2".into())),
    );
    assert!(f.state.screens.overlays.drain.is_none());
}

#[test]
fn a_finished_drain_says_so_and_the_next_key_is_not_swallowed() {
    let mut f = pods(&["web", "db"]);
    draining(&mut f);
    crate::app::outcome::apply(&mut f.state, WriteEvent::Drain(DrainEvent::Done(1)));
    let said = footer(&f);
    assert!(said.contains("drained") && !said.contains('…'), "{said}");
    press(&mut f.state, "j");
    assert!(
        f.state.screens.overlays.drain.is_none(),
        "any key closes a finished drain"
    );
    assert_eq!(f.state.top_list().unwrap().selected, 1, "and acts");
}

#[test]
fn a_dialog_over_marks_the_filter_hides_says_so_and_names_them() {
    let mut f = pods(&["keep-1", "drop-1", "drop-2", "keep-2"]);
    // Mark all four, then filter to the keep ones.
    press(&mut f.state, "space space space space");
    f.state.top_list_mut().unwrap().filter = "keep".into();
    crate::app::refresh_top::refresh_top(&mut f.state);
    press(&mut f.state, "ctrl-d");
    let d = f.state.screens.overlays.dialog.as_ref().expect("a dialog");
    let text = d.lines.join("\n");
    assert!(
        text.contains("2 of them hidden by the filter /keep: drop-1, drop-2"),
        "{text}"
    );
}

#[test]
fn copying_marks_the_filter_hides_says_so() {
    let mut f = pods(&["keep-1", "drop-1"]);
    press(&mut f.state, "space space");
    f.state.top_list_mut().unwrap().filter = "keep".into();
    crate::app::refresh_top::refresh_top(&mut f.state);
    press(&mut f.state, "c");
    let said = footer(&f);
    assert!(said.contains("1 of them hidden by the filter /keep"), "{said}");
}
