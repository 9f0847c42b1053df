//! A goal tracker: step a world until body A has touched body B (by a [`TouchRule`]) after each
//! of N consecutive steps, or M steps are done, checking the relation after every step. N and M
//! are the caller's ([`RunOptions::hold_steps`], [`RunOptions::max_steps`]): the engine has no
//! task rules (PHYRE's are `tasks::PHYRE_RUN`).
//!
//! Both are counted in steps, not seconds: their duration is the world's to decide
//! ([`crate::StepSettings::dt`]). PHYRE's 180-step hold and 1000-step run are 3 s and 16.7 s
//! only at PHYRE's 60 Hz; a caller stepping at another rate converts its times itself.

use crate::body::BodyId;
use crate::fixed::Fixed;
use crate::hash::chain;
use crate::shape::Shape;
use crate::world::World;

/// How "touching" is decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TouchRule {
    /// At least one manifold point between any parts of the two bodies (as of the last narrow
    /// phase, so it lags positions by one step).
    Contact,
    /// For two single-circle bodies: centre distance < r1 + r2 + `margin`, on current positions.
    CentreDistance { margin: Fixed },
}

/// A touching goal between two bodies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Goal {
    pub body_a: BodyId,
    pub body_b: BodyId,
    pub rule: TouchRule,
}

impl Goal {
    /// Whether the relation holds in `world` now.
    pub fn holds(&self, world: &World) -> bool {
        match self.rule {
            TouchRule::Contact => world.touching(self.body_a, self.body_b),
            TouchRule::CentreDistance { margin } => {
                let (Some(a), Some(b)) = (world.body(self.body_a), world.body(self.body_b)) else {
                    return false;
                };
                match (a.parts(), b.parts()) {
                    ([Shape::Circle(ca)], [Shape::Circle(cb)]) => {
                        let pa = a.transform().apply(ca.center);
                        let pb = b.transform().apply(cb.center);
                        (pb - pa).shorter_than(ca.radius + cb.radius + margin)
                    }
                    _ => world.touching(self.body_a, self.body_b),
                }
            }
        }
    }
}

/// Result of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RunOutcome {
    pub solved: bool,
    /// Steps the run covers: the step count when solved, else the full length.
    pub steps: u32,
    /// Steps actually computed (fewer when the world came to rest and the rest was decided).
    pub stepped: u32,
    /// Step number (1-based: after that many steps) at which the goal first held.
    pub first_touch_step: Option<u32>,
    /// Step number at which the hold reached [`RunOptions::hold_steps`].
    pub solved_step: Option<u32>,
    /// [`World::state_hash`] after the last step covered.
    pub final_hash: u64,
    /// Per-step chained hash (only when requested; else 0).
    pub hash_chain: u64,
}

/// Options of [`run`].
#[derive(Clone, Copy, Debug)]
pub struct RunOptions {
    /// The goal is reached once its relation has held after this many consecutive steps.
    pub hold_steps: u32,
    /// Steps in a full run.
    pub max_steps: u32,
    /// Chain [`World::state_hash`] after every step into `hash_chain` (and disable the early
    /// exit's shortcut for the hash, which stays exact anyway).
    pub chain_hashes: bool,
    /// Decide the remaining steps without stepping once nothing is awake.
    pub early_exit: bool,
    /// Stop as soon as the status (solved or not) and the solved step are decided, even if
    /// the state at the end of the run is not (see [`run`]): for jobs that need only those.
    pub status_only: bool,
}

impl RunOptions {
    /// A full run of at most `max_steps` steps that ends once the goal has held for `hold_steps`
    /// consecutive steps; early exit on, no hash chain, not status-only.
    pub const fn new(hold_steps: u32, max_steps: u32) -> RunOptions {
        RunOptions {
            hold_steps,
            max_steps,
            chain_hashes: false,
            early_exit: true,
            status_only: false,
        }
    }
}

