//! Agents on a synthetic world where we know which actions solve which tasks.

use agents::*;

/// 8 tasks in 2 templates, 20 actions. Template 0 is solved by actions 3 and 7 (task 0..4 also
/// by 11 for even tasks); template 1 by action 15 only; actions 0–1 are invalid everywhere.
struct Toy;

impl Simulator for Toy {
    fn status(&self, task: usize, action: usize) -> Status {
        if action < 2 {
            return Status::Invalid;
        }
        let solves = if self.template(task) == 0 {
            action == 3 || action == 7 || (action == 11 && task.is_multiple_of(2))
        } else {
            action == 15
        };
        if solves {
            Status::Solved
        } else {
            Status::NotSolved
        }
    }
    fn template(&self, task: usize) -> u32 {
        (task / 4) as u32
    }
}

#[test]
fn mem_ranks_actions_by_training_solve_rate() {
    let mut mem = Mem::new(20, false);
    // Train on template 0 only: actions 3 and 7 solve every training task, 11 half of them.
    mem.train(&Toy, &[0, 1, 2], &[]);
    mem.start_task(&Toy, 3);
    let first: Vec<usize> = (0..3).map(|_| mem.propose().unwrap()).collect();
    assert_eq!(first, vec![3, 7, 11]);
    // On a template-0 test task MEM solves at attempt 1; on template 1 it needs to reach 15.
    let solved = evaluate(&mut mem, &Toy, &[3, 4]);
    assert_eq!(solved[0], Some(1));
    assert!(solved[1].unwrap() > 1);
}

/// 10 training tasks, 3 actions: action 0 is valid on one task only and solves it; action 1
/// solves 8 of 10; action 2 solves none.
struct Sparse;

impl Simulator for Sparse {
    fn status(&self, task: usize, action: usize) -> Status {
        match action {
            0 if task == 0 => Status::Solved,
            0 => Status::Invalid,
            1 if task < 8 => Status::Solved,
            _ => Status::NotSolved,
        }
    }
    fn template(&self, _: usize) -> u32 {
        0
    }
}

#[test]
fn mem_scores_like_the_original_one_in_the_denominator() {
    // The original's relative score, solved / (valid tries + 1): action 0 scores 1/2 and action
    // 1 scores 8/11, so action 1 leads; a plain rate (1/1 against 8/10) would put action 0 first.
    let train: Vec<usize> = (0..10).collect();
    let mut mem = Mem::new(3, false);
    mem.train(&Sparse, &train, &[]);
    mem.start_task(&Sparse, 0);
    let order: Vec<usize> = (0..3).map(|_| mem.propose().unwrap()).collect();
    assert_eq!(order, vec![1, 0, 2]);
    // MEM-O starts from the same scores (no online data yet).
    let mut memo = MemO::new(3, false);
    memo.train(&Sparse, &train, &[]);
    memo.start_task(&Sparse, 0);
    assert_eq!(memo.propose(), Some(1));
}

#[test]
fn per_template_mem_and_optimal_and_rand_orderings() {
    let all: Vec<usize> = (0..8).collect();
    let mut within = Mem::new(20, true);
    within.train(&Toy, &[0, 1, 4, 5], &[]);
    assert_eq!(evaluate(&mut within, &Toy, &[2, 6]), vec![Some(1), Some(1)]);
    let mut opt = Optimal::new(20);
    opt.train(&Toy, &[], &[]);
    assert!(evaluate(&mut opt, &Toy, &all).iter().all(|s| *s == Some(1)));
    // RAND: invalid actions are free, so every task is solved within the 18 valid actions.
    let mut rand = Rand::new(7, 20);
    let r = evaluate(&mut rand, &Toy, &all);
    assert!(r.iter().all(|s| s.is_some_and(|a| a <= 18)));
    // And the same seed gives the same attempts.
    assert_eq!(r, evaluate(&mut Rand::new(7, 20), &Toy, &all));
    let a_opt = auccess::auccess(&evaluate(&mut Optimal::new(20), &Toy, &all), MAX_ATTEMPTS);
    let a_rand = auccess::auccess(&r, MAX_ATTEMPTS);
    assert!(a_opt >= a_rand);
}

