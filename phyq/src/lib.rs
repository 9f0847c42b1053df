//! Phy-Q on rephyre: the data side.
//!
//! * [`catalogue`]: every Science Birds object kind with the original's numbers (colliders,
//!   masses, gravity scales, materials, life, defence), each traceable to its source;
//! * [`level`]: the level model (birds, slingshot, objects as the XML gives them);
//! * [`xml`]: the level XML reader (the original generator's and level editor's files, any of
//!   their encodings; hostile input refused in bounded time and memory);
//! * [`templates`]: the 75 Phy-Q templates and their table;
//! * [`levelset`]: level sets, their import from XML files and folders, and the level-set file
//!   (`phyq/FORMAT.md`);
//! * [`game`]: a level played on the engine (Science Birds' physics, damage, destruction,
//!   explosions, the birds' powers, shots from the slingshot);
//! * [`playdata`]: the pass rates the paper measured on the original game (humans with their
//!   spread, the paper's nine agents), per scenario;
//! * [`generator`]: the task generator, 100 seeded variations of each template (the `phyq`
//!   tier), and [`witnesses`]: the file that proves each built-in task sound (at rest, with shots
//!   that pass it) and names the draw the tier keeps;
//! * observations: [`scene`] (the bodies to see, from a level's initial state or, later, a
//!   simulation), [`picture`] (the 640 × 480 screenshot in the original's colour codes and
//!   framing), [`symbolic`] (the original's symbolic representation as JSON), [`screen`] (the
//!   screen as the original's agents read it: contours in pixels, the slingshot's rectangle, the
//!   boxes of their state reader), [`colours`] (the sprites' colour maps and the palette).
//!
//! The data in `data/` is Phy-Q's (MIT, `data/LICENSE`, `data/NOTICE`) but for
//! `data/witnesses.csv`, which rephyre wrote (`rephyre phyq-witness`); the code is rephyre's.

pub mod catalogue;
pub mod colours;
pub mod decompose;
pub mod game;
pub mod generator;
pub mod level;
pub mod levelset;
pub mod number;
pub mod picture;
pub mod playdata;
pub mod scene;
pub mod screen;
pub mod symbolic;
pub mod templates;
pub mod witnesses;
pub mod xml;

pub use catalogue::{catalogue, BirdKind, BlockShape, Kind, Material, PigKind};
pub use level::{Level, Object, ObjectKind};
pub use levelset::{import_paths, LevelId, LevelSet, SetError};
pub use number::Decimal;
pub use xml::{parse_level, read_level_file, XmlError};
