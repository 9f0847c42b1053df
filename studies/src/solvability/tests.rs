use super::*;
use tasks::{simulate, simulated_status, stability_of_solved, SimOptions, TaskSet, ValidAction};

/// The neighbour test of a solved action and the neighbour simulations it ran.
fn is_stable(task: &Task, action: &ValidAction) -> (bool, u64) {
    let mut sims = 0;
    let s = stability_of_solved(task, action, |n| {
        sims += 1;
        simulated_status(task, n)
    });
    (s == Stability::Stable, sims)
}

/// Parameters from `--name value` pairs, the others as the command line's defaults.
fn params(pairs: &[&str]) -> Result<Params> {
    let value = |name: &str| {
        pairs
            .chunks(2)
            .find(|p| p[0] == name)
            .map(|p| p[1].to_string())
    };
    let tier = Tier::parse(&value("--tier").unwrap_or("ball".into())).unwrap();
    let mut request = Request::new(tier);
    request.p0 = value("--p0").map(|v| v.parse().unwrap());
    request.max_valid = value("--max-valid").map(|v| v.parse().unwrap());
    if let Some(v) = value("--min-valid") {
        request.min_valid = v.parse().unwrap();
    }
    if let Some(v) = value("--batch") {
        request.batch = v.parse().unwrap();
    }
    request.params()
}

#[test]
fn tier_defaults() {
    let p = params(&["--tier", "ball"]).unwrap();
    assert_eq!((p.p0, p.max_valid, p.min_valid), (1e-5, 200_000, 10_000));
    let p = params(&["--tier", "two_balls"]).unwrap();
    assert_eq!((p.p0, p.max_valid), (1e-6, 2_000_000));
    let p = params(&["--tier", "ball", "--p0", "1e-4"]).unwrap();
    assert_eq!(p.max_valid, 20_000);
    assert!(params(&["--tier", "ball", "--p0", "0.6"]).is_err());
    assert!(params(&["--tier", "ball", "--min-valid", "300000"]).is_err());
    let Err(e) = params(&["--tier", "ball", "--batch", "0"]) else {
        panic!("a batch of 0 was accepted");
    };
    assert_eq!(e.to_string(), "--batch must be at least 1");
}

fn state(valid: u64, invalid: u64, solved: u64, stable: u64) -> TaskState {
    TaskState {
        next: valid + invalid,
        valid,
        invalid,
        solved,
        stable,
        ..TaskState::default()
    }
}

/// Draws the original's sampler would redraw (a ball outside the scene, two balls too close)
/// are skipped, not counted as attempts: every attempt lies in the action space, and the
/// invalid ones are invalid by occlusion only, as in the original's counts.
#[test]
fn draws_outside_the_action_space_are_not_attempts() {
    let set = TaskSet::builtin();
    let task = set.lookup("00100:000").unwrap();
    let job = Job::new(
        vec![task],
        params(&["--tier", "two_balls", "--batch", "40"]).unwrap(),
    )
    .unwrap();
    let mut s = TaskState::default();
    job.advance(0, &mut s);
    assert_eq!(s.valid, 40);
    let (mut in_space, mut occluded) = (0, 0);
    for index in 0..s.next {
        let a = job.action(0, index);
        if check_action_space(Tier::TwoBalls, &a).is_ok() {
            in_space += 1;
            if validate_action(task, Tier::TwoBalls, &a).is_err() {
                occluded += 1;
            }
        }
    }
    assert_eq!(s.valid + s.invalid, in_space);
    assert_eq!(s.invalid, occluded);
    // Uniform draws leave the action space about half the time in this tier.
    assert!(
        s.next > in_space + 10,
        "{} draws, {in_space} attempts",
        s.next
    );
}