#[test]
fn memo_learns_online_from_test_tasks() {
    // Train on template 0; test on template 1, where only action 15 works. MEM keeps its order
    // and needs more than one attempt on every task.
    let mut mem = Mem::new(20, false);
    mem.train(&Toy, &[0, 1], &[]);
    let plain = evaluate(&mut mem, &Toy, &[4, 5, 6, 7]);
    assert!(plain.iter().all(|s| s.unwrap() > 1));
    // With a fixed weight, one online success moves 15 up the ranking for the next tasks.
    let mut memo = MemO::new(20, false);
    memo.train(&Toy, &[0, 1], &[]);
    memo.weight = 1.0;
    let solved = evaluate(&mut memo, &Toy, &[4, 5, 6, 7]);
    let first = solved[0].unwrap();
    assert_eq!(first, plain[0].unwrap(), "{solved:?}");
    assert!(solved[1..].iter().all(|s| s.unwrap() < first), "{solved:?}");
    // Tuned on a dev split from template 1, the weight is large enough (≥ 10) for one online
    // success to put 15 first.
    let mut heavy = MemO::new(20, false);
    heavy.train(&Toy, &[0, 1], &[4, 5]);
    assert!(
        heavy.weight >= 10.0,
        "dev on template 1 picked weight {}",
        heavy.weight
    );
    let solved = evaluate(&mut heavy, &Toy, &[6, 7]);
    assert_eq!(solved[1], Some(1));
    // Where learning online cannot help on dev (template 0's tasks all share their solutions),
    // the weight 0 comes first among the ties and MEM-O is MEM.
    let mut idle = MemO::new(20, false);
    idle.train(&Toy, &[0, 1], &[2, 3]);
    assert_eq!(idle.weight, 0.0);
    assert_eq!(evaluate(&mut idle, &Toy, &[4, 5, 6, 7]), plain);
    // The choice is reported for the results file; MEM tunes nothing.
    assert_eq!(heavy.tuned(), format!("online_weight={}", heavy.weight));
    assert_eq!(idle.tuned(), "online_weight=0");
    assert_eq!(mem.tuned(), "");
}

/// Learning again from more tasks (the training and dev tasks of a test evaluation) keeps the
/// weight MEM-O chose on the dev tasks with the training tasks alone, and learns the statuses of
/// every task it is given.
#[test]
fn refitting_keeps_what_was_chosen_on_dev_and_learns_the_new_tasks() {
    // Tuned with template 0 as training and template 1 as dev: a heavy online weight.
    let mut heavy = MemO::new(20, false);
    heavy.train(&Toy, &[0, 1], &[4, 5]);
    let chosen = heavy.weight;
    assert!(chosen >= 10.0, "{chosen}");
    heavy.refit(&Toy, &[0, 1, 4, 5]);
    assert_eq!(heavy.weight, chosen, "refit keeps the dev choice");
    // Its memory now holds template 1's dev tasks, where only 15 solves: 15 ranks with 3 and 7.
    let mut fresh = MemO::new(20, false);
    fresh.train(&Toy, &[0, 1, 4, 5], &[]);
    fresh.weight = chosen;
    let tests = [2, 3, 6, 7];
    assert_eq!(
        evaluate(&mut heavy, &Toy, &tests),
        evaluate(&mut fresh, &Toy, &tests)
    );
    // MEM refitted is MEM trained on those tasks; before the refit it had not seen template 1.
    let mut mem = Mem::new(20, false);
    mem.train(&Toy, &[0, 1], &[4, 5]);
    let before = evaluate(&mut mem, &Toy, &[6, 7]);
    mem.refit(&Toy, &[0, 1, 4, 5]);
    let mut both = Mem::new(20, false);
    both.train(&Toy, &[0, 1, 4, 5], &[]);
    let after = evaluate(&mut mem, &Toy, &[6, 7]);
    assert_eq!(after, evaluate(&mut both, &Toy, &[6, 7]));
    assert!(
        after[0].unwrap() < before[0].unwrap(),
        "{before:?} {after:?}"
    );
}

#[test]
fn untrained_mem_agents_do_not_panic() {
    let mut mem = Mem::new(20, true);
    mem.start_task(&Toy, 0);
    assert_eq!(mem.propose(), None);
    // MEM-O before training ranks every action alike, so in index order.
    let mut memo = MemO::new(20, true);
    memo.start_task(&Toy, 0);
    assert_eq!(memo.propose(), Some(0));
}

