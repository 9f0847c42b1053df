//! Property tests (fixed case counts; CI pins PROPTEST_RNG_SEED): validity rules on arbitrary
//! inputs, and fold determinism.

use proptest::prelude::*;
use tasks::{folds, validate_action, InvalidAction, Setup, TaskSet, Tier};

/// Any f64: in-range values, raw bit patterns (NaN, ±inf, −0.0, subnormals) and near-misses.
fn any_component() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => 0.0f64..=1.0,
        1 => any::<u64>().prop_map(f64::from_bits),
        1 => prop::sample::select(vec![-0.0, 1.0000001, -1e-300, f64::NAN, f64::INFINITY, 5e-324, 1.0]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn validity_is_total_deterministic_and_consistent(
        task_index in 0usize..5000,
        two in any::<bool>(),
        action in prop::collection::vec(any_component(), 0..8),
    ) {
        let set = TaskSet::builtin();
        let task = &set.tasks()[task_index % set.len()];
        let tier = if two { Tier::TwoBalls } else { Tier::Ball };
        let first = validate_action(task, tier, &action);
        prop_assert_eq!(&first, &validate_action(task, tier, &action));
        match first {
            Ok(valid) => {
                prop_assert_eq!(action.len(), tier.action_len());
                prop_assert!(action.iter().all(|v| (0.0..=1.0).contains(v)));
                prop_assert_eq!(valid.balls().len(), tier.action_len() / 3);
                for b in valid.balls() {
                    // Quantized radius 2…32 px, integer centre inside the scene.
                    let r = b.r.to_f64();
                    prop_assert!((2.0..=32.0).contains(&r) && r.fract() == 0.0);
                    prop_assert!(b.x.to_f64() >= r - 1.0 && b.x.to_f64() <= 256.0 - r);
                }
            }
            Err(InvalidAction::WrongLength { expected, found }) => {
                prop_assert_eq!(expected, tier.action_len());
                prop_assert_eq!(found, action.len());
            }
            Err(InvalidAction::NotFinite { component }) => prop_assert!(!action[component].is_finite()),
            Err(InvalidAction::OutOfRange { component }) => prop_assert!(!(0.0..=1.0).contains(&action[component])),
            Err(_) => prop_assert!(action.iter().all(|v| (0.0..=1.0).contains(v))),
        }
    }

    #[test]
    fn folds_are_deterministic_disjoint_and_sorted(setup in 0usize..4, fold in 0u32..10) {
        let setup = Setup::ALL[setup];
        let a = folds::split(setup, fold).unwrap();
        let b = folds::split(setup, fold).unwrap();
        prop_assert_eq!(&a.train, &b.train);
        prop_assert_eq!(&a.test, &b.test);
        prop_assert_eq!((a.train.len(), a.dev.len(), a.test.len()), (1600, 400, 500));
        for list in [&a.train, &a.dev, &a.test] {
            prop_assert!(list.windows(2).all(|w| w[0] < w[1]), "not sorted");
        }
        let mut all: Vec<_> = a.train.iter().chain(&a.dev).chain(&a.test).collect();
        all.sort();
        all.dedup();
        prop_assert_eq!(all.len(), 2500, "train, dev and test overlap");
    }
}
