//! The importer of the original task file: round trips through a Thrift writer written here,
//! unknown fields of every type, and every kind of malformed input (truncated, bit-flipped,
//! foreign, oversized, schema violations) — each an error, never a panic.
#![allow(clippy::float_arithmetic)]

use std::io::Write;
use std::path::PathBuf;

use engine::{BodyKind, Fixed};
use tasks::import::{decompress_xz, import_phyre, import_phyre_thrift};
use tasks::{ImportError, Part, Task, TaskError, TaskSet, ThriftErrorKind, Tier};

const STOP: u8 = 0;
const BOOL: u8 = 2;
const BYTE: u8 = 3;
const DOUBLE: u8 = 4;
const I16: u8 = 6;
const I32: u8 = 8;
const I64: u8 = 10;
const STRING: u8 = 11;
const STRUCT: u8 = 12;
const MAP: u8 = 13;
const SET: u8 = 14;
const LIST: u8 = 15;

/// A minimal TBinaryProtocol writer.
#[derive(Default)]
struct W(Vec<u8>);

impl W {
    fn field(&mut self, t: u8, id: i16) -> &mut W {
        self.0.push(t);
        self.0.extend(id.to_be_bytes());
        self
    }
    fn stop(&mut self) {
        self.0.push(STOP);
    }
    fn i32(&mut self, v: i32) {
        self.0.extend(v.to_be_bytes());
    }
    fn f64(&mut self, v: f64) {
        self.0.extend(v.to_bits().to_be_bytes());
    }
    fn string(&mut self, s: &str) {
        self.i32(s.len() as i32);
        self.0.extend(s.as_bytes());
    }
    fn list(&mut self, et: u8, n: usize) {
        self.0.push(et);
        self.i32(n as i32);
    }
    fn vector(&mut self, x: Fixed, y: Fixed, extras: bool) {
        self.field(DOUBLE, 1).f64(x.to_f64());
        if extras {
            self.field(I64, 3).0.extend(7i64.to_be_bytes());
        }
        self.field(DOUBLE, 2).f64(y.to_f64());
        self.stop();
    }
    /// Unknown fields of every type, nested.
    fn junk(&mut self, first_id: i16) {
        self.field(BOOL, first_id).0.push(1);
        self.field(BYTE, first_id + 1).0.push(0xff);
        self.field(I16, first_id + 2).0.extend(3i16.to_be_bytes());
        self.field(MAP, first_id + 3);
        self.0.extend([STRING, LIST]);
        self.i32(2);
        for k in ["a", "b"] {
            self.string(k);
            self.list(I32, 2);
            self.i32(1);
            self.i32(2);
        }
        self.field(SET, first_id + 4);
        self.list(DOUBLE, 1);
        self.f64(0.5);
        self.field(STRUCT, first_id + 5);
        self.field(LIST, 1);
        self.list(STRUCT, 1);
        self.field(STRING, 1).string("nested");
        self.stop();
        self.stop();
    }
}

/// What the original file says for a body's colour (walls: black).
fn file_colour(t: &Task, i: usize) -> i32 {
    match t.colour(i).code() {
        0 => 6,
        c => i32::from(c),
    }
}

struct Opts {
    extras: bool,
    skip_tier: bool,
}

