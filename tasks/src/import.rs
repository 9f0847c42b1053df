//! Importer of the original compiled task file, `tasks.bin.lzma` of `phyre==0.2.2` (SPEC §6):
//! an xz container around a Thrift TBinaryProtocol `TaskCollection { 1: list<Task> }`.
//!
//! Only the 5,000 tasks of PHYRE-B (templates 00000–00024) and PHYRE-2B (00100–00124) are kept;
//! the other tasks of the file are read (to find where the next one starts) and dropped. Each
//! kept template must hold exactly 100 tasks whose sorted ids hash to the md5 in
//! `checksum.json` (a copy ships in `data/checksum.json`).
//!
//! Fields of the file that rephyre does not use (the phantom shape, the user-input fields of
//! the scene) are skipped, as is every field the schema above does not name.
//!
//! Floats are read here and converted to Q32.32 once ([`Fixed::from_f64`], nearest value):
//! this is the boundary where the original's doubles enter rephyre.

use std::collections::BTreeMap;
use std::io::Read;

use engine::Vec2;
use engine::{BodyKind, Fixed};

use crate::checksum::{template_checksum, Checksums};
use crate::id::TaskId;
use crate::load::{read_file_capped, LoadError};
use crate::model::{Colour, Part, Relation, SceneBody, ShapeType, Task, TaskGoal, Tier};
use crate::thrift::{ty, Reader};
use std::sync::Arc;

pub use crate::import_error::{ImportError, XzError, TASKS_PER_TEMPLATE};

/// Largest decompressed size accepted (the original is 16.3 MB).
pub const MAX_DECOMPRESSED: usize = 64 << 20;
/// Memory the xz decoder may use (the original needs 9 MiB for its 8 MiB dictionary; 80 MiB
/// admits even `xz -9`'s 64 MiB dictionary, and refuses headers asking for more up front).
const XZ_MEM_LIMIT_KIB: u32 = 80 << 10;
/// PHYRE's code for the TOUCHING relation.
const TOUCHING: i32 = 6;

/// The templates kept: PHYRE-B then PHYRE-2B.
pub fn phyre_templates() -> impl Iterator<Item = u32> {
    (0..25).chain(100..125)
}

/// Import the original file's bytes: decompress, decode, keep the B/2B tasks, validate them,
/// verify the per-template checksums. Tasks come back sorted by id.
pub fn import_phyre(xz_bytes: &[u8]) -> Result<Vec<Task>, ImportError> {
    let raw = decompress_xz(xz_bytes, MAX_DECOMPRESSED)?;
    import_phyre_thrift(&raw)
}

/// Import already-decompressed Thrift bytes (the contents of the xz container), with the
/// shipped checksums; see [`import_phyre`].
pub fn import_phyre_thrift(data: &[u8]) -> Result<Vec<Task>, ImportError> {
    import_thrift(data, &Checksums::builtin())
}

/// Import from a file path (see [`import_phyre`]).
pub fn import_phyre_file(path: &std::path::Path) -> Result<Vec<Task>, LoadError> {
    let bytes = read_file_capped(path, MAX_DECOMPRESSED)?;
    Ok(import_phyre(&bytes)?)
}

/// Decompress an xz stream, refusing to produce more than `limit` bytes.
///
/// The decoder streams (it does not buffer whole blocks), its dictionary allocation is capped,
/// and the output is read through a `take(limit + 1)`, so a decompression bomb costs at most
/// `limit` bytes. The xz integrity checks (CRC32/CRC64/SHA-256) are verified by the decoder.
pub fn decompress_xz(bytes: &[u8], limit: usize) -> Result<Vec<u8>, ImportError> {
    // The decoder is a third-party crate: a panic inside it on hostile input would be a bug
    // there, but it must still reach the caller as an error, not unwind through them.
    let result = std::panic::catch_unwind(|| {
        let reader = lzma_rust2::XzReader::new_mem_limit(bytes, false, XZ_MEM_LIMIT_KIB);
        let mut out = Vec::new();
        let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
        reader.take(cap).read_to_end(&mut out).map(|_| out)
    });
    match result {
        Ok(Ok(out)) if out.len() > limit => Err(ImportError::TooLarge { limit }),
        Ok(Ok(out)) => Ok(out),
        Ok(Err(e)) => Err(ImportError::Xz(XzError(Arc::new(e)))),
        Err(_) => Err(ImportError::Xz(XzError(Arc::new(std::io::Error::other(
            "the xz decoder failed on this input",
        ))))),
    }
}

