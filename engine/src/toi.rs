//! Continuous collision: time of impact of a moving shape against a static one.
//! (Being written.)

use crate::fixed::Fixed;
use crate::math::{Sweep, Transform};
use crate::shape::Shape;

/// First fraction t ∈ [0, 1] of the sweep at which `moving` comes within `target` separation
/// of `fixed`; `None` when it stays farther apart over the whole sweep.
pub fn time_of_impact(_moving: &Shape, _sweep: &Sweep, _fixed: &Shape, _xf_fixed: &Transform, _target: Fixed) -> Option<Fixed> {
    None
}
