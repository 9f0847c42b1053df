//! The importer of the original task file: round trips through Apache Thrift's own binary
//! protocol writer (an implementation independent of ours, as the original's file was written),
//! unknown fields of every type, and every kind of malformed input (truncated, bit-flipped,
//! foreign, oversized, schema violations) — each an error, never a panic.
#![allow(clippy::float_arithmetic)]

use std::io::Write;
use std::path::PathBuf;

use engine::{BodyKind, Fixed};
use tasks::import::{decompress_xz, import_phyre, import_phyre_thrift};
use tasks::{ImportError, Part, Task, TaskError, TaskSet, ThriftErrorKind, Tier};
use thrift::protocol::{
    TBinaryOutputProtocol, TFieldIdentifier, TListIdentifier, TMapIdentifier, TOutputProtocol,
    TSetIdentifier, TType,
};

/// A task file being written: Thrift's binary protocol (as the original used) into memory. Its
/// calls cannot fail (the transport is a `Vec`), hence the unwraps.
struct W(TBinaryOutputProtocol<Vec<u8>>);

impl Default for W {
    fn default() -> W {
        W(TBinaryOutputProtocol::new(Vec::new(), true))
    }
}

impl W {
    /// The bytes written so far.
    fn bytes(&mut self) -> &mut Vec<u8> {
        &mut self.0.transport
    }
    fn field(&mut self, t: TType, id: i16) -> &mut W {
        let field = TFieldIdentifier {
            name: None,
            field_type: t,
            id: Some(id),
        };
        self.0.write_field_begin(&field).unwrap();
        self
    }
    fn stop(&mut self) {
        self.0.write_field_stop().unwrap();
    }
    fn i32(&mut self, v: i32) {
        self.0.write_i32(v).unwrap();
    }
    fn f64(&mut self, v: f64) {
        self.0.write_double(v).unwrap();
    }
    fn string(&mut self, s: &str) {
        self.0.write_string(s).unwrap();
    }
    fn list(&mut self, element: TType, n: usize) {
        let n = i32::try_from(n).unwrap();
        self.0
            .write_list_begin(&TListIdentifier::new(element, n))
            .unwrap();
    }
    fn vector(&mut self, x: Fixed, y: Fixed, extras: bool) {
        self.field(TType::Double, 1).f64(x.to_f64());
        if extras {
            self.field(TType::I64, 3).0.write_i64(7).unwrap();
        }
        self.field(TType::Double, 2).f64(y.to_f64());
        self.stop();
    }
    /// A task's relationships (field 5): the one relationship `code`.
    fn relationships(&mut self, code: i32) {
        self.field(TType::List, 5).list(TType::I32, 1);
        self.i32(code);
    }
    /// Unknown fields of every type, nested.
    fn junk(&mut self, first_id: i16) {
        self.field(TType::Bool, first_id)
            .0
            .write_bool(true)
            .unwrap();
        self.field(TType::I08, first_id + 1).0.write_i8(-1).unwrap();
        self.field(TType::I16, first_id + 2).0.write_i16(3).unwrap();
        self.field(TType::Map, first_id + 3);
        let map = TMapIdentifier::new(TType::String, TType::List, 2);
        self.0.write_map_begin(&map).unwrap();
        for k in ["a", "b"] {
            self.string(k);
            self.list(TType::I32, 2);
            self.i32(1);
            self.i32(2);
        }
        self.field(TType::Set, first_id + 4);
        let set = TSetIdentifier::new(TType::Double, 1);
        self.0.write_set_begin(&set).unwrap();
        self.f64(0.5);
        self.field(TType::Struct, first_id + 5);
        self.field(TType::List, 1);
        self.list(TType::Struct, 1);
        self.field(TType::String, 1).string("nested");
        self.stop();
        self.stop();
    }
}

/// The bytes `write` writes alone.
fn encoded(write: impl FnOnce(&mut W)) -> Vec<u8> {
    let mut w = W::default();
    write(&mut w);
    std::mem::take(w.bytes())
}

/// The encoding of i32 field `id` holding `v`.
fn i32_field(id: i16, v: i32) -> Vec<u8> {
    encoded(|w| w.field(TType::I32, id).i32(v))
}