/// A task as the file holds it (only the fields rephyre reads).
struct RawTask {
    id: String,
    bodies: Vec<RawBody>,
    width: Option<i32>,
    height: Option<i32>,
    body1: i32,
    body2: i32,
    relationships: Vec<i32>,
    description: String,
    tier: String,
}

struct RawBody {
    position: (f64, f64),
    body_type: i32,
    angle: f64,
    shapes: Vec<RawShape>,
    color: i32,
    shape_type: i32,
    diameter: f64,
}

enum RawShape {
    Polygon(Vec<(f64, f64)>),
    Circle(f64),
}

fn missing(r: &Reader, what: &'static str) -> ImportError {
    ImportError::MissingField {
        what,
        offset: r.offset(),
    }
}

/// Decode the Thrift `TaskCollection` and keep the B/2B tasks.
pub(crate) fn import_thrift(data: &[u8], checksums: &Checksums) -> Result<Vec<Task>, ImportError> {
    let mut r = Reader::new(data);
    let mut tasks: BTreeMap<TaskId, Task> = BTreeMap::new();
    let mut seen_list = false;
    while let Some((t, id)) = r.field()? {
        if (t, id) == (ty::LIST, 1) {
            seen_list = true;
            let n = r.list_of(ty::STRUCT)?;
            for _ in 0..n {
                let raw = read_task(&mut r)?;
                let tid: TaskId = raw.id.parse().map_err(ImportError::BadTaskId)?;
                if !phyre_templates().any(|t| t == tid.template()) {
                    continue;
                }
                let task = convert_task(tid, raw)?;
                if tasks.insert(tid, task).is_some() {
                    return Err(ImportError::DuplicateTask(tid));
                }
            }
        } else {
            r.skip(t, 1)?;
        }
    }
    if !seen_list {
        return Err(missing(&r, "TaskCollection.tasks"));
    }
    if r.remaining() != 0 {
        return Err(ImportError::TrailingBytes { offset: r.offset() });
    }
    let tasks: Vec<Task> = tasks.into_values().collect();
    verify_templates(&tasks, checksums)?;
    Ok(tasks)
}

/// Every kept template has 100 tasks whose ids match `checksum.json`.
pub(crate) fn verify_templates(tasks: &[Task], checksums: &Checksums) -> Result<(), ImportError> {
    for template in phyre_templates() {
        let ids: Vec<TaskId> = tasks
            .iter()
            .map(Task::id)
            .filter(|id| id.template() == template)
            .collect();
        if ids.len() != TASKS_PER_TEMPLATE {
            return Err(ImportError::TemplateSize {
                template,
                tasks: ids.len(),
            });
        }
        let expected = checksums
            .get(template)
            .ok_or(ImportError::NoChecksum { template })?;
        let found = template_checksum(&ids);
        if found != expected {
            return Err(ImportError::ChecksumMismatch {
                template,
                expected: expected.to_string(),
                found,
            });
        }
    }
    Ok(())
}

fn read_task(r: &mut Reader) -> Result<RawTask, ImportError> {
    let (mut id, mut scene, mut body1, mut body2, mut rel, mut desc, mut tier) =
        (None, None, None, None, None, None, None);
    while let Some((t, fid)) = r.field()? {
        match (t, fid) {
            (ty::STRING, 1) => id = Some(r.string()?.to_owned()),
            (ty::STRUCT, 2) => scene = Some(read_scene(r)?),
            (ty::I32, 3) => body1 = Some(r.i32()?),
            (ty::I32, 4) => body2 = Some(r.i32()?),
            (ty::LIST, 5) => {
                let n = r.list_of(ty::I32)?;
                let mut v = Vec::with_capacity(n);
                for _ in 0..n {
                    v.push(r.i32()?);
                }
                rel = Some(v);
            }
            (ty::STRING, 6) => desc = Some(r.string()?.to_owned()),
            (ty::STRING, 9) => tier = Some(r.string()?.to_owned()),
            // 8 phantomShape and anything unknown (or of an unexpected type, as Thrift does).
            _ => r.skip(t, 2)?,
        }
    }
    let (bodies, width, height) = scene.ok_or_else(|| missing(r, "Task.scene"))?;
    Ok(RawTask {
        id: id.ok_or_else(|| missing(r, "Task.taskId"))?,
        bodies,
        width,
        height,
        body1: body1.ok_or_else(|| missing(r, "Task.bodyId1"))?,
        body2: body2.ok_or_else(|| missing(r, "Task.bodyId2"))?,
        relationships: rel.ok_or_else(|| missing(r, "Task.relationships"))?,
        description: desc.unwrap_or_default(),
        tier: tier.ok_or_else(|| missing(r, "Task.tier"))?,
    })
}

