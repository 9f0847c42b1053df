//! rephyre's own task-file format (`.rpts`), version 1: the built-in store and users' task
//! files. The schema is documented in `FORMAT.md` next to `Cargo.toml`; this module is the only
//! reader and writer.
//!
//! All numbers are little-endian; every length is checked against the bytes that remain before
//! anything is allocated, and every task is validated with [`Task::new`].

use core::fmt;

use engine::Vec2;
use engine::{BodyKind, Fixed};

use crate::id::TaskId;
use crate::model::{Part, Relation, SceneBody, ShapeType, Task, TaskError, TaskGoal, Tier};

/// First 8 bytes of every store.
pub const MAGIC: [u8; 8] = *b"RPHYTASK";
/// The format version this code reads and writes.
pub const VERSION: u16 = 1;
/// Header size in bytes.
pub const HEADER_LEN: usize = 36;
/// Largest payload accepted (uncompressed).
pub const MAX_PAYLOAD: usize = 256 << 20;

/// How the payload is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// Payload bytes as they are.
    None = 0,
    /// zlib stream (RFC 1950: deflate with an Adler-32 trailer).
    Zlib = 1,
}

/// Why a store could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// Shorter than the header or without the magic: not a rephyre task file.
    NotAStore,
    UnsupportedVersion(u16),
    UnknownCompression(u8),
    /// Reserved header byte not zero.
    BadHeader,
    /// The declared payload is larger than [`MAX_PAYLOAD`].
    TooLarge(u64),
    /// The stored length does not match the bytes after the header.
    StoredLength {
        declared: u64,
        actual: usize,
    },
    /// The compressed payload is corrupt or does not inflate to the declared length.
    Corrupt(String),
    /// The payload's md5 differs from the header's.
    ChecksumMismatch {
        expected: String,
        found: String,
    },
    /// The payload ends inside a value.
    Truncated {
        offset: usize,
    },
    /// A value outside its allowed set (an unknown code, a bad length…).
    BadValue {
        offset: usize,
        what: String,
    },
    /// A task breaks a model invariant.
    Task {
        task: TaskId,
        error: TaskError,
    },
    /// Task ids must be strictly increasing (sorted, no duplicates).
    NotSorted {
        task: TaskId,
    },
    /// Bytes after the last task.
    TrailingBytes {
        offset: usize,
    },
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::NotAStore => f.write_str("not a rephyre task file (bad magic or too short)"),
            StoreError::UnsupportedVersion(v) => write!(
                f,
                "task file format version {v} is not supported (this build reads version {VERSION})"
            ),
            StoreError::UnknownCompression(c) => write!(f, "unknown compression code {c}"),
            StoreError::BadHeader => f.write_str("reserved header byte is not zero"),
            StoreError::TooLarge(n) => {
                write!(f, "payload of {n} bytes exceeds the limit of {MAX_PAYLOAD}")
            }
            StoreError::StoredLength { declared, actual } => write!(
                f,
                "header declares {declared} stored bytes but {actual} follow (truncated or padded file)"
            ),
            StoreError::Corrupt(e) => write!(f, "corrupt compressed payload: {e}"),
            StoreError::ChecksumMismatch { expected, found } => {
                write!(f, "payload md5 is {found}, header says {expected}")
            }
            StoreError::Truncated { offset } => {
                write!(f, "payload ends inside a value at byte {offset}")
            }
            StoreError::BadValue { offset, what } => write!(f, "at payload byte {offset}: {what}"),
            StoreError::Task { task, error } => write!(f, "task {task}: {error}"),
            StoreError::NotSorted { task } => {
                write!(f, "task {task} is out of order or duplicated (ids must increase)")
            }
            StoreError::TrailingBytes { offset } => {
                write!(f, "unexpected bytes after the last task at payload byte {offset}")
            }
        }
    }
}

impl std::error::Error for StoreError {}

/// Encode tasks (which must be sorted by id, without duplicates) as a store.
pub fn encode(tasks: &[Task], compression: Compression) -> Vec<u8> {
    let payload = encode_payload(tasks);
    let stored = match compression {
        Compression::None => payload.clone(),
        // Level 9: the built-in store is written once and read often.
        Compression::Zlib => miniz_oxide::deflate::compress_to_vec_zlib(&payload, 9),
    };
    let mut out = Vec::with_capacity(HEADER_LEN + stored.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.push(compression as u8);
    out.push(0);
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&(stored.len() as u32).to_le_bytes());
    out.extend_from_slice(&md5_raw(&payload));
    out.extend_from_slice(&stored);
    out
}