/// The encoding of a task's relationships (field 5), the one relationship `code`.
fn relationships(code: i32) -> Vec<u8> {
    encoded(|w| w.relationships(code))
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
    w.field(TType::String, 1).string(&t.id().to_string());
    if o.extras {
        w.junk(40);
    }
    w.field(TType::Struct, 2);
    {
        w.field(TType::List, 1)
            .list(TType::Struct, t.bodies().len());
        for (i, b) in t.bodies().iter().enumerate() {
            w.field(TType::Struct, 1)
                .vector(b.position.x, b.position.y, o.extras);
            w.field(TType::I32, 2)
                .i32(if b.kind == BodyKind::Static { 1 } else { 2 });
            w.field(TType::Double, 3).f64(b.angle.to_f64());
            if o.extras {
                w.junk(60);
            }
            w.field(TType::List, 4).list(TType::Struct, b.parts.len());
            for p in &b.parts {
                match p {
                    Part::Circle { radius, .. } => {
                        w.field(TType::Struct, 2)
                            .field(TType::Double, 1)
                            .f64(radius.to_f64());
                        w.stop();
                    }
                    Part::Polygon { vertices } => {
                        w.field(TType::Struct, 1)
                            .field(TType::List, 1)
                            .list(TType::Struct, vertices.len());
                        for v in vertices {
                            w.vector(v.x, v.y, o.extras);
                        }
                        w.stop();
                    }
                }
                w.stop();
            }
            w.field(TType::I32, 5).i32(file_colour(t, i));
            w.field(TType::I32, 6).i32(i32::from(b.shape_type.code()));
            w.field(TType::Double, 7).f64(b.diameter.to_f64());
            w.stop();
        }
        w.field(TType::I32, 3).i32(256);
        w.field(TType::I32, 4).i32(256);
        w.field(TType::I32, 5).i32(0);
        w.stop();
    }
    w.field(TType::I32, 3).i32(t.goal().body1 as i32);
    w.field(TType::I32, 4).i32(t.goal().body2 as i32);
    w.relationships(6);
    w.field(TType::String, 6).string(t.description());
    if o.extras {
        // The phantom shape the original carries in some tasks (a struct we skip).
        w.field(TType::Struct, 8)
            .field(TType::Struct, 1)
            .field(TType::List, 1)
            .list(TType::Struct, 0);
        w.stop();
        w.stop();
    }
    if !o.skip_tier {
        w.field(TType::String, 9).string(if t.tier() == Tier::Ball {
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
    w.field(TType::List, 1).list(TType::Struct, tasks.len());
    for t in tasks {
        each(&mut w, t);
    }
    w.stop();
    std::mem::take(w.bytes())
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
    w.field(TType::List, 1).list(TType::Struct, tasks.len() + 1);
    // A task of template 00200 with another relation and tier: skipped, not validated.
    let t = tasks.remove(0);
    w.field(TType::String, 1).string("00200:000");
    w.relationships(7);
    w.field(TType::Struct, 2)
        .field(TType::List, 1)
        .list(TType::Struct, 0);
    w.stop();
    w.field(TType::I32, 3).i32(0);
    w.field(TType::I32, 4).i32(0);
    w.field(TType::String, 9).string("GENERAL");
    w.stop();
    plain(&mut w, t);
    for t in tasks {
        plain(&mut w, t);
    }
    w.stop();
    assert_eq!(import_phyre_thrift(w.bytes()).unwrap().len(), 5000);
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
            let mut buf = encoded(|w| plain(w, t));
            let at = buf.windows(9).position(|x| x == first7.as_bytes()).unwrap();
            buf[at..at + 9].copy_from_slice(free.as_bytes());
            w.bytes().extend(buf);
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
            let mut buf = encoded(|w| plain(w, t));
            let at = buf
                .windows(from.len())
                .position(|x| x == &from[..])
                .unwrap_or_else(|| panic!("pattern {from:?} not found"));
            buf.splice(at..at + from.len(), to.iter().copied());
            w.bytes().extend(buf);
        }
    };
    let tier = |s: &str| encoded(|w| w.field(TType::String, 9).string(s));
    let e = import_one(t, patched(&tier("BALL"), &tier("TWO_BALLS")));
    assert!(
        matches!(e, ImportError::BadValue { .. }) && e.to_string().contains("tier"),
        "{e}"
    );
    let e = import_one(t, patched(&tier("BALL"), &tier("SPHERE")));
    assert!(e.to_string().contains("unknown tier"), "{e}");
    // Relationship NOT TOUCHING (7).
    let e = import_one(t, patched(&relationships(6), &relationships(7)));
    assert!(e.to_string().contains("relationships"), "{e}");
    // Goal body 2 = 77 (no such body).
    let e = import_one(t, patched(&i32_field(4, 5), &i32_field(4, 77)));
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
    let e = import_one(t, patched(&i32_field(3, 4), &i32_field(3, -1)));
    assert!(e.to_string().contains("negative body id"), "{e}");
    // Goal body 1 (green, colour 2) claimed blue.
    let e = import_one(t, patched(&i32_field(5, 2), &i32_field(5, 3)));
    assert!(e.to_string().contains("colour"), "{e}");
    // Body type 3, shape type 9.
    let e = import_one(t, patched(&i32_field(2, 2), &i32_field(2, 3)));
    assert!(e.to_string().contains("bodyType"), "{e}");
    let e = import_one(t, patched(&i32_field(6, 1), &i32_field(6, 9)));
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
    let e = import_one(t, patched(&i32_field(3, 256), &i32_field(3, 255)));
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
    let shapes = |element| {
        let parts = t.bodies()[0].parts.len();
        encoded(|w| w.field(TType::List, 4).list(element, parts))
    };
    let e = import_one(t, patched(&shapes(TType::Struct), &shapes(TType::I32)));
    assert!(
        matches!(e, ImportError::Thrift(ref x) if matches!(x.kind, ThriftErrorKind::UnexpectedElementType { .. })),
        "{e}"
    );
}

#[test]
fn malformed_thrift_is_an_error_before_any_allocation() {
    // A task list claiming 2^31 − 1 elements.
    let bytes = encoded(|w| {
        w.field(TType::List, 1)
            .list(TType::Struct, i32::MAX as usize);
        w.stop();
    });
    let e = import_phyre_thrift(&bytes).unwrap_err();
    assert!(
        matches!(e, ImportError::Thrift(ref x) if matches!(x.kind, ThriftErrorKind::LengthTooLarge { .. })),
        "{e}"
    );
    // No task list at all, an empty collection, trailing bytes, garbage.
    assert!(matches!(
        import_phyre_thrift(&encoded(|w| w.stop())),
        Err(ImportError::MissingField {
            what: "TaskCollection.tasks",
            ..
        })
    ));
    assert_eq!(
        import_phyre_thrift(&collection(&[], plain)),
        Err(ImportError::TemplateSize {
            template: 0,
            tasks: 0
        })
    );
    assert_eq!(
        import_phyre_thrift(&[collection(&[], plain), vec![0]].concat()),
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
