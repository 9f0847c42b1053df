//! The Science Birds level XML reader.
//!
//! **Encodings.** UTF-8 (with or without BOM), UTF-16 LE or BE with a BOM, or without one when
//! the file starts with `<` (a NUL byte beside the first byte tells). The declaration's
//! `encoding` is not trusted: the templates and everything the generator and the level editor
//! write say `utf-16` over ASCII bytes (the editor's `XmlWriter` writes to a UTF-16 string, its
//! `StreamWriter` then writes UTF-8), and Unity's loader ignores the label as well. A label
//! that is not UTF-8, UTF-16 or ASCII is refused, since such a file could mean other
//! characters. UTF-16 is decoded with std (`String::from_utf16`): nothing more is needed.
//!
//! **What is accepted** (see [`crate::level`] for the model): the root `Level`, then exactly
//! `Camera`, `Score`, `Birds`, `Slingshot`, `GameObjects` in this order (Unity's loader reads
//! forward with `ReadToFollowing` and needs each); `Bird` in `Birds`; `Block`, `Pig`, `TNT`,
//! `Platform` in `GameObjects`. Required attributes are the ones Unity's loader cannot do
//! without: `Camera@x,y,minWidth,maxWidth`, `Score@highScore`, `Slingshot@x,y`, `Bird@type`,
//! and `type`, `x`, `y` on objects (`material` too on blocks); `rotation`, `scaleX`, `scaleY`,
//! `Level@width` are optional. The generator's quirks are accepted: an empty `type` on `TNT` and
//! on `Platform` (the element says what it is; `TNT` and `Platform` themselves are also taken),
//! an empty `material` on `Pig` and `Platform`. Comments and whitespace are allowed anywhere.
//!
//! **What is refused**, each with one message naming the line: a file over [`MAX_FILE_BYTES`],
//! a DTD (`<!DOCTYPE`, so no entity can be defined, let alone expanded; only XML's five
//! predefined entities and character references are understood, in attribute values), nesting
//! deeper than [`MAX_DEPTH`], an unknown or misplaced element, an unknown or repeated
//! attribute, text, CDATA and processing instructions, a missing element or attribute, an
//! unknown bird, pig or block type or material, a number that is not plain decimal (`NaN`,
//! `Infinity`, hex) or outside its range ([`Quantity`]), more than [`MAX_OBJECTS`] objects or
//! [`MAX_BIRDS`] birds (checked as they are read, so a file of 10^7 objects stops at the
//! 10,001st), and a level without a bird or a pig. Time and memory are linear in the file's
//! size, which is capped.

use crate::catalogue::{BirdKind, BlockShape, Material, PigKind};
use crate::level::{
    Camera, Level, Object, ObjectKind, Point, Quantity, MAX_BIRDS, MAX_OBJECTS, MAX_WIDTH,
};
use crate::number::{short, Decimal};
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;
use std::io::Read;
use std::path::Path;

/// Largest level file: 8 MiB (the templates are under 2 KiB; 10,000 objects of about 100
/// characters, in UTF-16, fit).
pub const MAX_FILE_BYTES: u64 = 8 << 20;
/// Deepest element nesting: the schema's own (`Level` / `GameObjects` / `Block`).
pub const MAX_DEPTH: usize = 3;

