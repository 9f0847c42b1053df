//! The task generator: every template gives its 100 tasks, reproducibly; tasks keep the
//! template's objects; no new overlaps; the whole tier's bytes are pinned by a golden hash.

use phyq::generator::geometry::{bounds_at, coord_of, Bounds};
use phyq::generator::{self, reach, rules, Reject};
use phyq::templates::templates;
use phyq::{Level, LevelSet, ObjectKind};
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Instant;

/// The built-in tier, made once for the tests that read it (and timed).
fn builtin() -> &'static (LevelSet, Vec<generator::TemplateStats>) {
    static CELL: OnceLock<(LevelSet, Vec<generator::TemplateStats>)> = OnceLock::new();
    CELL.get_or_init(|| {
        let t0 = Instant::now();
        let out = generator::generate_set(generator::BUILTIN_SEED, generator::TASKS_PER_TEMPLATE)
            .expect("every template generates its tasks");
        eprintln!(
            "generated {} tasks in {:?}",
            out.0.entries().len(),
            t0.elapsed()
        );
        out
    })
}

fn fnv64(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn element_counts(l: &Level) -> [usize; 4] {
    let mut c = [0; 4];
    for o in &l.objects {
        c[match o.kind {
            ObjectKind::Pig { .. } => 0,
            ObjectKind::Block { .. } => 1,
            ObjectKind::Platform { .. } => 2,
            ObjectKind::Tnt => 3,
        }] += 1;
    }
    c
}

#[test]
fn every_template_has_a_rule_and_gives_its_tasks() {
    assert_eq!(rules::RULES.len(), 75);
    for t in templates() {
        assert!(rules::rule_of(&t.code).is_some(), "{}", t.code);
    }
    let (set, stats) = builtin();
    assert_eq!(set.entries().len(), 7_500);
    assert_eq!(stats.len(), 75);
    for s in stats {
        assert_eq!(s.tasks, 100, "{}", s.code);
        eprintln!(
            "{}: {} redraws ({} out of bounds, {} overlaps, {} unreachable), {} distractors left out",
            s.code,
            s.redraws(),
            s.out_of_bounds,
            s.overlaps,
            s.unreachable,
            s.distractors_left_out
        );
    }
    // The built-in tier is these draws but where the witness file keeps a later, sound one.
    let kept = |t: &phyq::templates::Template, i: u32| phyq::witnesses::kept_attempt(&t.code, i);
    let (tier, _) = generator::generate_set_from(generator::BUILTIN_SEED, 100, &kept).unwrap();
    assert_eq!(generator::builtin_tasks(), &tier);
    let differ = tier
        .entries()
        .iter()
        .zip(set.entries())
        .filter(|(a, b)| a != b)
        .count();
    let redrawn = phyq::witnesses::builtin()
        .iter()
        .filter(|r| !r.refused.is_empty())
        .count();
    assert_eq!(differ, redrawn);
}

#[test]
fn the_stats_count_every_redraw_and_every_distractor_left_out() {
    let (set, stats) = builtin();
    for (s, t) in stats.iter().zip(templates()) {
        assert_eq!(s.code, t.code);
        let n = t.level().unwrap().objects.len();
        let tasks: Vec<_> = set
            .entries()
            .iter()
            .filter(|e| generator::template_of(&e.id).unwrap().code == t.code)
            .collect();
        assert_eq!(tasks.len(), 100);
        // Each task is its template's first valid draw from attempt 0: every attempt before it
        // was refused.
        let attempts: u32 = tasks
            .iter()
            .map(|e| {
                let (_, a) = e.source.rsplit_once("attempt ").expect("the attempt");
                a.parse::<u32>().unwrap()
            })
            .sum();
        assert_eq!(s.redraws(), attempts, "{}", t.code);
        // No draw of the 75 templates is refused for an overlap or the line: the rules' places
        // keep their anchors under it and the distractors clear of everything low (the checks'
        // own tests are the generator's unit tests, on hand-made templates).
        assert_eq!((s.overlaps, s.unreachable), (0, 0), "{}", t.code);
        let left_out: usize = tasks
            .iter()
            .map(|e| n + generator::distractors::COUNT - e.level.objects.len())
            .sum();
        assert_eq!(s.distractors_left_out as usize, left_out, "{}", t.code);
    }
}

#[test]
fn a_builtin_task_alone_is_the_tiers() {
    let tier = generator::builtin_tasks();
    for e in tier.entries().iter().step_by(211) {
        assert_eq!(generator::builtin_task(&e.id).as_ref(), Some(e));
    }
    for id in [
        "phyq:1_1_1:00000",
        "phyq:1_1_1:00101",
        "phyq:9_9_9:00001",
        "phyq:the-template",
    ] {
        let id: phyq::LevelId = id.parse().unwrap();
        assert_eq!(generator::builtin_task(&id), None, "{id}");
    }
}

#[test]
fn tasks_keep_the_template_objects_birds_and_slingshot() {
    let (set, _) = builtin();
    for e in set.entries() {
        let t = generator::template_of(&e.id).expect("a template's task");
        let tpl = t.level().unwrap();
        let l = &e.level;
        assert_eq!(l.birds, tpl.birds, "{}", e.id);
        assert_eq!(l.slingshot, tpl.slingshot, "{}", e.id);
        assert_eq!(l.width, tpl.width, "{}", e.id);
        assert_eq!(l.camera, tpl.camera, "{}", e.id);
        let n = tpl.objects.len();
        assert!(
            (n..=n + generator::distractors::COUNT).contains(&l.objects.len()),
            "{}",
            e.id
        );
        for (a, b) in l.objects.iter().zip(&tpl.objects) {
            assert_eq!(a.kind, b.kind, "{}", e.id);
            assert_eq!(a.rotation, b.rotation, "{}", e.id);
        }
        // Same pigs (kinds and count); added objects are blocks or platforms only.
        assert_eq!(
            l.pigs().map(|p| &p.kind).collect::<Vec<_>>(),
            tpl.pigs().map(|p| &p.kind).collect::<Vec<_>>(),
            "{}",
            e.id
        );
        let (a, b) = (element_counts(l), element_counts(&tpl));
        assert_eq!((a[0], a[3]), (b[0], b[3]), "{}", e.id);
        for o in &l.objects[n..] {
            assert!(
                matches!(
                    o.kind,
                    ObjectKind::Block { .. } | ObjectKind::Platform { .. }
                ),
                "{}",
                e.id
            );
            assert_eq!(o.rotation.text(), "0");
        }
        // Every number is exact in 1e-5 units.
        for o in &l.objects {
            assert!(
                coord_of(&o.x).is_some() && coord_of(&o.y).is_some(),
                "{}",
                e.id
            );
        }
    }
}

#[test]
fn no_new_overlaps_and_everything_moved_is_inside() {
    let (set, _) = builtin();
    let boxes = |l: &Level| -> Vec<Bounds> {
        l.objects
            .iter()
            .map(|o| bounds_at(o, coord_of(&o.x).unwrap(), coord_of(&o.y).unwrap()))
            .collect()
    };
    for e in set.entries() {
        let tpl = generator::template_of(&e.id).unwrap().level().unwrap();
        let (before, after) = (boxes(&tpl), boxes(&e.level));
        let n = before.len();
        for a in 0..after.len() {
            for b in a + 1..after.len() {
                let was = b < n && before[a].overlaps(&before[b]);
                assert!(
                    was || !after[a].overlaps(&after[b]),
                    "{}: objects {a} and {b} overlap",
                    e.id
                );
            }
            let moved = a >= n || after[a] != before[a];
            if moved {
                let half = 875_000 * e.level.width as i64;
                assert!(
                    after[a].x_lo >= -half && after[a].x_hi <= half,
                    "{}: object {a} outside the level",
                    e.id
                );
            }
        }
    }
}

#[test]
fn anchors_stay_reachable_where_the_rule_says_so() {
    let (set, _) = builtin();
    for e in set.entries() {
        let t = generator::template_of(&e.id).unwrap();
        let rule = rules::rule_of(&t.code).unwrap();
        if !rule.place.keeps_reachable() {
            continue;
        }
        // The anchor moved by its object's shift, or (a point) by the structure's: every
        // object moved alike.
        let tpl = t.level().unwrap();
        let (object, at) = generator::anchor(t).unwrap();
        let shift_of = |i: usize| {
            let (a, b) = (&tpl.objects[i], &e.level.objects[i]);
            (
                coord_of(&b.x).unwrap() - coord_of(&a.x).unwrap(),
                coord_of(&b.y).unwrap() - coord_of(&a.y).unwrap(),
            )
        };
        let shift = shift_of(object.unwrap_or(0));
        let anchor = at;
        assert!(
            reach::reachable(anchor.0 + shift.0, anchor.1 + shift.1),
            "{}: anchor above the line",
            e.id
        );
    }
}

#[test]
fn same_seed_same_bytes_other_seed_other_bytes() {
    let (set, _) = builtin();
    let bytes = set.to_bytes();
    let (again, _) = generator::generate_set(generator::BUILTIN_SEED, 100).unwrap();
    assert_eq!(fnv64(&bytes), fnv64(&again.to_bytes()));
    let (other, _) = generator::generate_set(1, 100).unwrap();
    assert_ne!(fnv64(&bytes), fnv64(&other.to_bytes()));
    // Task by task, in any order: the same level as the set's.
    for e in set.entries().iter().rev().step_by(97) {
        let t = generator::template_of(&e.id).unwrap();
        let phyq::LevelId::Coded { index, .. } = e.id else {
            panic!()
        };
        assert_eq!(
            generator::generate(t, index, generator::BUILTIN_SEED).unwrap(),
            e.level
        );
    }
    // The file reads back to the same set.
    assert_eq!(&LevelSet::from_bytes(&bytes).unwrap(), set);
}

#[test]
fn regenerate_goes_on_from_the_attempt_asked() {
    let t = phyq::templates::find("2_1_2").unwrap();
    let first = generator::regenerate(t, 7, 0, 0).unwrap();
    let next = generator::regenerate(t, 7, 0, first.attempt + 1).unwrap();
    assert!(next.attempt > first.attempt);
    assert_ne!(next.level, first.level);
    assert_eq!(generator::generate_named("3.4", 7, 0).unwrap(), first.level);
    assert!(matches!(
        generator::generate(t, 0, 0),
        Err(generator::GenError::Index(0))
    ));
    assert!(matches!(
        generator::generate_named("9_9_9", 1, 0),
        Err(generator::GenError::UnknownTemplate(_))
    ));
    // A refused attempt is refused for a reason the checks name.
    for r in first.refused {
        assert!(matches!(
            r,
            Reject::OutOfBounds { .. } | Reject::Overlap { .. } | Reject::Unreachable
        ));
    }
}

fn golden_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/generator.golden")
}

