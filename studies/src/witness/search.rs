//! Witnesses of solvability: one **stable** solution per task (SPEC §8: the action solves, and
//! each of its 8 half-pixel neighbours solves or is invalid), found by a guided search.
//!
//! Why a search and not the SPEC's random sampling: proving a task solvable by the binomial rule
//! takes tens of thousands of random simulations per task (the original spent 778 million on the
//! 5,000 tasks, `random-action-status-counts.csv`), far beyond a 2-core machine. A single stable
//! solution is a constructive proof that the task *can* be solved in rephyre, and it is cheap to
//! re-check (at most 9 simulations), so a committed witness file is a regression test.
//!
//! The search works on the action lattice: validation truncates ball centres to whole pixels and
//! rounds radii, so an action is really a list of integer balls (x, y, r). It tries, in order,
//! the seeds it is given (e.g. the original's stored solutions for this task and its template's
//! other tasks), then alternates random actions from the shared counter-based RNG with jumps
//! near a seed (up to 2, 4, 8 or 16 px away, radius ±2 px): a template's tasks differ by small
//! moves of their objects, so a sibling's solution that misses here, or overlaps an object, often
//! has a solution a few pixels away. The caller may add siblings' solutions carried over to the
//! task ([`transfer_solution`]) for moves larger than a jump. A candidate that solves
//! but is not stable joins a frontier; the search then tries lattice points around frontier
//! points (first 1 and 2 px away from the neighbour that failed, then random jitters of up to
//! 3 px, moving one or both balls, with radius changes of ±1 px), with at most half of the
//! simulations: on some tasks a third of all candidates solve but nearly none stably, and
//! refining alone would never return to the exploration that finds the stable ones. Every
//! simulated outcome is cached by its exact quantized balls, so neighbour tests shared by nearby
//! lattice points cost nothing the second time. Everything is a pure function of (task, tier,
//! seeds, parameters).

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use engine::{Fixed, Vec2};
pub use tasks::Stability;
use tasks::{
    rng, simulated_status, stability_of_valid, validate_action, ActionTier, Status, Task,
    TaskScene, ValidAction, NEIGHBOUR_SHIFTS,
};

/// One quantized user ball on the action lattice: centre (px, truncated) and radius (px).
pub use tasks::witnesses::LatticeBall;

/// Parameters of [`find_witness`].
#[derive(Clone, Debug)]
pub struct SearchParams {
    /// Most simulations per task (candidates and their neighbours together).
    pub budget: u64,
    /// Lattice points tried around each frontier point before it is dropped.
    pub refine_trials: u32,
    /// Most frontier points kept at once.
    pub frontier_cap: usize,
    /// Seed of the random actions and jitters.
    pub seed: u64,
}

impl SearchParams {
    /// Defaults for a tier: the two-ball tier gets a larger budget, its solutions being rarer.
    pub fn for_tier(tier: ActionTier) -> SearchParams {
        SearchParams {
            budget: match tier {
                ActionTier::Ball => 4_000,
                ActionTier::TwoBalls => 12_000,
            },
            refine_trials: 24,
            frontier_cap: 32,
            seed: 0,
        }
    }
}

/// Where a witness came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Origin {
    /// Seed number `n` (in the order given), possibly refined.
    Seed(u32),
    /// Random action number `n` of the task's stream, possibly refined.
    Random(u64),
}

/// A stable solution.
#[derive(Clone, Debug, PartialEq)]
pub struct Witness {
    /// The quantized balls.
    pub balls: Vec<LatticeBall>,
    /// An action in [0, 1] that validates to exactly these balls.
    pub action: Vec<f64>,
    /// The seed or random action the search started from.
    pub origin: Origin,
    /// Refinement steps from that starting point (0: it was stable as given).
    pub refinements: u32,
}

/// What a search did.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchReport {
    pub witness: Option<Witness>,
    /// Simulations run (cache hits not counted).
    pub simulations: u64,
    /// Distinct lattice points tried.
    pub candidates: u64,
    /// Candidates that solved (stable or not).
    pub solved: u64,
}

