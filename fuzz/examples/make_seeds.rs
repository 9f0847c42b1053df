//! Writes the hand-made seed entries of the fuzz corpora (run once; fuzzing adds more):
//! `cargo run -p rephyre-fuzz --example make_seeds`.
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let set = tasks::TaskSet::builtin();
    let two: Vec<tasks::Task> = set.tasks()[..2].to_vec();
    let files = root.join("task_files");
    let store_plain = tasks::store::encode(&two, tasks::store::Compression::None);
    let store_zlib = tasks::store::encode(&two, tasks::store::Compression::Zlib);
    std::fs::write(files.join("seed-store-plain"), &store_plain).unwrap();
    std::fs::write(files.join("seed-store-zlib"), &store_zlib).unwrap();
    std::fs::write(
        files.join("seed-store-truncated"),
        &store_plain[..store_plain.len() / 2],
    )
    .unwrap();
    std::fs::write(files.join("seed-empty"), b"").unwrap();
    // An xz stream header followed by garbage, and a Thrift struct claiming a 2^31-element list.
    std::fs::write(
        files.join("seed-xz-header"),
        [
            0xfd, b'7', b'z', b'X', b'Z', 0x00, 0x00, 0x04, 0xe6, 0xd6, 0xb4, 0x46, 1, 2, 3,
        ],
    )
    .unwrap();
    std::fs::write(
        files.join("seed-thrift-huge-list"),
        [0x0f, 0x00, 0x01, 0x0c, 0x7f, 0xff, 0xff, 0xff, 0x00],
    )
    .unwrap();
    let actions = root.join("actions");
    let f = |v: f64| v.to_le_bytes();
    let mut cases: Vec<(u16, u8, u8, Vec<f64>)> = vec![
        (0, 0, 2, vec![0.5, 0.5, 0.3]),
        (7, 0, 3, vec![f64::NAN, 0.5, 0.5]),
        (9, 0, 4, vec![f64::INFINITY, -0.0, 1.0]),
        (2600, 1, 2, vec![0.2, 0.8, 0.1, 0.8, 0.8, 0.1]),
        (3000, 1, 3, vec![0.5, 0.5, 0.1, 0.5, 0.5, 0.1]),
        (11, 0, 2, vec![1.0000001, 0.5, 0.5]),
        (12, 0, 2, vec![f64::from_bits(1), 0.5, 0.5]),
        (4999, 1, 1, vec![0.5; 7]),
        (123, 0, 2, vec![0.1, 0.9, 0.05]),
    ];
    for (i, (task, tier, len_sel, vals)) in cases.drain(..).enumerate() {
        let mut bytes = task.to_le_bytes().to_vec();
        bytes.push(tier);
        bytes.push(len_sel);
        for v in vals {
            bytes.extend_from_slice(&f(v));
        }
        std::fs::write(actions.join(format!("seed-{i:02}")), bytes).unwrap();
    }
}