fn write_task(w: &mut W, t: &Task, o: &Opts) {
    w.field(STRING, 1).string(&t.id().to_string());
    if o.extras {
        w.junk(40);
    }
    w.field(STRUCT, 2);
    {
        w.field(LIST, 1).list(STRUCT, t.bodies().len());
        for (i, b) in t.bodies().iter().enumerate() {
            w.field(STRUCT, 1)
                .vector(b.position.x, b.position.y, o.extras);
            w.field(I32, 2)
                .i32(if b.kind == BodyKind::Static { 1 } else { 2 });
            w.field(DOUBLE, 3).f64(b.angle.to_f64());
            if o.extras {
                w.junk(60);
            }
            w.field(LIST, 4).list(STRUCT, b.parts.len());
            for p in &b.parts {
                match p {
                    Part::Circle { radius, .. } => {
                        w.field(STRUCT, 2).field(DOUBLE, 1).f64(radius.to_f64());
                        w.stop();
                    }
                    Part::Polygon { vertices } => {
                        w.field(STRUCT, 1)
                            .field(LIST, 1)
                            .list(STRUCT, vertices.len());
                        for v in vertices {
                            w.vector(v.x, v.y, o.extras);
                        }
                        w.stop();
                    }
                }
                w.stop();
            }
            w.field(I32, 5).i32(file_colour(t, i));
            w.field(I32, 6).i32(i32::from(b.shape_type.code()));
            w.field(DOUBLE, 7).f64(b.diameter.to_f64());
            w.stop();
        }
        w.field(I32, 3).i32(256);
        w.field(I32, 4).i32(256);
        w.field(I32, 5).i32(0);
        w.stop();
    }
    w.field(I32, 3).i32(t.goal().body1 as i32);
    w.field(I32, 4).i32(t.goal().body2 as i32);
    w.field(LIST, 5).list(I32, 1);
    w.i32(6);
    w.field(STRING, 6).string(t.description());
    if o.extras {
        // The phantom shape the original carries in some tasks (a struct we skip).
        w.field(STRUCT, 8)
            .field(STRUCT, 1)
            .field(LIST, 1)
            .list(STRUCT, 0);
        w.stop();
        w.stop();
    }
    if !o.skip_tier {
        w.field(STRING, 9).string(if t.tier() == Tier::Ball {
            "BALL"
        } else {
            "TWO_BALLS"
        });
    }
    w.stop();
}

/// A `TaskCollection` of `tasks`, each task's bytes produced by `each` (default writer).
fn collection(tasks: &[&Task], each: impl Fn(&mut W, &Task)) -> Vec<u8> {
    let mut w = W::default();
    w.field(LIST, 1).list(STRUCT, tasks.len());
    for t in tasks {
        each(&mut w, t);
    }
    w.stop();
    w.0
}

fn plain(w: &mut W, t: &Task) {
    write_task(
        w,
        t,
        &Opts {
            extras: false,
            skip_tier: false,
        },
    );
}

fn all() -> Vec<&'static Task> {
    TaskSet::builtin().tasks().iter().collect()
}

fn one(id: &str) -> &'static Task {
    TaskSet::builtin().lookup(id).unwrap()
}

/// The error of a result that must fail (without printing 5,000 tasks when it does not).
fn expect_err<T>(r: Result<T, ImportError>) -> ImportError {
    match r {
        Ok(_) => panic!("expected an error"),
        Err(e) => e,
    }
}

fn xz(data: &[u8]) -> Vec<u8> {
    let mut w =
        lzma_rust2::XzWriter::new(Vec::new(), lzma_rust2::XzOptions::with_preset(1)).unwrap();
    w.write_all(data).unwrap();
    w.finish().unwrap()
}

#[test]
fn round_trip_with_unknown_fields_of_every_type() {
    let tasks = all();
    let bytes = collection(&tasks, |w, t| {
        write_task(
            w,
            t,
            &Opts {
                extras: true,
                skip_tier: false,
            },
        )
    });
    let imported = import_phyre_thrift(&bytes).unwrap();
    assert_eq!(TaskSet::from_tasks(imported).unwrap(), *TaskSet::builtin());
}

#[test]
fn tasks_of_other_templates_are_read_and_dropped() {
    let mut tasks = all();
    let mut w = W::default();
    w.field(LIST, 1).list(STRUCT, tasks.len() + 1);
    // A task of template 00200 with another relation and tier: skipped, not validated.
    let t = tasks.remove(0);
    w.field(STRING, 1).string("00200:000");
    w.field(LIST, 5).list(I32, 1);
    w.i32(7);
    w.field(STRUCT, 2).field(LIST, 1).list(STRUCT, 0);
    w.stop();
    w.field(I32, 3).i32(0);
    w.field(I32, 4).i32(0);
    w.field(STRING, 9).string("GENERAL");
    w.stop();
    plain(&mut w, t);
    for t in tasks {
        plain(&mut w, t);
    }
    w.stop();
    assert_eq!(import_phyre_thrift(&w.0).unwrap().len(), 5000);
}