/// Why a level file was refused.
#[derive(Debug, thiserror::Error)]
pub enum XmlError {
    // In the message, not chained as a source (which would print it twice).
    #[error("cannot read: {0}")]
    Io(std::io::Error),
    #[error("the file is larger than the {MAX_FILE_BYTES}-byte limit for a level")]
    TooLarge,
    #[error("the file is empty")]
    Empty,
    #[error("UTF-32 is not supported")]
    Utf32,
    #[error("a UTF-16 file of an odd number of bytes")]
    OddUtf16,
    #[error("not valid UTF-16 (an unpaired surrogate)")]
    BadUtf16,
    #[error("not valid UTF-8 (at byte {0})")]
    BadUtf8(u64),
    #[error("line {line}: a NUL character")]
    Nul { line: u64 },
    #[error("line {line}: malformed XML: {message}")]
    Syntax { line: u64, message: String },
    #[error("line {line}: a DTD (<!DOCTYPE …>) is not allowed in a level (no entity definitions)")]
    Dtd { line: u64 },
    #[error("line {line}: the declared encoding \"{label}\" is not supported (UTF-8 or UTF-16)")]
    Encoding { line: u64, label: String },
    #[error("line {line}: elements nested deeper than {MAX_DEPTH}")]
    TooDeep { line: u64 },
    #[error("line {line}: unexpected element <{name}> {place}")]
    UnexpectedElement {
        line: u64,
        name: String,
        place: String,
    },
    #[error("line {line}: unexpected {what} {place}")]
    UnexpectedContent {
        line: u64,
        what: &'static str,
        place: String,
    },
    #[error("line {line}: <{element}> has an unknown attribute \"{name}\"")]
    UnknownAttribute {
        line: u64,
        element: String,
        name: String,
    },
    #[error("line {line}: <{element}> lacks the attribute \"{name}\"")]
    MissingAttribute {
        line: u64,
        element: &'static str,
        name: &'static str,
    },
    #[error("line {line}: <{element} {name}=\"{value}\">: {problem}")]
    BadValue {
        line: u64,
        element: &'static str,
        name: &'static str,
        value: String,
        problem: String,
    },
    #[error("line {line}: <{element}> needs a <{missing}> before <{found}>")]
    OutOfOrder {
        line: u64,
        element: &'static str,
        missing: &'static str,
        found: String,
    },
    #[error("<{element}> lacks <{missing}>")]
    MissingElement {
        element: &'static str,
        missing: &'static str,
    },
    #[error("no <Level> element")]
    NoLevel,
    #[error("line {line}: more than {MAX_OBJECTS} objects")]
    TooManyObjects { line: u64 },
    #[error("line {line}: more than {MAX_BIRDS} birds")]
    TooManyBirds { line: u64 },
    #[error("the level has no birds")]
    NoBirds,
    #[error("the level has no pigs")]
    NoPigs,
}

/// Reads a level file (at most [`MAX_FILE_BYTES`] are read, whatever the file's size).
pub fn read_level_file(path: &Path) -> Result<Level, XmlError> {
    let file = std::fs::File::open(path).map_err(XmlError::Io)?;
    if file.metadata().map_err(XmlError::Io)?.len() > MAX_FILE_BYTES {
        return Err(XmlError::TooLarge);
    }
    let mut bytes = Vec::new();
    // One byte past the cap tells a file that grew after the size check.
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(XmlError::Io)?;
    parse_level(&bytes)
}

/// Parses a level from the bytes of its file.
pub fn parse_level(bytes: &[u8]) -> Result<Level, XmlError> {
    let text = decode(bytes)?;
    Parser::new(&text).run()
}

/// The file's text, from its bytes (module doc: encodings).
fn decode(bytes: &[u8]) -> Result<String, XmlError> {
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(XmlError::TooLarge);
    }
    if bytes.is_empty() {
        return Err(XmlError::Empty);
    }
    let utf16 = |b: &[u8], le: bool| -> Result<String, XmlError> {
        let pairs = b.chunks_exact(2);
        if !pairs.remainder().is_empty() {
            return Err(XmlError::OddUtf16);
        }
        let units: Vec<u16> = pairs
            .map(|c| {
                if le {
                    u16::from_le_bytes([c[0], c[1]])
                } else {
                    u16::from_be_bytes([c[0], c[1]])
                }
            })
            .collect();
        String::from_utf16(&units).map_err(|_| XmlError::BadUtf16)
    };
    match bytes {
        [0xFF, 0xFE, 0, 0, ..] | [0, 0, 0xFE, 0xFF, ..] => Err(XmlError::Utf32),
        [0xEF, 0xBB, 0xBF, rest @ ..] => utf8(rest),
        [0xFF, 0xFE, rest @ ..] => utf16(rest, true),
        [0xFE, 0xFF, rest @ ..] => utf16(rest, false),
        [a, 0, ..] if *a != 0 => utf16(bytes, true),
        [0, b, ..] if *b != 0 => utf16(bytes, false),
        _ => utf8(bytes),
    }
}

