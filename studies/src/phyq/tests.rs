use super::selection::index_of;
use super::*;
use crate::runner::TaskJob;
use phyq::generator::builtin_tasks;
use phyq::levelset::Entry;
use phyq::playdata::{humans, SCENARIOS};
use phyq::templates::Role;
use phyq::LevelId;

fn tier() -> &'static [Entry] {
    builtin_tasks().entries()
}

#[test]
fn settings_select_the_papers_test_tasks() {
    let local = test_tasks(tier(), Setting::Local).unwrap();
    assert_eq!(local.len(), 75 * 20);
    assert!(local
        .iter()
        .all(|t| index_of(&t.id).is_some_and(|i| (81..=100).contains(&i))));
    let broad = test_tasks(tier(), Setting::Broad).unwrap();
    // Table 7: 34 testing templates of the 75.
    assert_eq!(broad.len(), 34 * 100);
    assert!(broad.iter().all(|t| t.template.unwrap().role == Role::Test));
    let scenarios: std::collections::BTreeSet<u8> =
        broad.iter().map(|t| t.template.unwrap().scenario).collect();
    assert_eq!(scenarios.len(), 15, "every scenario tests");
    assert_eq!(test_tasks(tier(), Setting::All).unwrap().len(), 7500);
    // A level without a template has no place in local or broad.
    let mut named = tier()[0].clone();
    named.id = LevelId::Named("mine".into());
    let err = test_tasks(&[named.clone()], Setting::Broad).unwrap_err();
    assert!(err.to_string().contains("--setting all"), "{err}");
    assert_eq!(test_tasks(&[named], Setting::All).unwrap().len(), 1);
    // Tasks 1..=80 only: nothing to test locally.
    let err = test_tasks(&tier()[..80], Setting::Local).unwrap_err();
    assert!(err.to_string().contains("no test task"), "{err}");
}

#[test]
fn humans_score_100_and_random_0() {
    let h: [Option<f64>; SCENARIOS] = humans().map(|h| Some(h.pass_rate));
    let random = random_reference();
    let s = phyq_score(&h, &random).unwrap();
    assert!((s - 100.0).abs() < 1e-9, "{s}");
    assert!(phyq_score(&random, &random).unwrap().abs() < 1e-9);
    // Passing nothing is below the random agent; a scenario missing gives no score.
    let nothing = [Some(0.0); SCENARIOS];
    assert!(phyq_score(&nothing, &random).unwrap() < 0.0);
    let mut gap = h;
    gap[14] = None;
    assert_eq!(phyq_score(&gap, &random), None);
    // Scenarios 1 and 2 do not count.
    let mut first_two = nothing;
    first_two[0] = Some(1.0);
    first_two[1] = Some(1.0);
    assert_eq!(
        phyq_score(&first_two, &random),
        phyq_score(&nothing, &random)
    );
}

#[test]
fn the_random_reference_is_a_whole_broad_run() {
    let rows = parse_csv(RANDOM_REFERENCE).unwrap();
    let broad = test_tasks(tier(), Setting::Broad).unwrap();
    let ids: Vec<String> = broad.iter().map(|t| t.id.to_string()).collect();
    let mine: Vec<String> = rows.iter().map(|r| r.task_id.clone()).collect();
    assert_eq!(mine, ids);
    assert!(rows.iter().all(|r| r.attempts == 50 && r.error.is_empty()));
    // Every scenario in the paper's range for its random agent, about (0.5–13 %), as
    // measured: 0.7 % (14) to 14.8 % (2).
    for (s, r) in random_reference().iter().enumerate() {
        let r = r.unwrap();
        assert!((0.005..0.15).contains(&r), "scenario {}: {r}", s + 1);
    }
}

/// Rows of `tasks` played by `params`' agent on one thread.
fn play_rows(tasks: Vec<EvalTask>, params: Params) -> Vec<Row> {
    let agent = builtin(params.agent).unwrap();
    let job = Job {
        params,
        tasks,
        agent,
    };
    let states: Vec<State> = (0..job.len())
        .map(|i| {
            let mut s = State::default();
            while !job.advance(i, &mut s) {}
            s
        })
        .collect();
    rows(&job, &states)
}

#[test]
fn the_random_reference_replays() {
    // One task of each of six testing templates, all 50 attempts: the committed rows.
    let reference = parse_csv(RANDOM_REFERENCE).unwrap();
    let broad = test_tasks(tier(), Setting::Broad).unwrap();
    let picked: Vec<EvalTask> = broad.into_iter().step_by(577).collect();
    assert_eq!(picked.len(), 6);
    let want: Vec<Row> = picked
        .iter()
        .map(|t| {
            let id = t.id.to_string();
            reference.iter().find(|r| r.task_id == id).unwrap().clone()
        })
        .collect();
    let params = Params::new(AgentName::Random, Setting::Broad, None, None, DEFAULT_SEED).unwrap();
    assert_eq!(play_rows(picked, params), want);
}

#[test]
fn the_csv_reads_back() {
    let params = Params::new(AgentName::PigShooter, Setting::Local, Some(2), None, 7).unwrap();
    let tasks: Vec<EvalTask> = test_tasks(tier(), Setting::Local)
        .unwrap()
        .into_iter()
        .step_by(300)
        .collect();
    let rows = play_rows(tasks, params);
    assert_eq!(parse_csv(&csv_text(&rows)).unwrap(), rows);
    assert!(parse_csv("task_id\n").is_err());
    let bad = csv_text(&rows).replace(",2,", ",two,");
    assert!(parse_csv(&bad).is_err());
}