/// Step `world` until the goal has held for `opts.hold_steps` consecutive steps or
/// `max_steps` are done. `observer(step, world)` is called after every step (1-based).
///
/// Early exit: once no dynamic body is awake, a step cannot change the state (contacts of
/// sleeping pairs are kept, nothing is integrated), so the remaining steps are decided without
/// stepping; the outcome, including every hash, is the same as with full stepping.
///
/// With [`RunOptions::status_only`] (and `observer` then sees fewer steps) the run also stops
/// once its status is decided, which cannot change `solved`, `steps` or `solved_step`:
/// * when the goal's current hold plus the steps left is below `hold_steps`, no hold can
///   complete any more: not solved;
/// * when the world is at rest (early exit on), the goal's relation can no longer change (the
///   state is frozen), so it is solved exactly when it holds now and the hold completes within
///   `max_steps`, at the step where it completes.
///
/// `stepped`, `first_touch_step`, `final_hash` and `hash_chain` then describe the steps computed
/// before the decision, not the whole run; `hash_chain` requests are ignored (audits use full
/// runs).
pub fn run(
    world: &mut World,
    goal: &Goal,
    opts: RunOptions,
    observer: impl FnMut(u32, &World),
) -> RunOutcome {
    let mut tracker = Tracker::new(opts);
    run_from(world, goal, &mut tracker, 1, observer)
}

/// [`run`] from step `first` on, with the bookkeeping of the steps before it in `tracker`
/// (`world` has taken `first - 1` steps).
pub(crate) fn run_from(
    world: &mut World,
    goal: &Goal,
    t: &mut Tracker,
    first: u32,
    mut observer: impl FnMut(u32, &World),
) -> RunOutcome {
    let opts = t.opts;
    let chain_hashes = opts.chain_hashes && !opts.status_only;
    for step in first..=opts.max_steps {
        if t.at_rest {
            world.advance_at_rest();
        } else {
            world.step();
            t.stepped += 1;
            t.at_rest = opts.early_exit && world.is_at_rest();
            if t.at_rest {
                t.rest_hash = world.state_hash();
            }
        }
        if chain_hashes {
            let h = if t.at_rest {
                t.rest_hash
            } else {
                world.state_hash()
            };
            t.hash_chain = chain(t.hash_chain, h);
        }
        observer(step, world);
        if let Some(decision) = t.observe(step, goal.holds(world)) {
            return t.outcome(decision, world);
        }
    }
    t.outcome(Decision::RanOut, world)
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Decision {
    /// The goal held for `hold_steps` steps, completing at this step.
    Solved(u32),
    /// Status-only: no hold can complete any more.
    NotSolved,
    /// Every step was covered without the goal holding long enough.
    RanOut,
}

/// The bookkeeping of a run, step by step: the goal's current hold, the first touch, the steps
/// computed, the hash chain, and whether the world is at rest. The one place the rules of
/// [`run`] on holds and status-only decisions are written (the shared-scene runs of
/// `scene.rs` use it too).
#[derive(Clone, Debug)]
pub(crate) struct Tracker {
    pub(crate) opts: RunOptions,
    consecutive: u32,
    first_touch: Option<u32>,
    pub(crate) stepped: u32,
    hash_chain: u64,
    pub(crate) at_rest: bool,
    pub(crate) rest_hash: u64,
}

impl Tracker {
    pub(crate) fn new(opts: RunOptions) -> Tracker {
        Tracker {
            opts,
            consecutive: 0,
            first_touch: None,
            stepped: 0,
            hash_chain: 0,
            at_rest: false,
            rest_hash: 0,
        }
    }

    /// Record whether the goal held after `step`; the decision, once the run is decided.
    pub(crate) fn observe(&mut self, step: u32, holds: bool) -> Option<Decision> {
        let opts = self.opts;
        if holds {
            self.consecutive += 1;
            self.first_touch.get_or_insert(step);
            if self.consecutive >= opts.hold_steps {
                return Some(Decision::Solved(step));
            }
        } else {
            self.consecutive = 0;
        }
        if opts.status_only {
            let left = opts.max_steps - step;
            if self.at_rest {
                // Frozen: the hold (if any) just continues; none can start.
                if self.consecutive > 0 && self.consecutive + left >= opts.hold_steps {
                    return Some(Decision::Solved(
                        step + (opts.hold_steps - self.consecutive),
                    ));
                }
                // Not solved: the same outcome as running out of steps.
                return Some(Decision::NotSolved);
            } else if self.consecutive + left < opts.hold_steps {
                return Some(Decision::NotSolved);
            }
        }
        None
    }

    /// The outcome of a run decided by `decision`, `world` being its last computed state.
    pub(crate) fn outcome(&self, decision: Decision, world: &World) -> RunOutcome {
        let (solved, steps, solved_step) = match decision {
            Decision::Solved(at) => (true, at, Some(at)),
            Decision::NotSolved | Decision::RanOut => (false, self.opts.max_steps, None),
        };
        RunOutcome {
            solved,
            steps,
            stepped: self.stepped,
            first_touch_step: self.first_touch,
            solved_step,
            final_hash: world.state_hash(),
            hash_chain: self.hash_chain,
        }
    }
}