fn md5_raw(data: &[u8]) -> [u8; 16] {
    use md5::{Digest, Md5};
    Md5::digest(data).into()
}

/// The uncompressed payload of [`encode`] (deterministic: the same tasks give the same bytes).
pub fn encode_payload(tasks: &[Task]) -> Vec<u8> {
    let mut w = Vec::new();
    w.extend_from_slice(&(tasks.len() as u32).to_le_bytes());
    for t in tasks {
        let id = t.id();
        w.extend_from_slice(&id.template().to_le_bytes());
        w.extend_from_slice(&(id.index() as u16).to_le_bytes());
        w.push(match t.tier() {
            Tier::Ball => 0,
            Tier::TwoBalls => 1,
        });
        w.push(match t.goal().relation {
            Relation::Touching => 0,
        });
        w.extend_from_slice(&(t.goal().body1 as u16).to_le_bytes());
        w.extend_from_slice(&(t.goal().body2 as u16).to_le_bytes());
        w.extend_from_slice(&(t.description().len() as u32).to_le_bytes());
        w.extend_from_slice(t.description().as_bytes());
        w.extend_from_slice(&(t.bodies().len() as u16).to_le_bytes());
        for b in t.bodies() {
            w.push(match b.kind {
                BodyKind::Static => 0,
                BodyKind::Dynamic => 1,
            });
            w.push(b.shape_type.code());
            for v in [b.position.x, b.position.y, b.angle, b.diameter] {
                w.extend_from_slice(&v.raw().to_le_bytes());
            }
            w.push(b.parts.len() as u8);
            for p in &b.parts {
                match p {
                    Part::Circle { center, radius } => {
                        w.push(0);
                        for v in [center.x, center.y, *radius] {
                            w.extend_from_slice(&v.raw().to_le_bytes());
                        }
                    }
                    Part::Polygon { vertices } => {
                        w.push(1);
                        w.push(vertices.len() as u8);
                        for v in vertices {
                            w.extend_from_slice(&v.x.raw().to_le_bytes());
                            w.extend_from_slice(&v.y.raw().to_le_bytes());
                        }
                    }
                }
            }
        }
    }
    w
}

/// Decode a store (header, optional zlib, md5 check, tasks).
pub fn decode(bytes: &[u8]) -> Result<Vec<Task>, StoreError> {
    if bytes.len() < HEADER_LEN || bytes[..8] != MAGIC {
        return Err(StoreError::NotAStore);
    }
    let u32_at =
        |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != VERSION {
        return Err(StoreError::UnsupportedVersion(version));
    }
    let compression = match bytes[10] {
        0 => Compression::None,
        1 => Compression::Zlib,
        c => return Err(StoreError::UnknownCompression(c)),
    };
    if bytes[11] != 0 {
        return Err(StoreError::BadHeader);
    }
    let payload_len = u64::from(u32_at(12));
    let stored_len = u64::from(u32_at(16));
    if payload_len > MAX_PAYLOAD as u64 {
        return Err(StoreError::TooLarge(payload_len));
    }
    let mut expected_md5 = [0u8; 16];
    expected_md5.copy_from_slice(&bytes[20..36]);
    let stored = &bytes[HEADER_LEN..];
    if stored.len() as u64 != stored_len {
        return Err(StoreError::StoredLength {
            declared: stored_len,
            actual: stored.len(),
        });
    }
    let payload_len = payload_len as usize;
    let inflated;
    let payload: &[u8] = match compression {
        Compression::None => stored,
        Compression::Zlib => {
            inflated = miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(stored, payload_len)
                .map_err(|e| StoreError::Corrupt(format!("{:?}", e.status)))?;
            &inflated
        }
    };
    if payload.len() != payload_len {
        return Err(StoreError::Corrupt(format!(
            "payload is {} bytes, header says {payload_len}",
            payload.len()
        )));
    }
    let found = md5_raw(payload);
    if found != expected_md5 {
        return Err(StoreError::ChecksumMismatch {
            expected: hex(&expected_md5),
            found: hex(&found),
        });
    }
    decode_payload(payload)
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Smallest encoded sizes, for checking counts before allocating.
const MIN_TASK: usize = 4 + 2 + 1 + 1 + 2 + 2 + 4 + 2;
const MIN_BODY: usize = 1 + 1 + 4 * 8 + 1;
const MIN_PART: usize = 1 + 3 * 8;

struct Cursor<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], StoreError> {
        if n > self.buf.len() - self.pos {
            return Err(StoreError::Truncated { offset: self.pos });
        }
        let s = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn u8(&mut self) -> Result<u8, StoreError> {
        Ok(self.take(1)?[0])
    }