fn utf8(b: &[u8]) -> Result<String, XmlError> {
    match std::str::from_utf8(b) {
        Ok(s) => Ok(s.to_owned()),
        Err(e) => Err(XmlError::BadUtf8(e.valid_up_to() as u64)),
    }
}

/// Where the reader is in the schema.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Document,
    Level,
    Birds,
    GameObjects,
    /// Inside a leaf element (Camera, Bird, Block, …): only whitespace and comments may follow.
    Leaf(&'static str),
}

impl Place {
    fn describe(self) -> String {
        match self {
            Place::Document => "outside <Level>".to_owned(),
            Place::Level => "in <Level>".to_owned(),
            Place::Birds => "in <Birds>".to_owned(),
            Place::GameObjects => "in <GameObjects>".to_owned(),
            Place::Leaf(name) => format!("in <{name}>"),
        }
    }
}

/// The parts of `Level` in the order the original reads them.
const LEVEL_PARTS: [&str; 5] = ["Camera", "Score", "Birds", "Slingshot", "GameObjects"];

struct Parser<'a> {
    text: &'a str,
    reader: Reader<&'a [u8]>,
    /// Where the event being handled starts (messages name the line of a tag's `<`).
    event_start: u64,
    /// The last line looked up (offset, line): lookups move forward, so counting from here
    /// keeps the whole file's line counting linear.
    line_cache: std::cell::Cell<(u64, u64)>,
    stack: Vec<Place>,
    seen_level: bool,
    /// How many of `LEVEL_PARTS` have been read.
    parts: usize,
    width: u32,
    camera: Option<Camera>,
    high_score: Option<Decimal>,
    birds: Vec<BirdKind>,
    slingshot: Option<Point>,
    objects: Vec<Object>,
}

/// An element's attributes, checked against the names it may have.
struct Attrs {
    element: &'static str,
    line: u64,
    values: Vec<(&'static str, String)>,
}

impl Attrs {
    fn get(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    fn required(&self, name: &'static str) -> Result<&str, XmlError> {
        self.get(name).ok_or(XmlError::MissingAttribute {
            line: self.line,
            element: self.element,
            name,
        })
    }

    fn bad(&self, name: &'static str, value: &str, problem: impl Into<String>) -> XmlError {
        XmlError::BadValue {
            line: self.line,
            element: self.element,
            name,
            value: short(value),
            problem: problem.into(),
        }
    }

    fn number(&self, name: &'static str, q: Quantity) -> Result<Decimal, XmlError> {
        let text = self.required(name)?;
        self.number_text(name, text, q)
    }

    fn number_or(
        &self,
        name: &'static str,
        default: &str,
        q: Quantity,
    ) -> Result<Decimal, XmlError> {
        let text = self.get(name).unwrap_or(default);
        self.number_text(name, text, q)
    }

    fn number_text(
        &self,
        name: &'static str,
        text: &str,
        q: Quantity,
    ) -> Result<Decimal, XmlError> {
        let d = Decimal::parse(text).map_err(|e| self.bad(name, text, e.to_string()))?;
        q.check(&d).map_err(|p| self.bad(name, text, p))?;
        Ok(d)
    }

    /// A name attribute looked up in one of the catalogue's lists.
    fn named<T>(
        &self,
        name: &'static str,
        what: &str,
        lookup: impl Fn(&str) -> Option<T>,
        known: &[&str],
    ) -> Result<T, XmlError> {
        let v = self.required(name)?;
        lookup(v).ok_or_else(|| {
            self.bad(
                name,
                v,
                format!("unknown {what} (known: {})", known.join(", ")),
            )
        })
    }

    /// An attribute that must be empty or absent, or else one of `allowed`.
    fn empty_or(&self, name: &'static str, allowed: &[&str]) -> Result<(), XmlError> {
        match self.get(name) {
            None | Some("") => Ok(()),
            Some(v) if allowed.contains(&v) => Ok(()),
            Some(v) => Err(self.bad(
                name,
                v,
                if allowed.is_empty() {
                    format!("a <{}> has no {name}; leave it empty", self.element)
                } else {
                    format!("expected \"{}\" or empty", allowed.join("\" or \""))
                },
            )),
        }
    }
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Parser<'a> {
        let mut reader = Reader::from_str(text);
        let cfg = reader.config_mut();
        cfg.check_end_names = true;
        cfg.check_comments = true;
        cfg.expand_empty_elements = false;
        Parser {
            text,
            reader,
            event_start: 0,
            line_cache: std::cell::Cell::new((0, 1)),
            stack: vec![Place::Document],
            seen_level: false,
            parts: 0,
            width: 1,
            camera: None,
            high_score: None,
            birds: Vec::new(),
            slingshot: None,
            objects: Vec::new(),
        }
    }