/// The action that validates to exactly `balls`: centre (x + ½) / 255, radius (r − 2) / 30.
/// Centres must lie in 0..=254 and radii in 2..=32 (else the components leave [0, 1]).
#[allow(clippy::float_arithmetic)] // boundary: integers to the user's action numbers
pub fn lattice_action(balls: &[LatticeBall]) -> Vec<f64> {
    balls
        .iter()
        .flat_map(|&[x, y, r]| {
            [
                (f64::from(x) + 0.5) / 255.0,
                (f64::from(y) + 0.5) / 255.0,
                f64::from(r - 2) / 30.0,
            ]
        })
        .collect()
}

/// The lattice balls of a validated action.
pub fn lattice_of(v: &ValidAction) -> Vec<LatticeBall> {
    v.balls()
        .iter()
        .map(|b| [whole(b.x), whole(b.y), whole(b.r)])
        .collect()
}

fn whole(v: Fixed) -> i32 {
    // Quantized coordinates are whole pixels in 0..=256: the shift is exact.
    (v.raw() >> 32) as i32
}

/// The stable-solution test (SPEC §8, [`tasks::stability`]) of `action`, stopping at the first
/// failing neighbour. Counts the simulations it runs into `sims`.
pub fn stability(task: &Task, tier: ActionTier, action: &[f64], sims: &mut u64) -> Stability {
    tasks::stability(task, tier, action, |v| {
        *sims += 1;
        simulated_status(task, v)
    })
}

/// The search's memory of simulated outcomes, keyed by exact quantized balls (Q32.32 raw).
struct Oracle<'a> {
    task: &'a Task,
    /// The task's recorded scene, for the simulations.
    scene: TaskScene<'a>,
    tier: ActionTier,
    cache: BTreeMap<Vec<i64>, Status>,
    sims: u64,
}

impl Oracle<'_> {
    fn status(&mut self, v: &ValidAction) -> Status {
        let key: Vec<i64> = v
            .balls()
            .iter()
            .flat_map(|b| [b.x.raw(), b.y.raw(), b.r.raw()])
            .collect();
        if let Some(&s) = self.cache.get(&key) {
            return s;
        }
        self.sims += 1;
        let s = self.scene.simulated_status(v);
        self.cache.insert(key, s);
        s
    }

    /// The stable-solution test of a lattice point (cached simulations).
    fn check(&mut self, balls: &[LatticeBall]) -> Stability {
        let action = lattice_action(balls);
        let Ok(v) = validate_action(self.task, self.tier, &action) else {
            return Stability::Invalid;
        };
        if lattice_of(&v) != balls {
            // Cannot happen for in-range lattice points; treated as unusable, not as a solution.
            return Stability::Invalid;
        }
        let task = self.task;
        stability_of_valid(task, &v, |n| self.status(n))
    }
}

/// A solved but unstable lattice point being refined.
struct FrontierPoint {
    balls: Vec<LatticeBall>,
    failed: usize,
    origin: Origin,
    depth: u32,
    trials: u32,
}

/// Keep a lattice point inside the action range (centres 0..=254, radii 2..=32).
fn clamp(b: LatticeBall) -> LatticeBall {
    [b[0].clamp(0, 254), b[1].clamp(0, 254), b[2].clamp(2, 32)]
}

/// The lattice point an in-range action would quantize to, whether or not it is valid for the
/// task (an invalid seed still marks a promising neighbourhood). `None` outside [0, 1].
#[allow(clippy::float_arithmetic)] // boundary: the user's action numbers to integers
fn nominal_lattice(action: &[f64]) -> Option<Vec<LatticeBall>> {
    if action.is_empty() || !action.len().is_multiple_of(3) {
        return None;
    }
    if !action.iter().all(|a| (0.0..=1.0).contains(a)) {
        return None;
    }
    // Same mapping as validation: centres truncated, radii rounded half to even.
    Some(
        action
            .chunks_exact(3)
            .map(|a| {
                clamp([
                    (255.0 * a[0]).trunc() as i32,
                    (255.0 * a[1]).trunc() as i32,
                    (2.0 + 30.0 * a[2]).round_ties_even() as i32,
                ])
            })
            .collect(),
    )
}

