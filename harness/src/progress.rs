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

/// A bar of DQN training updates (over every fold being trained) with the recent loss.
struct TrainingBar {
    bar: ProgressBar,
    /// Exponential moving average of the loss, as f32 bits (updates come from several folds'
    /// threads).
    loss: std::sync::atomic::AtomicU32,
}

/// A new progress bar for DQN training.
pub fn training_bar() -> Arc<dyn agents::dqn::TrainProgress> {
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} DQN updates, {msg} ETA {eta}",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    Arc::new(TrainingBar {
        bar,
        loss: std::sync::atomic::AtomicU32::new(f32::NAN.to_bits()),
    })
}

impl agents::dqn::TrainProgress for TrainingBar {
    fn planned(&self, updates: u64) {
        self.bar.inc_length(updates);
    }
    fn update(&self, loss: f32) {
        use std::sync::atomic::Ordering;
        // Display only: a lost race between two folds' updates costs one sample of the average.
        let old = f32::from_bits(self.loss.load(Ordering::Relaxed));
        let new = if old.is_nan() {
            loss
        } else {
            0.98 * old + 0.02 * loss
        };
        self.loss.store(new.to_bits(), Ordering::Relaxed);
        self.bar.set_message(format!("loss {new:.3}"));
        self.bar.inc(1);
    }
    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