#[test]
fn template_size_duplicates_and_checksums_are_verified() {
    let tasks = all();
    // One task short.
    let e = expect_err(import_phyre_thrift(&collection(&tasks[1..], plain)));
    assert_eq!(
        e,
        ImportError::TemplateSize {
            template: 0,
            tasks: 99
        }
    );
    // A duplicate.
    let mut dup = tasks.clone();
    dup.push(tasks[0]);
    let e = expect_err(import_phyre_thrift(&collection(&dup, plain)));
    assert_eq!(e, ImportError::DuplicateTask(tasks[0].id()));
    // A renumbered task: 100 tasks, but the ids no longer hash to checksum.json.
    let first7 = tasks
        .iter()
        .find(|t| t.id().template() == 7)
        .unwrap()
        .id()
        .to_string();
    let free = (0..1000)
        .map(|i| format!("00007:{i:03}"))
        .find(|s| TaskSet::builtin().lookup(s).is_err())
        .unwrap();
    let e = expect_err(import_phyre_thrift(&collection(&tasks, |w, t| {
        if t.id().to_string() == first7 {
            let mut buf = W::default();
            plain(&mut buf, t);
            let at = buf
                .0
                .windows(9)
                .position(|x| x == first7.as_bytes())
                .unwrap();
            buf.0[at..at + 9].copy_from_slice(free.as_bytes());
            w.0.extend(buf.0);
        } else {
            plain(w, t);
        }
    })));
    assert!(
        matches!(e, ImportError::ChecksumMismatch { template: 7, .. }),
        "{e}"
    );
}

/// Import a one-task collection whose task bytes were changed by `edit`.
fn import_one(t: &Task, edit: impl Fn(&mut W, &Task)) -> ImportError {
    let bytes = collection(&[t], edit);
    expect_err(import_phyre_thrift(&bytes))
}

