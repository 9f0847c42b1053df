//! Codec of `tests/data/outcomes-A.bin`: the rows of the original's `outcomes-A.csv` that the
//! validity test checks (task, tier, kind, status, action), zlib-compressed. The action floats
//! are stored as byte planes (all first bytes, then all second bytes, …), which compresses the
//! sign/exponent bytes well; the values themselves are exact f64 bits.
#![allow(dead_code)]

/// One row of `outcomes-A.csv`.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub task: String,
    /// 0 = ball, 1 = two_balls.
    pub tier: u8,
    /// 0 = random, 1 = stable_solution, 2 = unstable_solution.
    pub kind: u8,
    /// −1 NOT_SOLVED, 0 INVALID_INPUT, 1 SOLVED.
    pub status: i8,
    pub action: Vec<f64>,
}

const MAGIC: &[u8; 8] = b"RPOUTC01";

fn floats_of(tier: u8) -> usize {
    if tier == 0 {
        3
    } else {
        6
    }
}

pub fn encode(rows: &[Row]) -> Vec<u8> {
    let mut p = Vec::new();
    p.extend_from_slice(MAGIC);
    p.extend_from_slice(&(rows.len() as u32).to_le_bytes());
    let mut floats = Vec::new();
    for r in rows {
        let (t, i) = r.task.split_once(':').expect("task id");
        p.extend_from_slice(&t.parse::<u16>().unwrap().to_le_bytes());
        p.extend_from_slice(&i.parse::<u16>().unwrap().to_le_bytes());
        p.extend_from_slice(&[r.tier, r.kind, r.status as u8]);
        assert_eq!(r.action.len(), floats_of(r.tier));
        floats.extend_from_slice(&r.action);
    }
    for plane in 0..8 {
        p.extend(floats.iter().map(|f| f.to_bits().to_le_bytes()[plane]));
    }
    miniz_oxide::deflate::compress_to_vec_zlib(&p, 9)
}

pub fn decode(bytes: &[u8]) -> Vec<Row> {
    let p = miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(bytes, 64 << 20).expect("zlib");
    assert_eq!(&p[..8], MAGIC);
    let n = u32::from_le_bytes(p[8..12].try_into().unwrap()) as usize;
    let mut at = 12;
    let mut heads = Vec::with_capacity(n);
    let mut total = 0;
    for _ in 0..n {
        let t = u16::from_le_bytes([p[at], p[at + 1]]);
        let i = u16::from_le_bytes([p[at + 2], p[at + 3]]);
        let (tier, kind, status) = (p[at + 4], p[at + 5], p[at + 6] as i8);
        at += 7;
        total += floats_of(tier);
        heads.push((format!("{t:05}:{i:03}"), tier, kind, status));
    }
    assert_eq!(p.len() - at, total * 8, "float planes");
    let planes = &p[at..];
    let mut k = 0;
    heads
        .into_iter()
        .map(|(task, tier, kind, status)| {
            let action = (0..floats_of(tier))
                .map(|_| {
                    let mut b = [0u8; 8];
                    for (plane, byte) in b.iter_mut().enumerate() {
                        *byte = planes[plane * total + k];
                    }
                    k += 1;
                    f64::from_bits(u64::from_le_bytes(b))
                })
                .collect();
            Row {
                task,
                tier,
                kind,
                status,
                action,
            }
        })
        .collect()
}

/// Parse `outcomes-A.csv` (`task_id,tier,kind,index,action,status`).
pub fn parse_csv(text: &str) -> Vec<Row> {
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("task_id,tier,kind,index,action,status"));
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            assert_eq!(f.len(), 6, "{l}");
            Row {
                task: f[0].to_owned(),
                tier: match f[1] {
                    "ball" => 0,
                    "two_balls" => 1,
                    t => panic!("tier {t}"),
                },
                kind: match f[2] {
                    "random" => 0,
                    "stable_solution" => 1,
                    "unstable_solution" => 2,
                    k => panic!("kind {k}"),
                },
                status: f[5].parse().unwrap(),
                // Rust's float parsing is correctly rounded, like the original's writer was
                // exact to 17 significant digits: the f64 bits round-trip.
                action: f[4].split(' ').map(|v| v.parse().unwrap()).collect(),
            }
        })
        .collect()
}
