//! A progress line on stderr while a long command works, only when stderr is a terminal.
//!
//! The library does not know about it: the line shows the phase that the command line sets
//! ([`phase`]) and the last `tracing` event of subst's own modules at debug level or above
//! (the component under containment, the refinement round, the membership queries of a dynamic
//! check), read by a [`tracing_subscriber::Layer`]. It is cleared ([`clear`]) before a report
//! is printed, so it never mixes with the output.
//!
//! Known weakness: the line changes only when the library logs; a long step without an event
//! (one SMT query) shows the clock running and the last message.

use std::fmt::Write;
use std::sync::OnceLock;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use tracing::field::{Field, Visit};
use tracing_subscriber::layer::Context;

static BAR: OnceLock<ProgressBar> = OnceLock::new();

/// Starts the progress line; does nothing unless `enabled` (stderr is a terminal and no log
/// goes there).
pub fn start(enabled: bool) {
    if !enabled {
        return;
    }
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template("{spinner} {elapsed:>4} {prefix}: {wide_msg}")
        .unwrap_or_else(|_| ProgressStyle::default_spinner());
    bar.set_style(style);
    bar.set_prefix("starting");
    bar.enable_steady_tick(Duration::from_millis(120));
    let _ = BAR.set(bar);
}

/// Names the phase the command is in (`containment`, `compatibility`, ...).
pub fn phase(name: &str) {
    if let Some(bar) = BAR.get() {
        bar.set_prefix(name.to_string());
        bar.set_message("");
    }
}

/// Removes the line, before a report is printed.
pub fn clear() {
    if let Some(bar) = BAR.get() {
        bar.finish_and_clear();
    }
}

/// The `tracing` layer that feeds the line; filter it to subst's own events.
pub struct ProgressLayer;

#[derive(Default)]
struct Message(String);

impl Visit for Message {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        let text = format!("{value:?}");
        // Long values (traces, per-level vectors) would not fit on one line.
        if text.len() > 40 {
            return;
        }
        if field.name() == "message" {
            self.0.insert_str(0, &text);
        } else {
            let _ = write!(self.0, " {}={text}", field.name());
        }
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            self.0.insert_str(0, value);
        } else if value.len() <= 40 {
            let _ = write!(self.0, " {}={value}", field.name());
        }
    }
}

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for ProgressLayer {
    fn on_event(&self, event: &tracing::Event<'_>, _ctx: Context<'_, S>) {
        let Some(bar) = BAR.get() else { return };
        let mut m = Message::default();
        event.record(&mut m);
        bar.set_message(m.0);
    }
}