#[test]
fn schema_violations_are_specific_errors() {
    let t = one("00000:000");
    // A single valid task passes conversion and fails only the template count.
    assert!(matches!(
        import_one(t, plain),
        ImportError::TemplateSize { .. }
    ));
    let e = import_one(t, |w, t| {
        write_task(
            w,
            t,
            &Opts {
                extras: false,
                skip_tier: true,
            },
        )
    });
    assert!(
        matches!(
            e,
            ImportError::MissingField {
                what: "Task.tier",
                ..
            }
        ),
        "{e}"
    );
    // Replace a byte pattern of the plain encoding.
    let patched = |from: &[u8], to: &[u8]| {
        let (from, to) = (from.to_vec(), to.to_vec());
        move |w: &mut W, t: &Task| {
            let mut buf = W::default();
            plain(&mut buf, t);
            let at = buf
                .0
                .windows(from.len())
                .position(|x| x == &from[..])
                .unwrap_or_else(|| panic!("pattern {from:?} not found"));
            buf.0.splice(at..at + from.len(), to.iter().copied());
            w.0.extend(buf.0);
        }
    };
    let tier = |s: &str| {
        let mut v = vec![STRING, 0, 9];
        v.extend((s.len() as i32).to_be_bytes());
        v.extend(s.as_bytes());
        v
    };
    let e = import_one(t, patched(&tier("BALL"), &tier("TWO_BALLS")));
    assert!(
        matches!(e, ImportError::BadValue { .. }) && e.to_string().contains("tier"),
        "{e}"
    );
    let e = import_one(t, patched(&tier("BALL"), &tier("SPHERE")));
    assert!(e.to_string().contains("unknown tier"), "{e}");
    // Relationship NOT TOUCHING (7).
    let e = import_one(
        t,
        patched(
            &[LIST, 0, 5, I32, 0, 0, 0, 1, 0, 0, 0, 6],
            &[LIST, 0, 5, I32, 0, 0, 0, 1, 0, 0, 0, 7],
        ),
    );
    assert!(e.to_string().contains("relationships"), "{e}");
    // Goal body 2 = 77 (no such body).
    let e = import_one(
        t,
        patched(&[I32, 0, 4, 0, 0, 0, 5], &[I32, 0, 4, 0, 0, 0, 77]),
    );
    assert!(
        matches!(
            e,
            ImportError::Task {
                error: TaskError::GoalBodyMissing { body: 77, .. },
                ..
            }
        ),
        "{e}"
    );
    // Negative body id.
    let e = import_one(
        t,
        patched(
            &[I32, 0, 3, 0, 0, 0, 4],
            &[I32, 0, 3, 0xff, 0xff, 0xff, 0xff],
        ),
    );
    assert!(e.to_string().contains("negative body id"), "{e}");
    // Goal body 1 (green, colour 2) claimed blue.
    let e = import_one(
        t,
        patched(&[I32, 0, 5, 0, 0, 0, 2], &[I32, 0, 5, 0, 0, 0, 3]),
    );
    assert!(e.to_string().contains("colour"), "{e}");
    // Body type 3, shape type 9.
    let e = import_one(
        t,
        patched(&[I32, 0, 2, 0, 0, 0, 2], &[I32, 0, 2, 0, 0, 0, 3]),
    );
    assert!(e.to_string().contains("bodyType"), "{e}");
    let e = import_one(
        t,
        patched(&[I32, 0, 6, 0, 0, 0, 1], &[I32, 0, 6, 0, 0, 0, 9]),
    );
    assert!(e.to_string().contains("shapeType"), "{e}");
    // A NaN position and an infinite radius.
    let x = t.bodies()[4].position.x.to_f64().to_bits().to_be_bytes();
    let e = import_one(t, patched(&x, &f64::NAN.to_bits().to_be_bytes()));
    assert!(
        matches!(e, ImportError::BadValue { .. }) && e.to_string().contains("NaN"),
        "{e}"
    );
    let r = 7.5f64.to_bits().to_be_bytes();
    let e = import_one(t, patched(&r, &f64::INFINITY.to_bits().to_be_bytes()));
    assert!(e.to_string().contains("circle radius"), "{e}");
    // Negative radius: a model error.
    let e = import_one(t, patched(&r, &(-7.5f64).to_bits().to_be_bytes()));
    assert!(
        matches!(
            e,
            ImportError::Task {
                error: TaskError::BadRadius { .. },
                ..
            }
        ),
        "{e}"
    );
    // Scene width 255.
    let e = import_one(
        t,
        patched(&[I32, 0, 3, 0, 0, 1, 0], &[I32, 0, 3, 0, 0, 0, 255]),
    );
    assert!(e.to_string().contains("scene size"), "{e}");
    // A malformed task id.
    let e = import_one(t, patched(b"00000:000", b"0000::000"));
    assert!(matches!(e, ImportError::BadTaskId(_)), "{e}");
    // A string that is not UTF-8 (the description).
    let e = import_one(t, patched(b"Make", &[0xff, 0xfe, 0xfd, 0xfc]));
    assert!(
        matches!(e, ImportError::Thrift(ref x) if x.kind == ThriftErrorKind::NotUtf8),
        "{e}"
    );
    // The shapes list holding i32s instead of structs.
    let e = import_one(t, patched(&[LIST, 0, 4, STRUCT], &[LIST, 0, 4, I32]));
    assert!(
        matches!(e, ImportError::Thrift(ref x) if matches!(x.kind, ThriftErrorKind::UnexpectedElementType { .. })),
        "{e}"
    );
}