type RawScene = (Vec<RawBody>, Option<i32>, Option<i32>);

fn read_scene(r: &mut Reader) -> Result<RawScene, ImportError> {
    let (mut bodies, mut width, mut height) = (None, None, None);
    while let Some((t, fid)) = r.field()? {
        match (t, fid) {
            (ty::LIST, 1) => {
                let n = r.list_of(ty::STRUCT)?;
                let mut v = Vec::with_capacity(n);
                for _ in 0..n {
                    v.push(read_body(r)?);
                }
                bodies = Some(v);
            }
            (ty::I32, 3) => width = Some(r.i32()?),
            (ty::I32, 4) => height = Some(r.i32()?),
            _ => r.skip(t, 3)?,
        }
    }
    Ok((
        bodies.ok_or_else(|| missing(r, "Scene.bodies"))?,
        width,
        height,
    ))
}

fn read_vector(r: &mut Reader) -> Result<(f64, f64), ImportError> {
    let (mut x, mut y) = (None, None);
    while let Some((t, fid)) = r.field()? {
        match (t, fid) {
            (ty::DOUBLE, 1) => x = Some(r.f64()?),
            (ty::DOUBLE, 2) => y = Some(r.f64()?),
            _ => r.skip(t, 8)?,
        }
    }
    // Thrift omits optional doubles left at their default; PHYRE's Vector fields are
    // required, so a missing coordinate is an error rather than a silent zero.
    Ok((
        x.ok_or_else(|| missing(r, "Vector.x"))?,
        y.ok_or_else(|| missing(r, "Vector.y"))?,
    ))
}

fn read_body(r: &mut Reader) -> Result<RawBody, ImportError> {
    let (mut pos, mut bt, mut angle, mut shapes, mut color, mut st, mut diam) =
        (None, None, None, None, None, None, None);
    while let Some((t, fid)) = r.field()? {
        match (t, fid) {
            (ty::STRUCT, 1) => pos = Some(read_vector(r)?),
            (ty::I32, 2) => bt = Some(r.i32()?),
            (ty::DOUBLE, 3) => angle = Some(r.f64()?),
            (ty::LIST, 4) => {
                let n = r.list_of(ty::STRUCT)?;
                let mut v = Vec::with_capacity(n);
                for _ in 0..n {
                    v.push(read_shape(r)?);
                }
                shapes = Some(v);
            }
            (ty::I32, 5) => color = Some(r.i32()?),
            (ty::I32, 6) => st = Some(r.i32()?),
            (ty::DOUBLE, 7) => diam = Some(r.f64()?),
            _ => r.skip(t, 4)?,
        }
    }
    Ok(RawBody {
        position: pos.ok_or_else(|| missing(r, "Body.position"))?,
        body_type: bt.ok_or_else(|| missing(r, "Body.bodyType"))?,
        angle: angle.ok_or_else(|| missing(r, "Body.angle"))?,
        shapes: shapes.ok_or_else(|| missing(r, "Body.shapes"))?,
        color: color.ok_or_else(|| missing(r, "Body.color"))?,
        shape_type: st.ok_or_else(|| missing(r, "Body.shapeType"))?,
        diameter: diam.ok_or_else(|| missing(r, "Body.diameter"))?,
    })
}

fn read_shape(r: &mut Reader) -> Result<RawShape, ImportError> {
    let mut shape = None;
    while let Some((t, fid)) = r.field()? {
        match (t, fid) {
            (ty::STRUCT, 1) => {
                // Polygon { 1: list<Vector> vertices }
                let mut verts = None;
                while let Some((t2, f2)) = r.field()? {
                    if (t2, f2) == (ty::LIST, 1) {
                        let n = r.list_of(ty::STRUCT)?;
                        let mut v = Vec::with_capacity(n);
                        for _ in 0..n {
                            v.push(read_vector(r)?);
                        }
                        verts = Some(v);
                    } else {
                        r.skip(t2, 6)?;
                    }
                }
                shape = Some(RawShape::Polygon(
                    verts.ok_or_else(|| missing(r, "Polygon.vertices"))?,
                ));
            }
            (ty::STRUCT, 2) => {
                // Circle { 1: double radius }
                let mut radius = None;
                while let Some((t2, f2)) = r.field()? {
                    if (t2, f2) == (ty::DOUBLE, 1) {
                        radius = Some(r.f64()?);
                    } else {
                        r.skip(t2, 6)?;
                    }
                }
                shape = Some(RawShape::Circle(
                    radius.ok_or_else(|| missing(r, "Circle.radius"))?,
                ));
            }
            _ => r.skip(t, 5)?,
        }
    }
    shape.ok_or_else(|| missing(r, "Shape.polygon or Shape.circle"))
}