/// Carry a solution of one task of a template over to another (`from` and `to` list the same
/// bodies in the same order, as a template's tasks do; otherwise there is nothing to carry).
///
/// Each ball keeps its offset from the body it is nearest to in `from` (walls excepted) and
/// moves with that body to its place in `to`; each ball also comes with its offset mirrored
/// left-right, since templates often place a mirrored variant of a scene (a jar tipped the other
/// way, a ramp facing the other side). Returns every combination (2 per ball, so 2 or 4
/// actions), the unchanged action excluded, duplicates removed, in a fixed order. A template's
/// tasks differ by moves of tens of pixels, beyond the reach of jumps near a seed, so these
/// carry a sibling's solution to where it can be refined. Fixed-point geometry throughout, so
/// the seeds (and the search) are the same on every platform.
pub fn transfer_solution(from: &Task, to: &Task, action: &[f64]) -> Vec<Vec<f64>> {
    let (fb, tb) = (from.bodies(), to.bodies());
    let corresponds = fb.len() == tb.len()
        && fb
            .iter()
            .zip(tb)
            .all(|(a, b)| a.shape_type == b.shape_type && a.kind == b.kind);
    let Some(balls) = nominal_lattice(action).filter(|_| corresponds) else {
        return Vec::new();
    };
    let half = Fixed::ratio(1, 2);
    // Per ball: its two placements in `to` (offset kept, offset mirrored).
    let placements: Vec<[LatticeBall; 2]> = balls
        .iter()
        .map(|&[x, y, r]| {
            let p = Vec2::new(Fixed::from_int(x) + half, Fixed::from_int(y) + half);
            let nearest = fb
                .iter()
                .enumerate()
                .filter(|(_, b)| b.shape_type != tasks::ShapeType::Undefined)
                .map(|(i, b)| (b.signed_distance(p), i))
                .min(); // ties go to the lower body index
            let Some((_, i)) = nearest else {
                return [[x, y, r]; 2];
            };
            let offset = p - fb[i].position;
            let at = |o: Vec2| {
                let q = tb[i].position + o;
                clamp([whole_floor(q.x), whole_floor(q.y), r])
            };
            [at(offset), at(Vec2::new(-offset.x, offset.y))]
        })
        .collect();
    let mut out: Vec<Vec<LatticeBall>> = Vec::new();
    for mask in 0..(1u32 << balls.len()) {
        let moved: Vec<LatticeBall> = placements
            .iter()
            .enumerate()
            .map(|(k, p)| p[((mask >> k) & 1) as usize])
            .collect();
        if moved != balls && !out.contains(&moved) {
            out.push(moved);
        }
    }
    out.iter().map(|b| lattice_action(b)).collect()
}

/// A pixel coordinate rounded down, saturated to the i32 range (clamped by the caller).
fn whole_floor(v: Fixed) -> i32 {
    v.floor_int()
        .clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

/// A jump near seed centre `c`: every ball moves (or, with two balls, sometimes just one) by up
/// to 2, 4, 8 or 16 px per axis, its radius by up to ±1 (short jumps) or ±2 px.
fn near_seed(c: &[LatticeBall], mut words: impl FnMut(u64) -> u64) -> Vec<LatticeBall> {
    let s = 2 << (words(0) % 4);
    let ds = if s == 2 { 1 } else { 2 };
    let mover = words(1) % (c.len() as u64 + 1);
    move_balls(c, mover, |i, b| {
        [
            b[0] + spread(words(2 + 3 * i), s),
            b[1] + spread(words(3 + 3 * i), s),
            b[2] + spread(words(4 + 3 * i), ds),
        ]
    })
}

/// Move the balls chosen by `mover` (ball `mover`, or all of them when it equals the number of
/// balls) with `step(ball index, ball)`, then clamp into the action range.
fn move_balls(
    balls: &[LatticeBall],
    mover: u64,
    mut step: impl FnMut(u64, &LatticeBall) -> LatticeBall,
) -> Vec<LatticeBall> {
    let n = balls.len() as u64;
    balls
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let i = i as u64;
            if mover == n || mover == i {
                clamp(step(i, b))
            } else {
                *b
            }
        })
        .collect()
}

/// Uniform integer in `-s..=s` from a random word.
fn spread(w: u64, s: i32) -> i32 {
    let width = (2 * s + 1) as u64;
    (w % width) as i32 - s
}

