//! rephyre's raster: what an agent sees and what a person looks at.
//!
//! * [`render`]: a 256 × 256 observation of a world (one byte per pixel, values 0–6, row 0 =
//!   bottom), exact and deterministic, with SIMD span filling ([`SpanFiller`]);
//! * [`rollout_frames`]: frames at stride 60 of a run;
//! * [`object_features`]: the 14 object features;
//! * [`picture`]: PNG, animated GIF and contact sheets in the display palette.
//!
//! The raster knows the engine's world and nothing of tasks or agents: callers give each body's
//! colour (0 = not drawn) and, for features, an [`ObjectDesc`] per object.

pub mod features;
pub mod frames;
pub mod picture;
pub mod scene;
pub mod span;

pub use features::{object_features, ObjectDesc, ShapeClass, FEATURES};
pub use frames::{rollout_frames, FRAME_STRIDE};
pub use picture::{
    contact_sheet, write_gif, write_observation_png, write_png, Indexed, PictureError, PALETTE,
};
pub use scene::{colour, covers, draw_shape, render, render_into, Observation, SIZE};
pub use span::SpanFiller;