/// The boundary conversion of one file double (px or rad) to Q32.32.
fn fixed(task: TaskId, what: &str, v: f64) -> Result<Fixed, ImportError> {
    Fixed::from_f64(v).map_err(|e| ImportError::BadValue {
        task: task.to_string(),
        what: format!("{what}: {e}"),
    })
}

fn point(task: TaskId, what: &str, (x, y): (f64, f64)) -> Result<Vec2, ImportError> {
    Ok(Vec2::new(fixed(task, what, x)?, fixed(task, what, y)?))
}

fn convert_task(id: TaskId, raw: RawTask) -> Result<Task, ImportError> {
    let bad = |what: String| ImportError::BadValue {
        task: id.to_string(),
        what,
    };
    let tier = Tier::parse(&raw.tier).ok_or_else(|| bad(format!("unknown tier {:?}", raw.tier)))?;
    // PHYRE-B tasks are ball tasks and PHYRE-2B tasks two-ball tasks: anything else means
    // this is not the file we think it is.
    let expected_tier = Tier::of_phyre_id(id);
    if tier != expected_tier {
        return Err(bad(format!(
            "tier {tier} in a template of tier {expected_tier}"
        )));
    }
    if raw.relationships != [TOUCHING] {
        return Err(bad(format!(
            "relationships {:?} (only TOUCHING = {TOUCHING} is supported)",
            raw.relationships
        )));
    }
    if raw.width != Some(256) || raw.height != Some(256) {
        return Err(bad(format!(
            "scene size {:?} × {:?} (expected 256 × 256)",
            raw.width, raw.height
        )));
    }
    let index = |v: i32| usize::try_from(v).map_err(|_| bad(format!("negative body id {v}")));
    let goal = TaskGoal {
        body1: index(raw.body1)?,
        relation: Relation::Touching,
        body2: index(raw.body2)?,
    };
    let mut bodies = Vec::with_capacity(raw.bodies.len());
    for (i, b) in raw.bodies.iter().enumerate() {
        let kind = match b.body_type {
            1 => BodyKind::Static,
            2 => BodyKind::Dynamic,
            other => return Err(bad(format!("body {i}: unknown bodyType {other}"))),
        };
        let shape_type = ShapeType::from_code(i64::from(b.shape_type))
            .ok_or_else(|| bad(format!("body {i}: unknown shapeType {}", b.shape_type)))?;
        let mut parts = Vec::with_capacity(b.shapes.len());
        for s in &b.shapes {
            parts.push(match s {
                RawShape::Circle(r) => Part::Circle {
                    center: Vec2::ZERO,
                    radius: fixed(id, "circle radius", *r)?,
                },
                RawShape::Polygon(vs) => Part::Polygon {
                    vertices: vs
                        .iter()
                        .map(|&v| point(id, "polygon vertex", v))
                        .collect::<Result<_, _>>()?,
                },
            });
        }
        bodies.push(SceneBody {
            kind,
            shape_type,
            position: point(id, "body position", b.position)?,
            angle: fixed(id, "body angle", b.angle)?,
            diameter: fixed(id, "body diameter", b.diameter)?,
            parts,
        });
    }
    let task = Task::new(id, tier, raw.description, bodies, goal)
        .map_err(|error| ImportError::Task { task: id, error })?;
    // The file's colours must be the ones the roles give (walls excepted: the file calls them
    // black, rephyre does not draw them). A mismatch means a corrupted or foreign file.
    for (i, b) in raw.bodies.iter().enumerate() {
        let role = task.colour(i);
        if role != Colour::Background && i64::from(b.color) != i64::from(role.code()) {
            return Err(bad(format!(
                "body {i}: colour {} but its role gives {}",
                b.color,
                role.code()
            )));
        }
    }
    Ok(task)
}
