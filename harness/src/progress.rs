//! The progress bar of long runs on stderr.

use indicatif::{ProgressBar, ProgressStyle};
use std::sync::Arc;
use studies::runner::Progress;

/// A bar of finished tasks with the simulation rate and the time left.
struct Bar(ProgressBar);

/// A new progress bar for the runner.
pub fn bar() -> Arc<dyn Progress> {
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} tasks, {msg} ETA {eta}",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    Arc::new(Bar(bar))
}

impl Progress for Bar {
    fn start(&self, total: u64, finished: u64) {
        self.0.set_length(total);
        self.0.set_position(finished);
    }
    fn rate(&self, sims_per_second: f64) {
        self.0.set_message(format!("{sims_per_second:.0} sims/s"));
    }
    fn task_finished(&self) {
        self.0.inc(1);
    }
    fn finish(&self) {
        self.0.finish_and_clear();
    }
}