/// Refinement trial `k` around frontier point `p`, using random words from `words`.
fn refine(p: &FrontierPoint, k: u32, mut words: impl FnMut(u64) -> u64) -> Vec<LatticeBall> {
    let (hx, hy) = NEIGHBOUR_SHIFTS[p.failed];
    if k < 2 {
        // Step away from the side whose neighbour failed, by 1 then 2 px.
        let step = k as i32 + 1;
        return p
            .balls
            .iter()
            .map(|b| clamp([b[0] - hx * step, b[1] - hy * step, b[2]]))
            .collect();
    }
    let s = 1 + (k % 3) as i32;
    let n = p.balls.len() as u64;
    // Which balls move: all of them, or (two-ball tier) just one.
    let mover = words(0) % (n + 1);
    let dr = [0, 0, 0, -1, 1][(words(1) % 5) as usize];
    move_balls(&p.balls, mover, |i, b| {
        [
            b[0] + spread(words(2 + 3 * i), s),
            b[1] + spread(words(3 + 3 * i), s),
            b[2] + dr,
        ]
    })
}

/// Search for a stable solution of `task` with actions of `tier`: seeds first (in order), then
/// random actions of the stream `rng::stream_of(task id)` alternating with jumps near the seeds,
/// refining solved-but-unstable points.
pub fn find_witness(
    task: &Task,
    tier: ActionTier,
    seeds: &[Vec<f64>],
    params: &SearchParams,
) -> SearchReport {
    let mut oracle = Oracle {
        task,
        scene: TaskScene::new(task),
        tier,
        cache: BTreeMap::new(),
        sims: 0,
    };
    let stream = rng::stream_of(&task.id().to_string());
    // Refinement words use a different seed from the random actions.
    let jitter_seed = params.seed ^ 0x0077_6974_6e65_7373; // "witness" in ASCII

    // Jumps near seeds use a third seed ("nearby" in ASCII).
    let near_seed_seed = params.seed ^ 0x0000_6e65_6172_6279;
    // Neighbourhood centres: every seed of the right length and range, valid here or not.
    let centres: Vec<(u32, Vec<LatticeBall>)> = seeds
        .iter()
        .enumerate()
        .filter(|(_, a)| a.len() == tier.action_len())
        .filter_map(|(n, a)| Some((n as u32, nominal_lattice(a)?)))
        .collect();
    let (mut near_counter, mut near_turn) = (0u64, false);
    let mut seen: BTreeSet<Vec<LatticeBall>> = BTreeSet::new();
    let mut frontier: VecDeque<FrontierPoint> = VecDeque::new();
    let (mut next_seed, mut next_random, mut refine_counter) = (0usize, 0u64, 0u64);
    let (mut candidates, mut solved) = (0u64, 0u64);
    // Invalid candidates cost no simulation; bound them too, for tasks where nearly every
    // action is invalid.
    let attempt_cap = params.budget.saturating_mul(100);
    let mut attempts = 0u64;
    // Simulations spent refining and exploring (seeds, jumps, random actions). Refining gets at
    // most half: on tasks where solutions are common but nearly all unstable, a frontier that
    // never empties would otherwise starve the exploration that finds the rare stable one.
    let (mut refine_sims, mut explore_sims) = (0u64, 0u64);
    while oracle.sims < params.budget && attempts < attempt_cap {
        attempts += 1;
        let refining = !frontier.is_empty() && refine_sims <= explore_sims;
        let (balls, origin, depth) = if let Some(front) = frontier.front_mut().filter(|_| refining)
        {
            if front.trials >= params.refine_trials {
                frontier.pop_front();
                continue;
            }
            let k = front.trials;
            front.trials += 1;
            refine_counter += 1;
            let counter = refine_counter;
            let balls = refine(front, k, |w| rng::word(jitter_seed, stream, counter, w));
            (balls, front.origin, front.depth + 1)
        } else if next_seed < seeds.len() {
            let n = next_seed;
            next_seed += 1;
            match validate_action(task, tier, &seeds[n]) {
                Ok(v) => (lattice_of(&v), Origin::Seed(n as u32), 0),
                Err(_) => continue,
            }
        } else if near_turn && !centres.is_empty() {
            near_turn = false;
            near_counter += 1;
            let counter = near_counter;
            let word = |w| rng::word(near_seed_seed, stream, counter, w);
            let (n, centre) = &centres[(word(99) % centres.len() as u64) as usize];
            (near_seed(centre, word), Origin::Seed(*n), 1)
        } else {
            near_turn = true;
            let n = next_random;
            next_random += 1;
            let a = rng::uniform_vector(params.seed, stream, n, tier.action_len());
            match validate_action(task, tier, &a) {
                Ok(v) => (lattice_of(&v), Origin::Random(n), 0),
                Err(_) => continue,
            }
        };
        if !seen.insert(balls.clone()) {
            continue;
        }
        candidates += 1;
        let before = oracle.sims;
        let verdict = oracle.check(&balls);
        let spent = oracle.sims - before;
        if refining {
            refine_sims += spent;
        } else {
            explore_sims += spent;
        }
        match verdict {
            Stability::Stable => {
                solved += 1;
                let action = lattice_action(&balls);
                return SearchReport {
                    witness: Some(Witness {
                        balls,
                        action,
                        origin,
                        refinements: depth,
                    }),
                    simulations: oracle.sims,
                    candidates,
                    solved,
                };
            }
            Stability::Unstable(failed) => {
                solved += 1;
                if frontier.len() < params.frontier_cap {
                    frontier.push_back(FrontierPoint {
                        balls,
                        failed,
                        origin,
                        depth,
                        trials: 0,
                    });
                }
            }
            Stability::NotSolved | Stability::Invalid => {}
        }
    }
    SearchReport {
        witness: None,
        simulations: oracle.sims,
        candidates,
        solved,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tasks::TaskSet;

    #[test]
    fn lattice_actions_validate_to_their_balls() {
        let set = TaskSet::builtin();
        let task = &set.template(2)[0];
        // Every centre and radius on the lattice round-trips through the action numbers.
        for x in 0..=254 {
            for r in [2, 3, 16, 31, 32] {
                let a = lattice_action(&[[x, x, r]]);
                assert!(a.iter().all(|v| (0.0..=1.0).contains(v)), "{a:?}");
                if let Ok(v) = validate_action(task, ActionTier::Ball, &a) {
                    assert_eq!(lattice_of(&v), vec![[x, x, r]]);
                }
            }
        }
    }

    #[test]
    fn refine_steps_away_from_the_failed_neighbour_and_stays_in_range() {
        let p = FrontierPoint {
            balls: vec![[100, 200, 10], [0, 254, 32]],
            failed: 0, // shift (-1, -1)
            origin: Origin::Random(0),
            depth: 0,
            trials: 0,
        };
        assert_eq!(
            refine(&p, 0, |_| 0),
            vec![[101, 201, 10], [1, 254, 32]],
            "one pixel away from the (-½, -½) side, clamped at 254"
        );
        assert_eq!(refine(&p, 1, |_| 0)[0], [102, 202, 10]);
        for k in 2..200 {
            let mut n = 0u64;
            let b = refine(&p, k, |w| {
                n += 1;
                rng::word(1, 2, u64::from(k), w)
            });
            for ball in &b {
                assert!((0..=254).contains(&ball[0]) && (0..=254).contains(&ball[1]));
                assert!((2..=32).contains(&ball[2]));
            }
            let moved: i32 = b
                .iter()
                .zip(&p.balls)
                .map(|(a, o)| (a[0] - o[0]).abs().max((a[1] - o[1]).abs()))
                .max()
                .unwrap();
            assert!(moved <= 3, "jitter of trial {k} moved {moved} px");
        }
    }

    #[test]
    fn nominal_lattice_matches_validation_and_jumps_stay_near() {
        let set = TaskSet::builtin();
        let task = &set.template(2)[0];
        let mut valid = 0;
        for n in 0..500u64 {
            let a = rng::uniform_vector(3, 4, n, 3);
            let nominal = nominal_lattice(&a).expect("in range");
            if let Ok(v) = validate_action(task, ActionTier::Ball, &a) {
                assert_eq!(nominal, lattice_of(&v), "action {a:?}");
                valid += 1;
            }
        }
        assert!(valid > 100, "only {valid} valid actions compared");
        assert_eq!(nominal_lattice(&[0.5, 1.5, 0.5]), None);
        assert_eq!(nominal_lattice(&[0.5, 0.5]), None);
        let centre = vec![[100, 200, 10], [250, 3, 31]];
        let mut moved_most = 0;
        for k in 0..400u64 {
            let b = near_seed(&centre, |w| rng::word(5, 6, k, w));
            for (ball, c) in b.iter().zip(&centre) {
                assert!((0..=254).contains(&ball[0]) && (0..=254).contains(&ball[1]));
                assert!((2..=32).contains(&ball[2]));
                let d = (ball[0] - c[0]).abs().max((ball[1] - c[1]).abs());
                assert!(
                    d <= 16 && (ball[2] - c[2]).abs() <= 2,
                    "{ball:?} from {c:?}"
                );
                moved_most = moved_most.max(d);
            }
        }
        assert!(moved_most > 8, "jumps never went beyond 8 px");
    }

    #[test]
    fn a_carried_solution_moves_with_the_body_it_is_nearest_to() {
        let set = TaskSet::builtin();
        let get = |id: &str| set.lookup(id).unwrap();
        // 00118:014 → 00118:015: the green ball (body 7) moves from (103.9, 96.8) to (24.1, 96.8)
        // and its jar is tipped the other way. A ball 12 px from the green ball (nearer to it
        // than to its jar's bounding circle) and one far up on the right, near the blue ball.
        let (from, to) = (get("00118:014"), get("00118:015"));
        let green = |t: &Task| {
            let p = t.bodies()[7].position;
            (p.x.to_f64(), p.y.to_f64())
        };
        let action = lattice_action(&[[90, 111, 8], [158, 190, 12]]);
        let carried = transfer_solution(from, to, &action);
        assert_eq!(carried.len(), 4, "{carried:?}");
        let balls: Vec<Vec<LatticeBall>> = carried
            .iter()
            .map(|a| nominal_lattice(a).unwrap())
            .collect();
        let ((fx, fy), (tx, ty)) = (green(from), green(to));
        let (ox, oy) = (90.5 - fx, 111.5 - fy);
        let kept = [(tx + ox).floor() as i32, (ty + oy).floor() as i32, 8];
        let mirrored = [(tx - ox).floor() as i32, (ty + oy).floor() as i32, 8];
        assert!(balls.iter().any(|b| b[0] == kept), "{balls:?}");
        assert!(balls.iter().any(|b| b[0] == mirrored), "{balls:?}");
        // Every combination of the two placements of each ball, radii unchanged.
        let firsts: BTreeSet<LatticeBall> = balls.iter().map(|b| b[0]).collect();
        let seconds: BTreeSet<LatticeBall> = balls.iter().map(|b| b[1]).collect();
        assert_eq!((firsts.len(), seconds.len()), (2, 2));
        assert!(balls.iter().all(|b| b[0][2] == 8 && b[1][2] == 12));
        // Onto the task itself: only the mirror images (the unchanged action is left out).
        let own = transfer_solution(from, from, &lattice_action(&[[90, 111, 8]]));
        assert_eq!(own.len(), 1);
        let m = nominal_lattice(&own[0]).unwrap()[0];
        assert_eq!(m[1], 111);
        assert!(
            ((f64::from(m[0]) + 0.5 + 90.5) / 2.0 - fx).abs() <= 0.5,
            "{m:?}"
        );
        // Tasks of different templates have no corresponding bodies: nothing to carry.
        assert!(transfer_solution(get("00000:000"), to, &action).is_empty());
        assert!(transfer_solution(from, to, &[0.5, 1.5, 0.5]).is_empty());
    }

    #[test]
    fn a_found_witness_passes_the_independent_stability_test() {
        let set = TaskSet::builtin();
        for template in [0u32, 7] {
            let task = &set.template(template)[1];
            let params = SearchParams::for_tier(ActionTier::Ball);
            let report = find_witness(task, ActionTier::Ball, &[], &params);
            let w = report
                .witness
                .clone()
                .expect("ball-tier task with a witness");
            assert!(report.simulations <= params.budget + 8);
            let mut sims = 0;
            assert_eq!(
                stability(task, ActionTier::Ball, &w.action, &mut sims),
                Stability::Stable
            );
            // Same inputs, same search.
            assert_eq!(find_witness(task, ActionTier::Ball, &[], &params), report);
        }
    }

    #[test]
    fn a_zero_budget_finds_nothing_and_runs_nothing() {
        let set = TaskSet::builtin();
        let task = &set.template(0)[0];
        let params = SearchParams {
            budget: 0,
            ..SearchParams::for_tier(ActionTier::Ball)
        };
        let r = find_witness(task, ActionTier::Ball, &[], &params);
        assert_eq!((r.witness, r.simulations), (None, 0));
    }
}
