//! rephyre's raster: what an agent sees, and what a person looks at.
//!
//! * [`render()`] / [`render_into`]: the 256 × 256 observation of a world (SPEC §5): one byte per
//!   pixel, values 0–6, row 0 at the bottom; a pixel takes a body's colour when its centre is
//!   inside (or on) one of the body's parts; bodies painted in id order. Exact integer
//!   arithmetic from the engine's fixed-point state, so every platform gives the same bytes;
//!   spans filled with SIMD stores ([`SpanFiller`]) that match the scalar reference byte for
//!   byte. The rule, its rounding and the treatment of polygon skins are documented in
//!   the [`render` module](mod@crate::render);
//! * [`rollout_frames`]: the frames of a run at stride 60 (after steps 1, 61, 121, …);
//! * [`object_features`]: the 14 numbers per object;
//! * [`picture`]: PNG frames, animated GIFs with the action outlined, labelled contact sheets;
//! * [`compare`]: pixel agreement with a reference observation (e.g. the original PHYRE's);
//! * [`canvas`]: drawing into pictures of any size and palette (exact filled convex polygons and
//!   discs, shrinking, enlarging, labelled sheets, PNG with a caller's palette), for observations
//!   other than PHYRE's (the Phy-Q pictures of the `phyq` crate).
//!
//! The raster depends on the engine only. It knows nothing of tasks: callers pass each body's
//! colour (`colours[body index]`, 0 = not drawn, e.g. walls) and, for features, an
//! [`ObjectDesc`] per object.
#![deny(missing_docs)]
#![deny(clippy::float_arithmetic)]
#![deny(unsafe_op_in_unsafe_fn)]

pub mod canvas;
pub mod features;
mod font;
pub mod frames;
pub mod observation;
pub mod picture;
pub mod render;
pub mod span;

pub use features::{
    features_of, object_features, Features, ObjectDesc, ShapeKind, FEATURES, FEATURE_NAMES,
};
pub use frames::{
    frame_count, is_frame_step, rollout_frames, rollout_frames_every, Frame, Rollout, FRAME_STRIDE,
};
pub use observation::{colour, compare, Agreement, Observation, PIXELS, SIZE};
pub use picture::{
    action_frames, contact_sheet, contact_sheet_labelled, write_gif, write_observation_png,
    write_png, write_rollout_gif, ActionCircle, Indexed, PictureError, PALETTE,
};
pub use render::{covers, paint_shape, render, render_into};
pub use span::SpanFiller;
