//! The joint table: what every animation format produces at a frame and what the limbs are
//! posed from (`jointTable` in z_skelanime.c). Its own module so that the samplers (normal,
//! Link's, legacy, keyframe, curve) and the posing below them share it without depending on
//! each other.

/// A joint table at one frame, plus Link's face word.
#[derive(Debug, Clone, PartialEq)]
pub struct JointTable {
    /// Per joint: X, Y, Z (the root's translation first, then each limb's binary angles).
    pub joints: Vec<[i16; 3]>,
    /// Link's face word (eyes and mouth indices), for `link` animations.
    pub face: Option<u16>,
}