#[test]
fn malformed_thrift_is_an_error_before_any_allocation() {
    // A task list claiming 2^31 − 1 elements.
    let bytes = [LIST, 0, 1, STRUCT, 0x7f, 0xff, 0xff, 0xff, STOP];
    let e = import_phyre_thrift(&bytes).unwrap_err();
    assert!(
        matches!(e, ImportError::Thrift(ref x) if matches!(x.kind, ThriftErrorKind::LengthTooLarge { .. })),
        "{e}"
    );
    // No task list at all, an empty collection, trailing bytes, garbage.
    assert!(matches!(
        import_phyre_thrift(&[STOP]),
        Err(ImportError::MissingField {
            what: "TaskCollection.tasks",
            ..
        })
    ));
    assert_eq!(
        import_phyre_thrift(&[LIST, 0, 1, STRUCT, 0, 0, 0, 0, STOP]),
        Err(ImportError::TemplateSize {
            template: 0,
            tasks: 0
        })
    );
    assert_eq!(
        import_phyre_thrift(&[LIST, 0, 1, STRUCT, 0, 0, 0, 0, STOP, 0]),
        Err(ImportError::TrailingBytes { offset: 9 })
    );
    assert!(matches!(
        import_phyre_thrift(b"task_id,tier,kind"),
        Err(ImportError::Thrift(_))
    ));
    assert!(matches!(
        import_phyre_thrift(&[]),
        Err(ImportError::Thrift(_))
    ));
    // Every truncation of a one-task collection fails cleanly.
    let bytes = collection(&[one("00005:006")], |w, t| {
        write_task(
            w,
            t,
            &Opts {
                extras: true,
                skip_tier: false,
            },
        )
    });
    for len in 0..bytes.len() {
        assert!(
            import_phyre_thrift(&bytes[..len]).is_err(),
            "truncated to {len}"
        );
    }
    // Every single-byte corruption of it fails cleanly or imports (it has one task, so
    // importing fails on the template count at the latest) — the point is: no panic.
    for i in 0..bytes.len() {
        let mut b = bytes.clone();
        b[i] ^= 0xff;
        assert!(import_phyre_thrift(&b).is_err());
    }
}

#[test]
fn xz_container_errors() {
    let payload = collection(&[one("00000:000")], plain);
    let good = xz(&payload);
    assert_eq!(decompress_xz(&good, 1 << 20).unwrap(), payload);
    // Through the whole importer: a valid container around a one-task collection.
    assert!(matches!(
        import_phyre(&good),
        Err(ImportError::TemplateSize { .. })
    ));
    // Foreign files.
    for foreign in [
        &b""[..],
        b"task_id,tier\n00000:000,ball",
        &[0u8; 64],
        &payload,
    ] {
        assert!(matches!(import_phyre(foreign), Err(ImportError::Xz(_))));
    }
    // A valid xz around something that is not Thrift.
    let e = import_phyre(&xz(b"hello, world")).unwrap_err();
    assert!(matches!(e, ImportError::Thrift(_)), "{e}");
    // Every truncation.
    for len in 0..good.len() {
        assert!(import_phyre(&good[..len]).is_err(), "truncated to {len}");
    }
    // Every bit flip: caught by the xz checks (CRC32 of headers, CRC64 of data), or by the
    // decoder, or later by the Thrift reader or the checksums; never a panic, never success.
    for i in 0..good.len() {
        for bit in 0..8 {
            let mut b = good.clone();
            b[i] ^= 1 << bit;
            assert!(import_phyre(&b).is_err(), "flip byte {i} bit {bit}");
        }
    }
    // A decompression bomb is cut off at the limit.
    let zeros = xz(&vec![0u8; 4 << 20]);
    assert!(zeros.len() < 4096);
    assert_eq!(
        decompress_xz(&zeros, 1 << 20),
        Err(ImportError::TooLarge { limit: 1 << 20 })
    );
    assert_eq!(decompress_xz(&zeros, 4 << 20).map(|v| v.len()), Ok(4 << 20));
}

#[test]
fn the_original_file_imports_and_its_corruptions_do_not() {
    // The original's file, committed unchanged (see ../data/NOTICE).
    let bytes =
        std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/tasks.bin.lzma"))
            .expect("tests/data/tasks.bin.lzma is committed");
    let n = bytes.len();
    for len in [0, 1, 11, 12, 100, n / 2, n - 13, n - 1] {
        assert!(import_phyre(&bytes[..len]).is_err(), "truncated to {len}");
    }
    for (i, bit) in [(0, 0), (7, 3), (30, 1), (n / 3, 5), (n - 20, 2), (n - 2, 6)] {
        let mut b = bytes.clone();
        b[i] ^= 1 << bit;
        assert!(import_phyre(&b).is_err(), "flip byte {i} bit {bit}");
    }
}