#[test]
fn params_round_trip_and_refuse() {
    let p = Params::new(AgentName::Optimal, Setting::Broad, None, None, 3).unwrap();
    assert_eq!((p.attempts, p.attempt_rule), (1, AttemptRule::Every));
    assert_eq!(Params::from_args(&p.args()).unwrap(), p);
    let ps = Params::new(AgentName::PigShooter, Setting::Local, None, None, 3).unwrap();
    assert_eq!((ps.attempts, ps.attempt_rule), (5, AttemptRule::UntilPass));
    assert_eq!(Params::from_args(&ps.args()).unwrap(), ps);
    let every = Params::new(
        AgentName::PigShooter,
        Setting::Local,
        None,
        Some(AttemptRule::Every),
        3,
    )
    .unwrap();
    assert_eq!(Params::from_args(&every.args()).unwrap(), every);
    assert!(AttemptRule::parse("until_pass").is_err());
    assert_eq!(
        Params::new(AgentName::Random, Setting::Local, None, None, 0)
            .unwrap()
            .attempts,
        50
    );
    assert!(Params::new(AgentName::Random, Setting::Local, Some(0), None, 0).is_err());
    assert!(AgentName::parse("dqn2").is_err());
    assert!(Setting::parse("wide").is_err());
}

#[test]
fn agreement_by_hand() {
    // (0.5, 0.4), (0.2, 0.4), (0.9, 0.6): |diff| 0.1, 0.2, 0.3 → mean 0.2; within 0.15: one.
    // Means 0.5333…, 0.4666…; deviations x: −0.0333, −0.3333, 0.3667; y: −0.0667, −0.0667,
    // 0.1333; cov 0.002222 + 0.022222 + 0.048889 = 0.073333; vx 0.246667; vy 0.026667;
    // Pearson 0.073333 / √(0.246667 · 0.026667) = 0.9042.
    let a = agreement("template", &[(0.5, 0.4), (0.2, 0.4), (0.9, 0.6)]).unwrap();
    assert_eq!((a.compared, a.within_0_15), (3, 1));
    assert!((a.mean_abs_diff - 0.2).abs() < 1e-12);
    assert!(
        (a.pearson.unwrap() - 0.904_194).abs() < 1e-5,
        "{:?}",
        a.pearson
    );
    assert_eq!(
        agreement("template", &[(0.1, 0.5), (0.2, 0.5)])
            .unwrap()
            .pearson,
        None
    );
    assert_eq!(agreement("template", &[]), None);
    assert_eq!(paper_template_rate(AgentName::Random, "1_1_1"), None);
    assert!(
        (paper_template_rate(AgentName::PigShooter, "1_1_4").unwrap() - 0.745_833).abs() < 1e-5
    );
}

#[test]
fn until_pass_stops_at_the_first_pass_of_the_same_draws() {
    // Ten tasks of 1_1_1 (the pig shooter passes some attempts of most): the same attempts
    // played under both rules, so the first pass is the same attempt; until-pass plays no
    // attempt after it, and all five where none passes.
    let tasks: Vec<EvalTask> = test_tasks(tier(), Setting::Local).unwrap()[..10].to_vec();
    let rule = |r| Params::new(AgentName::PigShooter, Setting::Local, None, Some(r), 0).unwrap();
    let every = play_rows(tasks.clone(), rule(AttemptRule::Every));
    let until = play_rows(tasks, rule(AttemptRule::UntilPass));
    let mut stopped_early = 0;
    for (e, u) in every.iter().zip(&until) {
        assert_eq!(u.first_pass, e.first_pass, "{}", e.task_id);
        assert_eq!(u.passes, e.passes.min(1), "{}", e.task_id);
        if u.passes == 0 {
            assert_eq!(u.attempts, 5, "{}", e.task_id);
        } else {
            // Attempt k passed: rate 1/k.
            assert!((u.pass_rate() - 1.0 / f64::from(u.attempts)).abs() < 1e-12);
        }
        stopped_early += usize::from(u.attempts < 5);
    }
    assert!(stopped_early >= 5, "{until:?}");
}

#[test]
fn the_papers_pig_shooter_rates_are_until_pass_rates() {
    // AttemptRule's evidence, from the committed play data: 20 tasks × 5 attempts gives whole
    // hundredths, 20 tasks with a pass at attempt k counting 1/k whole 1/1200ths.
    let rates = phyq::playdata::pig_shooter_per_template();
    let whole = |r: f64, d: f64| (r * d - (r * d).round()).abs() < 1e-6;
    let nonzero: Vec<f64> = rates.iter().map(|(_, r)| *r).filter(|r| *r > 0.0).collect();
    assert_eq!(nonzero.len(), 31);
    assert_eq!(nonzero.iter().filter(|r| !whole(**r, 100.0)).count(), 26);
    // Two templates were measured on fewer tasks (3_9_8 19, 3_5_4 18).
    assert_eq!(nonzero.iter().filter(|r| !whole(**r, 1200.0)).count(), 2);
}
