//! The 75 embedded templates and their table.

use phyq::templates::{templates, Role, FILES};
use phyq::ObjectKind;

#[test]
fn all_75_import() {
    assert_eq!(templates().len(), 75);
    assert_eq!(FILES.len(), 75);
    for t in templates() {
        let level = t
            .level()
            .unwrap_or_else(|e| panic!("{}: {e}", t.file_name()));
        assert!(!level.birds.is_empty(), "{}", t.code);
        assert!(level.pigs().count() >= 1, "{}", t.code);
        assert_eq!(level.slingshot.x.text(), "-12.0", "{}", t.code);
        assert_eq!(level.slingshot.y.text(), "-2.5", "{}", t.code);
        assert_eq!(level.width, 2);
    }
}

#[test]
fn table_matches_files_and_split() {
    let mut codes: Vec<String> = templates().iter().map(|t| t.file_name()).collect();
    codes.sort();
    let files: Vec<&str> = FILES.iter().map(|(n, _)| *n).collect();
    assert_eq!(codes, files);
    let scenarios: std::collections::BTreeSet<u8> =
        templates().iter().map(|t| t.scenario).collect();
    assert_eq!(scenarios, (1..=15).collect());
    let t = phyq::templates::find("1.1").unwrap();
    assert_eq!((t.code.as_str(), t.role), ("1_1_4", Role::Train));
    let t = phyq::templates::find("3_9_5").unwrap();
    assert_eq!((t.paper.as_str(), t.role), ("15.8", Role::Test));
    assert_eq!(t.scenario_name, "manoeuvring");
    let train = templates().iter().filter(|t| t.role == Role::Train).count();
    assert_eq!(train, 41);
}

#[test]
fn a_template_in_detail() {
    // 1_1_1_1.xml: one red bird, one small pig at (-0.00044, -3.26683), 1.21353°.
    let level = phyq::templates::find("1_1_1").unwrap().level().unwrap();
    assert_eq!(level.birds, vec![phyq::BirdKind::Red]);
    assert_eq!(level.objects.len(), 1);
    let pig = &level.objects[0];
    assert!(matches!(
        pig.kind,
        ObjectKind::Pig {
            pig: phyq::PigKind::Small
        }
    ));
    assert_eq!(pig.x.text(), "-0.00044");
    assert_eq!(pig.rotation.text(), "1.21353");
    assert_eq!(level.camera.max_width.text(), "35");
}

#[test]
fn every_template_has_the_papers_strategy_text() {
    for t in templates() {
        assert!(
            t.strategy.ends_with('.') && t.strategy.len() > 30,
            "{}: {:?}",
            t.paper,
            t.strategy
        );
    }
    let by = |p: &str| &phyq::templates::find(p).unwrap().strategy;
    assert_eq!(
        by("1.1"),
        "Applying a single force using the lower trajectory of the bird."
    );
    assert_eq!(
        by("15.8"),
        "Tapping the black bird closer to the covered pig."
    );
    assert_eq!(by("12.1"), by("12.6"));
    assert!(by("10.1").contains(", so that the edges"));
}