    /// The 1-based line of a byte offset.
    fn line_at(&self, pos: u64) -> u64 {
        let end = (pos as usize).min(self.text.len());
        let (mut from, mut line) = self.line_cache.get();
        if from as usize > end {
            (from, line) = (0, 1);
        }
        let part = self
            .text
            .as_bytes()
            .get(from as usize..end)
            .unwrap_or_default();
        line += part.iter().filter(|&&b| b == b'\n').count() as u64;
        self.line_cache.set((end as u64, line));
        line
    }

    fn line(&self) -> u64 {
        self.line_at(self.event_start)
    }

    fn place(&self) -> Place {
        *self.stack.last().unwrap_or(&Place::Document)
    }

    fn run(mut self) -> Result<Level, XmlError> {
        if let Some(pos) = self.text.find('\0') {
            return Err(XmlError::Nul {
                line: self.line_at(pos as u64),
            });
        }
        loop {
            self.event_start = self.reader.buffer_position();
            let event = match self.reader.read_event() {
                Ok(e) => e,
                Err(e) => {
                    return Err(XmlError::Syntax {
                        line: self.line_at(self.reader.error_position()),
                        message: short(&e.to_string()),
                    })
                }
            };
            match event {
                Event::Eof => break,
                Event::Start(e) => {
                    let place = self.element(&e)?;
                    self.stack.push(place);
                }
                Event::Empty(e) => {
                    self.element(&e)?;
                }
                Event::End(_) => {
                    // quick-xml has matched it with its start tag (`check_end_names`); order
                    // and counts were checked at the start tags.
                    self.stack.pop();
                }
                Event::Text(t) => {
                    if !t.iter().all(u8::is_ascii_whitespace) {
                        return Err(self.unexpected("text"));
                    }
                }
                Event::Comment(_) => {}
                Event::Decl(d) => {
                    if let Some(label) = d.encoding() {
                        let label = label.map_err(|e| XmlError::Syntax {
                            line: self.line(),
                            message: e.to_string(),
                        })?;
                        let label = String::from_utf8_lossy(&label).to_ascii_lowercase();
                        let known = [
                            "utf-8", "utf8", "utf-16", "utf16", "utf-16le", "utf-16be", "unicode",
                            "us-ascii", "ascii",
                        ];
                        if !known.contains(&label.as_str()) {
                            return Err(XmlError::Encoding {
                                line: self.line(),
                                label: short(&label),
                            });
                        }
                    }
                }
                Event::DocType(_) => return Err(XmlError::Dtd { line: self.line() }),
                Event::CData(_) => return Err(self.unexpected("CDATA")),
                Event::PI(_) => return Err(self.unexpected("processing instruction")),
                Event::GeneralRef(_) => return Err(self.unexpected("entity reference")),
            }
        }
        if !self.seen_level {
            return Err(XmlError::NoLevel);
        }
        self.finish()
    }

    fn unexpected(&self, what: &'static str) -> XmlError {
        XmlError::UnexpectedContent {
            line: self.line(),
            what,
            place: self.place().describe(),
        }
    }