/// The hash of the whole built-in tier's level-set file. A change to the generator, a rule, the
/// catalogue or a template changes it: re-bless with
/// `REPHYRE_BLESS=1 cargo test -p phyq --test generator golden`.
#[test]
fn golden_hash_of_the_tier() {
    let (set, _) = builtin();
    let bytes = set.to_bytes();
    let line = format!(
        "# phyq tier: seed tasks bytes fnv1a64 (REPHYRE_BLESS=1 cargo test -p phyq --test generator golden to regenerate)\n{} {} {} {:016x}\n",
        generator::BUILTIN_SEED,
        set.entries().len(),
        bytes.len(),
        fnv64(&bytes)
    );
    let path = golden_path();
    if std::env::var_os("REPHYRE_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &line).unwrap();
    }
    let golden = std::fs::read_to_string(&path).expect("the golden file (bless it first)");
    assert_eq!(golden, line, "run with REPHYRE_BLESS=1 to regenerate");
}

/// docs/phyq-tasks.md's table of the rules is the generated one (`REPHYRE_BLESS=1` rewrites it).
#[test]
fn docs_table_of_the_rules() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/phyq-tasks.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let (begin, end) = (
        "<!-- generator rules: begin -->\n",
        "<!-- generator rules: end -->",
    );
    let a = doc.find(begin).expect("the begin marker") + begin.len();
    let b = doc.find(end).expect("the end marker");
    let table = rules::markdown_table();
    if std::env::var_os("REPHYRE_BLESS").is_some() {
        std::fs::write(&path, format!("{}{}{}", &doc[..a], table, &doc[b..])).unwrap();
    } else {
        assert_eq!(&doc[a..b], table, "run with REPHYRE_BLESS=1 to regenerate");
    }
}
