//! Pixel agreement with the original PHYRE's initial-scene observations (tests/data, see
//! NOTICE): ≥ 99.9 % of all pixels and ≥ 99 % on every task.

#[test]
fn initial_scenes_match_the_original() {
    let ids = include_str!("data/ids.txt");
    let xz = include_bytes!("data/scenes.u8.xz");
    let bytes = tasks::import::decompress_xz(xz, 100 << 20).expect("reference scenes decode");
    let ids: Vec<&str> = ids.lines().filter(|l| !l.is_empty()).collect();
    assert_eq!(bytes.len(), ids.len() * 65_536);
    let set = tasks::TaskSet::builtin();
    let (mut same, mut total) = (0u64, 0u64);
    let mut worst = (1.0f64, "");
    for (i, id) in ids.iter().enumerate() {
        let task = set.lookup(id).unwrap();
        let setup = task.build_world(&[]).unwrap();
        let obs = raster::render(&setup.world, &setup.colours);
        let reference = &bytes[i * 65_536..(i + 1) * 65_536];
        let agree = obs
            .as_bytes()
            .iter()
            .zip(reference)
            .filter(|(a, b)| a == b)
            .count() as u64;
        same += agree;
        total += 65_536;
        #[allow(clippy::float_arithmetic)]
        let share = agree as f64 / 65_536.0;
        if share < worst.0 {
            worst = (share, id);
        }
        assert!(
            share >= 0.99,
            "{id}: only {:.4} % of pixels agree",
            100.0 * share
        );
    }
    #[allow(clippy::float_arithmetic)]
    let overall = same as f64 / total as f64;
    println!(
        "pixel agreement {:.5} % over {} tasks; worst {} at {:.4} %",
        100.0 * overall,
        ids.len(),
        worst.1,
        100.0 * worst.0
    );
    assert!(
        overall >= 0.999,
        "overall agreement {:.5} %",
        100.0 * overall
    );
}