    /// Handles an element's start: checks where it is and reads its attributes. Returns the
    /// place its content (if any) is in.
    fn element(&mut self, e: &BytesStart<'_>) -> Result<Place, XmlError> {
        let line = self.line();
        if self.stack.len() > MAX_DEPTH {
            return Err(XmlError::TooDeep { line });
        }
        let raw_name = e.name();
        let name = String::from_utf8_lossy(raw_name.as_ref()).into_owned();
        let place = self.place();
        let unexpected = || XmlError::UnexpectedElement {
            line,
            name: short(&name),
            place: place.describe(),
        };
        match (place, name.as_str()) {
            (Place::Document, "Level") if !self.seen_level => {
                self.seen_level = true;
                let a = self.attrs(e, "Level", &["width"], line)?;
                if let Some(w) = a.get("width") {
                    self.width = match w.trim().parse::<u32>() {
                        Ok(v) if (1..=MAX_WIDTH).contains(&v) => v,
                        _ => return Err(a.bad("width", w, format!("expected 1..={MAX_WIDTH}"))),
                    };
                }
                Ok(Place::Level)
            }
            (Place::Level, part) => {
                let Some(i) = LEVEL_PARTS.iter().position(|p| *p == part) else {
                    return Err(unexpected());
                };
                if i < self.parts {
                    return Err(unexpected());
                }
                if i > self.parts {
                    return Err(XmlError::OutOfOrder {
                        line,
                        element: "Level",
                        missing: LEVEL_PARTS[self.parts],
                        found: name.clone(),
                    });
                }
                self.parts += 1;
                match part {
                    "Camera" => {
                        let a =
                            self.attrs(e, "Camera", &["x", "y", "minWidth", "maxWidth"], line)?;
                        self.camera = Some(Camera {
                            x: a.number("x", Quantity::Position)?,
                            y: a.number("y", Quantity::Position)?,
                            min_width: a.number("minWidth", Quantity::CameraWidth)?,
                            max_width: a.number("maxWidth", Quantity::CameraWidth)?,
                        });
                        Ok(Place::Leaf("Camera"))
                    }
                    "Score" => {
                        let a = self.attrs(e, "Score", &["highScore"], line)?;
                        self.high_score = Some(a.number("highScore", Quantity::Score)?);
                        Ok(Place::Leaf("Score"))
                    }
                    "Birds" => {
                        self.attrs(e, "Birds", &[], line)?;
                        Ok(Place::Birds)
                    }
                    "Slingshot" => {
                        let a = self.attrs(e, "Slingshot", &["x", "y"], line)?;
                        self.slingshot = Some(Point {
                            x: a.number("x", Quantity::Position)?,
                            y: a.number("y", Quantity::Position)?,
                        });
                        Ok(Place::Leaf("Slingshot"))
                    }
                    _ => {
                        self.attrs(e, "GameObjects", &[], line)?;
                        Ok(Place::GameObjects)
                    }
                }
            }
            (Place::Birds, "Bird") => {
                if self.birds.len() >= MAX_BIRDS {
                    return Err(XmlError::TooManyBirds { line });
                }
                let a = self.attrs(e, "Bird", &["type"], line)?;
                let names: Vec<&str> = BirdKind::ALL.iter().map(|b| b.name()).collect();
                self.birds
                    .push(a.named("type", "bird type", BirdKind::from_name, &names)?);
                Ok(Place::Leaf("Bird"))
            }
            (Place::GameObjects, "Block" | "Pig" | "TNT" | "Platform") => {
                if self.objects.len() >= MAX_OBJECTS {
                    return Err(XmlError::TooManyObjects { line });
                }
                let object = self.object(e, &name, line)?;
                let leaf = match object.kind {
                    ObjectKind::Pig { .. } => "Pig",
                    ObjectKind::Block { .. } => "Block",
                    ObjectKind::Platform { .. } => "Platform",
                    ObjectKind::Tnt => "TNT",
                };
                self.objects.push(object);
                Ok(Place::Leaf(leaf))
            }
            _ => Err(unexpected()),
        }
    }