/// The batch loop as it was before the draws were evaluated in parallel.
fn advance_sequentially(job: &Job, t: usize, s: &mut TaskState) -> bool {
    let task = job.tasks[t];
    let p = &job.params;
    let target = s.valid.saturating_add(p.batch).min(p.max_valid);
    let cap = job.attempt_cap();
    while s.valid < target && s.next < cap {
        let index = s.next;
        s.next += 1;
        let a = job.action(t, index);
        if check_action_space(p.tier, &a).is_err() {
            continue;
        }
        let Ok(v) = validate_action(task, p.tier, &a) else {
            s.invalid += 1;
            continue;
        };
        match simulate(task, &v, SimOptions::default()) {
            Err(_) => {
                s.invalid += 1;
                s.build_errors += 1;
            }
            Ok(o) => {
                s.valid += 1;
                if o.solved {
                    s.solved += 1;
                    let (stable, sims) = is_stable(task, &v);
                    s.neighbour_sims += sims;
                    if stable {
                        s.stable += 1;
                        if s.solutions.len() < STORED_SOLUTIONS {
                            s.solutions.push(index);
                        }
                    }
                }
            }
        }
    }
    (s.valid >= p.min_valid && job.stable_decided(s)) || s.valid >= p.max_valid || s.next >= cap
}

/// Batch by batch, the parallel `advance` reaches the states of the plain loop, on tasks
/// with stable solutions (stability checks inside chunks), with draws outside the action
/// space (two balls), with batches that end inside a chunk and with the `max_valid` stop.
#[test]
fn parallel_batches_equal_the_sequential_loop() {
    let set = TaskSet::builtin();
    let cases = [
        ("00002:007", "ball", "37", "150"),
        ("00004:063", "ball", "23", "120"),
        ("00100:000", "two_balls", "29", "100"),
    ];
    for (id, tier, batch, max_valid) in cases {
        let a = [
            "--tier",
            tier,
            "--batch",
            batch,
            "--max-valid",
            max_valid,
            "--min-valid",
            "0",
        ];
        let job = Job::new(vec![set.lookup(id).unwrap()], params(&a).unwrap()).unwrap();
        let mut want = vec![TaskState::default()];
        loop {
            let mut s = want.last().unwrap().clone();
            let done = advance_sequentially(&job, 0, &mut s);
            want.push(s);
            if done {
                break;
            }
        }
        assert!(want.last().unwrap().solved > 0, "{id}: {:?}", want.last());
        for threads in [1, 2, 3] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let mut s = TaskState::default();
            let mut got = vec![s.clone()];
            loop {
                let done = pool.install(|| job.advance(0, &mut s));
                got.push(s.clone());
                if done {
                    break;
                }
            }
            assert_eq!(got, want, "{id}, {threads} threads");
        }
    }
}

#[test]
fn hand_checked_flags() {
    let task = &TaskSet::builtin().tasks()[0];
    let job = Job::new(vec![task], params(&["--tier", "ball"]).unwrap()).unwrap();
    // n = 10,000, k = 3 stable: P(Bin(n, 1e-5) ≥ 3) = 1 − e^−0.1·(1 + 0.1 + 0.005) ≈ 1.5e-4.
    let s = state(10_000, 4_000, 5, 3);
    assert!(job.stable_decided(&s));
    let r = row(&job, 0, &s);
    assert!(
        (r.p_stable_solvable - 1.547e-4).abs() < 1e-6,
        "{}",
        r.p_stable_solvable
    );
    assert_eq!(r.flags(), "GOOD GOOD_STABLE");
    assert_eq!(r.samples_needed, Some(10_000));
    // No solution in 160,000: P(Bin(n, 2e-5) ≤ 0) = e^−3.2 ≈ 0.041 → unsolvable.
    let s = state(160_000, 1, 0, 0);
    assert!(job.stable_decided(&s));
    let r = row(&job, 0, &s);
    assert_eq!(r.flags(), "BAD BAD_STABLE");
    assert_eq!(r.samples_needed, Some(160_000));
    // Significant, but fewer than 3 stable solutions: not decided; 2 of 15 attempts ≥ 0.1 is
    // trivial.
    let s = state(10, 5, 2, 2);
    assert!(!job.stable_decided(&s));
    let r = row(&job, 0, &s);
    assert_eq!(r.flags(), "TRIVIAL");
    assert_eq!(r.samples_needed, None);
    // 100,000 valid and no solution: undecided (e^−2 ≈ 0.135).
    let r = row(&job, 0, &state(100_000, 0, 0, 0));
    assert_eq!(r.flags(), "UNDECIDED");
}