#[test]
fn memo_in_the_within_template_setting_keeps_one_memory_per_template() {
    // Per template, as the original's template-aware agent: trained on both templates, MEM-O
    // solves every test task at its first attempt (like per-template MEM), and what it learns
    // online on template 1 does not leak into template 0's ranking.
    let mut within = MemO::new(20, true);
    within.train(&Toy, &[0, 1, 4, 5], &[]);
    within.weight = 1000.0;
    assert_eq!(evaluate(&mut within, &Toy, &[6, 7, 2, 3]), vec![Some(1); 4]);
    // Pooled instead, template 0's actions 3 and 7 lead, and template 1's tasks need more.
    let mut pooled = MemO::new(20, false);
    pooled.train(&Toy, &[0, 1, 2, 4], &[]);
    pooled.weight = 0.0;
    assert!(evaluate(&mut pooled, &Toy, &[6])[0].unwrap() > 1);
}

/// Proposes actions 0, 1, 2, … and keeps what it is shown.
#[derive(Default)]
struct Recorder {
    next: usize,
    seen: Vec<(usize, Status)>,
    ended: Vec<bool>,
}

impl Agent for Recorder {
    fn name(&self) -> &'static str {
        "recorder"
    }
    fn train(&mut self, _: &dyn Simulator, _: &[usize], _: &[usize]) {}
    fn refit(&mut self, _: &dyn Simulator, _: &[usize]) {}
    fn start_task(&mut self, _: &dyn Simulator, _: usize) {
        self.next = 0;
    }
    fn propose(&mut self) -> Option<usize> {
        self.next += 1;
        (self.next <= 20).then_some(self.next - 1)
    }
    fn observe(&mut self, action: usize, status: Status) {
        self.seen.push((action, status));
    }
    fn end_task(&mut self, solved: bool) {
        self.ended.push(solved);
    }
}

#[test]
fn an_agent_sees_every_attempt_after_the_solve_as_in_the_original() {
    // Task 0 (template 0) is first solved by action 3; the agent is still shown actions 4..19
    // (the original's agents attempt until their 100 valid attempts are used), and the task
    // counts as solved at its second valid attempt (actions 0 and 1 are invalid, hence free).
    let mut r = Recorder::default();
    let solved = evaluate(&mut r, &Toy, &[0]);
    assert_eq!(solved, vec![Some(2)]);
    assert_eq!(r.seen.len(), 20);
    assert_eq!(r.seen[7], (7, Status::Solved));
    assert_eq!(r.ended, vec![true]);
}

#[test]
fn a_101st_attempt_is_refused_and_invalid_ones_are_free() {
    let mut a = Attempts::default();
    for _ in 0..1000 {
        a.record(Status::Invalid).unwrap();
    }
    assert_eq!(a.valid(), 0);
    for _ in 0..100 {
        a.record(Status::NotSolved).unwrap();
    }
    assert_eq!(
        a.record(Status::NotSolved),
        Err(AttemptError::NoAttemptsLeft)
    );
    assert_eq!(a.record(Status::Solved), Err(AttemptError::NoAttemptsLeft));
    assert!(a.finished() && a.solved_at().is_none());
    // After a solve the task goes on to its 100 valid attempts (the original's loop), and a
    // later solve does not move the first.
    let mut b = Attempts::default();
    b.record(Status::NotSolved).unwrap();
    b.record(Status::Solved).unwrap();
    assert_eq!(b.solved_at(), Some(2));
    assert!(!b.finished());
    for _ in 0..98 {
        b.record(Status::Solved).unwrap();
    }
    assert!(b.finished());
    assert_eq!(b.solved_at(), Some(2));
    assert_eq!(
        b.record(Status::NotSolved),
        Err(AttemptError::NoAttemptsLeft)
    );
}

#[test]
fn status_table_round_trips_codes() {
    let t = StatusTable {
        actions: 3,
        templates: vec![0, 1],
        codes: vec![0, 1, 2, 2, 1, 0],
    };
    assert_eq!(t.status(0, 2), Status::Solved);
    assert_eq!(t.status(1, 2), Status::Invalid);
    assert_eq!(t.template(1), 1);
    for s in [Status::Invalid, Status::NotSolved, Status::Solved] {
        assert_eq!(Status::from_code(s.code()), Some(s));
    }
    let set = ActionSet::new(3, tasks::Tier::TwoBalls, 10);
    assert_eq!(set, ActionSet::new(3, tasks::Tier::TwoBalls, 10));
    assert!(set.actions.iter().flatten().all(|v| (0.0..1.0).contains(v)));
    // Like the original's set: every action has its balls in the scene and apart, and a smaller
    // set is a prefix of a larger one.
    for a in &set.actions {
        assert_eq!(tasks::check_action_space(tasks::Tier::TwoBalls, a), Ok(()));
    }
    assert_eq!(
        ActionSet::new(3, tasks::Tier::TwoBalls, 4).actions,
        set.actions[..4]
    );
}