    fn object(&self, e: &BytesStart<'_>, name: &str, line: u64) -> Result<Object, XmlError> {
        let (element, allowed): (&'static str, &[&'static str]) = match name {
            "Block" => ("Block", &["type", "material", "x", "y", "rotation"]),
            "Pig" => ("Pig", &["type", "material", "x", "y", "rotation"]),
            "TNT" => ("TNT", &["type", "x", "y", "rotation"]),
            _ => (
                "Platform",
                &["type", "material", "x", "y", "rotation", "scaleX", "scaleY"],
            ),
        };
        let a = self.attrs(e, element, allowed, line)?;
        let kind = match element {
            "Block" => {
                let shapes: Vec<&str> = BlockShape::ALL.iter().map(|s| s.name()).collect();
                let materials: Vec<&str> = Material::ALL.iter().map(|m| m.name()).collect();
                ObjectKind::Block {
                    shape: a.named("type", "block type", BlockShape::from_name, &shapes)?,
                    material: a.named("material", "material", Material::from_name, &materials)?,
                }
            }
            "Pig" => {
                let pigs: Vec<&str> = PigKind::ALL.iter().map(|p| p.name()).collect();
                a.empty_or("material", &[])?;
                ObjectKind::Pig {
                    pig: a.named("type", "pig type", PigKind::from_name, &pigs)?,
                }
            }
            "TNT" => {
                a.required("type")?;
                a.empty_or("type", &["TNT"])?;
                ObjectKind::Tnt
            }
            _ => {
                a.required("type")?;
                a.empty_or("type", &["Platform"])?;
                a.empty_or("material", &[])?;
                ObjectKind::Platform {
                    scale_x: a.number_or("scaleX", "1", Quantity::Scale)?,
                    scale_y: a.number_or("scaleY", "1", Quantity::Scale)?,
                }
            }
        };
        Ok(Object {
            kind,
            x: a.number("x", Quantity::Position)?,
            y: a.number("y", Quantity::Position)?,
            rotation: a.number_or("rotation", "0", Quantity::Rotation)?,
        })
    }

    /// An element's attributes: each known, none twice, values unescaped (predefined entities
    /// and character references only).
    fn attrs(
        &self,
        e: &BytesStart<'_>,
        element: &'static str,
        allowed: &[&'static str],
        line: u64,
    ) -> Result<Attrs, XmlError> {
        let mut values = Vec::new();
        let mut it = e.attributes();
        it.with_checks(true);
        for attr in it {
            let attr = attr.map_err(|err| XmlError::Syntax {
                line,
                message: short(&err.to_string()),
            })?;
            let key = String::from_utf8_lossy(attr.key.as_ref()).into_owned();
            let Some(&name) = allowed.iter().find(|n| **n == key) else {
                return Err(XmlError::UnknownAttribute {
                    line,
                    element: element.to_owned(),
                    name: short(&key),
                });
            };
            let value = attr.unescape_value().map_err(|err| XmlError::Syntax {
                line,
                message: short(&err.to_string()),
            })?;
            values.push((name, value.into_owned()));
        }
        Ok(Attrs {
            element,
            line,
            values,
        })
    }

    fn finish(self) -> Result<Level, XmlError> {
        if self.parts < LEVEL_PARTS.len() {
            return Err(XmlError::MissingElement {
                element: "Level",
                missing: LEVEL_PARTS[self.parts],
            });
        }
        let (Some(camera), Some(high_score), Some(slingshot)) =
            (self.camera, self.high_score, self.slingshot)
        else {
            return Err(XmlError::MissingElement {
                element: "Level",
                missing: "Camera",
            });
        };
        let level = Level {
            width: self.width,
            camera,
            high_score,
            birds: self.birds,
            slingshot,
            objects: self.objects,
        };
        if level.birds.is_empty() {
            return Err(XmlError::NoBirds);
        }
        if level.pigs().next().is_none() {
            return Err(XmlError::NoPigs);
        }
        Ok(level)
    }
}