    fn u16(&mut self) -> Result<u16, StoreError> {
        let s = self.take(2)?;
        Ok(u16::from_le_bytes([s[0], s[1]]))
    }

    fn u32(&mut self) -> Result<u32, StoreError> {
        let s = self.take(4)?;
        Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    }

    fn fixed(&mut self) -> Result<Fixed, StoreError> {
        let s = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(s);
        Ok(Fixed::from_raw(i64::from_le_bytes(a)))
    }

    fn vec2(&mut self) -> Result<Vec2, StoreError> {
        Ok(Vec2::new(self.fixed()?, self.fixed()?))
    }

    /// A count of items of at least `min_size` bytes each, checked against what remains.
    fn count(&mut self, n: usize, min_size: usize) -> Result<usize, StoreError> {
        let remaining = self.buf.len() - self.pos;
        if n.saturating_mul(min_size) > remaining {
            return Err(self.bad(format!(
                "count {n} cannot fit in the {remaining} bytes that remain"
            )));
        }
        Ok(n)
    }

    fn bad(&self, what: String) -> StoreError {
        StoreError::BadValue {
            offset: self.pos,
            what,
        }
    }
}

/// Decode an uncompressed payload.
pub fn decode_payload(payload: &[u8]) -> Result<Vec<Task>, StoreError> {
    let mut c = Cursor {
        buf: payload,
        pos: 0,
    };
    let n = c.u32()? as usize;
    let n = c.count(n, MIN_TASK)?;
    let mut tasks: Vec<Task> = Vec::with_capacity(n);
    for _ in 0..n {
        let at = c.pos;
        let template = c.u32()?;
        let index = u32::from(c.u16()?);
        let id = TaskId::new(template, index).ok_or(StoreError::BadValue {
            offset: at,
            what: format!("task id {template}:{index} out of range"),
        })?;
        if tasks.last().is_some_and(|t| t.id() >= id) {
            return Err(StoreError::NotSorted { task: id });
        }
        let tier = match c.u8()? {
            0 => Tier::Ball,
            1 => Tier::TwoBalls,
            x => return Err(c.bad(format!("unknown tier code {x}"))),
        };
        let relation = match c.u8()? {
            0 => Relation::Touching,
            x => return Err(c.bad(format!("unknown relation code {x}"))),
        };
        let body1 = usize::from(c.u16()?);
        let body2 = usize::from(c.u16()?);
        let dlen = c.u32()? as usize;
        let dlen = c.count(dlen, 1)?;
        let description = core::str::from_utf8(c.take(dlen)?)
            .map_err(|_| c.bad("description is not UTF-8".into()))?
            .to_owned();
        let nb = usize::from(c.u16()?);
        let nb = c.count(nb, MIN_BODY)?;
        let mut bodies = Vec::with_capacity(nb);
        for _ in 0..nb {
            let kind = match c.u8()? {
                0 => BodyKind::Static,
                1 => BodyKind::Dynamic,
                x => return Err(c.bad(format!("unknown body kind {x}"))),
            };
            let code = c.u8()?;
            let shape_type = ShapeType::from_code(i64::from(code))
                .ok_or_else(|| c.bad(format!("unknown shape type {code}")))?;
            let position = c.vec2()?;
            let angle = c.fixed()?;
            let diameter = c.fixed()?;
            let np = usize::from(c.u8()?);
            let np = c.count(np, MIN_PART)?;
            let mut parts = Vec::with_capacity(np);
            for _ in 0..np {
                parts.push(match c.u8()? {
                    0 => Part::Circle {
                        center: c.vec2()?,
                        radius: c.fixed()?,
                    },
                    1 => {
                        let nv = usize::from(c.u8()?);
                        let nv = c.count(nv, 16)?;
                        let mut vertices = Vec::with_capacity(nv);
                        for _ in 0..nv {
                            vertices.push(c.vec2()?);
                        }
                        Part::Polygon { vertices }
                    }
                    x => return Err(c.bad(format!("unknown part tag {x}"))),
                });
            }
            bodies.push(SceneBody {
                kind,
                shape_type,
                position,
                angle,
                diameter,
                parts,
            });
        }
        let goal = TaskGoal {
            body1,
            relation,
            body2,
        };
        let task = Task::new(id, tier, description, bodies, goal)
            .map_err(|error| StoreError::Task { task: id, error })?;
        tasks.push(task);
    }
    if c.pos != payload.len() {
        return Err(StoreError::TrailingBytes { offset: c.pos });
    }
    Ok(tasks)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<Task> {
        let ball = |x: i32, kind| SceneBody {
            kind,
            shape_type: ShapeType::Ball,
            position: Vec2::new(Fixed::from_int(x), Fixed::from_int(20)),
            angle: Fixed::ZERO,
            diameter: Fixed::from_int(10),
            parts: vec![Part::Circle {
                center: Vec2::ZERO,
                radius: Fixed::from_int(5),
            }],
        };
        let bar = SceneBody {
            kind: BodyKind::Static,
            shape_type: ShapeType::Bar,
            position: Vec2::new(Fixed::from_int(100), Fixed::from_int(5)),
            angle: Fixed::ratio(1, 3),
            diameter: Fixed::from_int(50),
            parts: vec![Part::Polygon {
                vertices: [(-25, -2), (25, -2), (25, 2), (-25, 2)]
                    .map(|(x, y)| Vec2::new(Fixed::from_int(x), Fixed::from_int(y)))
                    .to_vec(),
            }],
        };
        (0..3)
            .map(|i| {
                Task::new(
                    TaskId::new(50_000, i).unwrap(),
                    Tier::TwoBalls,
                    format!("task número {i}"),
                    vec![
                        ball(10, BodyKind::Dynamic),
                        ball(40, BodyKind::Dynamic),
                        bar.clone(),
                    ],
                    TaskGoal {
                        body1: 0,
                        relation: Relation::Touching,
                        body2: 2,
                    },
                )
                .unwrap()
            })
            .collect()
    }

    #[test]
    fn round_trips_with_and_without_compression() {
        let tasks = sample();
        for c in [Compression::None, Compression::Zlib] {
            let bytes = encode(&tasks, c);
            assert_eq!(decode(&bytes).unwrap(), tasks);
        }
    }

    #[test]
    fn every_truncation_and_header_corruption_is_an_error() {
        let tasks = sample();
        for c in [Compression::None, Compression::Zlib] {
            let bytes = encode(&tasks, c);
            for len in 0..bytes.len() {
                assert!(decode(&bytes[..len]).is_err(), "{c:?} truncated to {len}");
            }
            // Flip every bit of the file: header fields, compressed data or payload — each
            // must be caught (magic, version, lengths, zlib's Adler-32, or the md5). The one
            // exception is a bit that carries no data (the padding bits after deflate's last
            // code): it may decode, but only to the very same tasks.
            let mut harmless = 0;
            for i in 0..bytes.len() {
                for bit in 0..8 {
                    let mut b = bytes.clone();
                    b[i] ^= 1 << bit;
                    match decode(&b) {
                        Err(_) => {}
                        Ok(t) => {
                            assert_eq!(c, Compression::Zlib, "flip byte {i} bit {bit}");
                            assert_eq!(t, tasks, "flip byte {i} bit {bit} changed the tasks");
                            harmless += 1;
                        }
                    }
                }
            }
            // (The zlib header's informational level bits and the final padding bits.)
            assert!(harmless <= 16, "{harmless} flips went unnoticed");
        }
    }

    #[test]
    fn payload_errors_are_specific() {
        let tasks = sample();
        let payload = encode_payload(&tasks);
        // Task count claiming 2^32 − 1 tasks: refused before allocating.
        let mut p = payload.clone();
        p[..4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            decode_payload(&p),
            Err(StoreError::BadValue { offset: 4, .. })
        ));
        // Unsorted: the same task twice.
        let dup = encode_payload(&[tasks[0].clone(), tasks[0].clone()]);
        assert!(matches!(
            decode_payload(&dup),
            Err(StoreError::NotSorted { .. })
        ));
        // Trailing byte.
        let mut p = payload.clone();
        p.push(0);
        assert!(matches!(
            decode_payload(&p),
            Err(StoreError::TrailingBytes { .. })
        ));
        // Tier code 7 (byte 10: count 4, template 4, index 2).
        let mut p = payload.clone();
        p[10] = 7;
        assert!(matches!(
            decode_payload(&p),
            Err(StoreError::BadValue { .. })
        ));
        // Goal body 1 = 2 (the static bar): a model error.
        let mut p = payload;
        p[12] = 2;
        assert!(matches!(
            decode_payload(&p),
            Err(StoreError::Task {
                error: TaskError::GoalSameBody,
                ..
            })
        ));
        let mut v = encode(&tasks, Compression::None);
        v[8] = 2;
        assert_eq!(decode(&v), Err(StoreError::UnsupportedVersion(2)));
        assert_eq!(decode(b"RPHYTASK"), Err(StoreError::NotAStore));
        assert_eq!(decode(&[0u8; 100]), Err(StoreError::NotAStore));
    }
}
