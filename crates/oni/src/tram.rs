//! TRAM (`TRtAnimation`): every field of the struct and of its raw arrays as records
//! ([`Tram`] and the types it holds), in three private parts:
//!
//! - `read`: the struct's fields and raw arrays, checked; the rotation block checked once
//!   at load ([`walk_block`]).
//! - `walk`: the engine's frame walk (`TRrQuatArray_SetAnimationInternal`, 0x427820) and the
//!   root motion summed frame by frame.
//! - `unit`: `check`'s walk of every frame, verified unit without being collected.
//! - `json`: the static and per-frame fields for `list --json` and `sample --json`.

mod json;
mod read;
mod unit;
mod walk;

pub use walk::walk_block;

use crate::layout::tram as t;
use bytes::Bytes;

/// An attack (`TRtAttack`, 32 bytes).
#[derive(Debug, Clone, PartialEq)]
pub struct Attack {
    /// Damage type bits of the hit (which kinds of damage it does).
    pub damage_bits: u32,
    /// Knockback given to the victim.
    pub knockback: f32,
    /// The attack's flags (unblockable, high, low...).
    pub flags: u32,
    /// Hit points taken from the victim.
    pub damage: u16,
    /// First frame on which the attack hits.
    pub first_frame: u16,
    /// Last frame on which the attack hits.
    pub last_frame: u16,
    /// The victim's hit animation type.
    pub damage_animation: u16,
    /// Frames the victim is stunned when hit.
    pub hit_stun: u16,
    /// Frames the victim is stunned when blocking.
    pub block_stun: u16,
    /// Stagger frames.
    pub stagger: u16,
    /// Precedence against other attacks landing on the same frame.
    pub precedence: u16,
    /// Index of the attack's first entry in [`Tram::attack_extents`].
    pub extent_index: u16,
}

/// Motion blur (`TRtBlur`, 12 bytes).
#[derive(Debug, Clone, PartialEq)]
pub struct Blur {
    /// Bit mask of the body parts that leave a blur.
    pub parts: u32,
    /// First frame of the blur.
    pub first_frame: u16,
    /// Last frame of the blur.
    pub last_frame: u16,
    /// How many frames each blur copy lives.
    pub lifetime: u8,
    /// Opacity of the blur copies (0..255).
    pub alpha: u8,
    /// Frames between two blur copies.
    pub interval: u8,
}

/// The throw (22 bytes): the victim's offset (turned by the thrower's facing), its facing
/// relative to the thrower's (radians in the engine), the reach, the victim's animation type.
#[derive(Debug, Clone, PartialEq)]
pub struct Throw {
    /// Where the victim stands, relative to the thrower (turned by the thrower's facing).
    pub offset: [f32; 3],
    /// The victim's facing relative to the thrower's.
    pub facing: f32,
    /// Largest distance at which the throw can start.
    pub distance: f32,
    /// The animation type the victim plays.
    pub victim_type: u16,
}

/// A particle (24 bytes).
#[derive(Debug, Clone, PartialEq)]
pub struct Particle {
    /// First frame on which the particle is emitted.
    pub start: u16,
    /// Frame on which it stops.
    pub stop: u16,
    /// Index of the body part it is attached to.
    pub part: u16,
    /// The particle's name (16 bytes in the file).
    pub name: String,
}

/// `TRtPosition` per frame, in 0.01 units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PositionPoint {
    /// Root position X, in 0.01 units.
    pub x: i16,
    /// Root position Z, in 0.01 units.
    pub z: i16,
    /// Height from the toes to the head, in 0.01 units.
    pub toe_to_head: u16,
    /// Height from the floor to the toes, in 0.01 units.
    pub floor_to_toe: i16,
}

/// `TRtAttackExtent` (12 bytes): angle in 2π/65535, lengths in 0.01.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AttackExtent {
    /// The frame this extent is for.
    pub frame: u16,
    /// Direction of the reach, in 2π/65535 units.
    pub angle: u16,
    /// Reach, in 0.01 units.
    pub distance: u16,
    /// Lowest point hit, in 0.01 units.
    pub min_height: i16,
    /// Highest point hit, in 0.01 units.
    pub max_height: i16,
}

/// `TRtAttackBound` (32 bytes).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AttackBound {
    /// The frame of this bound.
    pub frame: u16,
    /// Index into [`Tram::attacks`].
    pub attack_index: u8,
    /// Index into [`Tram::attack_extents`].
    pub extent_index: u8,
    /// Position of the attacking part at that frame.
    pub position: [f32; 3],
    /// Reach.
    pub distance: f32,
    /// Lowest point hit.
    pub min_height: f32,
    /// Highest point hit.
    pub max_height: f32,
    /// Direction of the reach, in radians.
    pub angle: f32,
}

/// Where one part's stream lies in [`Tram::rotations`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stream {
    /// Byte offset of the stream's first key in [`Tram::rotations`].
    pub start: usize,
    /// Byte offset just past its last key.
    pub end: usize,
    /// Number of keys in it.
    pub keys: usize,
}

/// A TRAM as read from an instance file.
#[derive(Debug, Clone)]
pub struct Tram {
    /// The name without "TRAM" ("KONOKOidle_spec3"), or `TRAM#<index>` when unnamed.
    pub name: String,
    /// The file it was read from.
    pub file: String,
    /// Index of its instance descriptor in that file.
    pub descriptor: usize,
    /// Playback rate in frames per second (60 in every shipped TRAM).
    pub fps: u16,
    /// Bytes per rotation key (3, 4, 6, 8 or 16; decoded by [`crate::keys::decode`]).
    pub key_size: u16,
    /// The animation type (`ONrAnimType`: walk, run, punch...).
    pub kind: u16,
    /// Aiming type (how the upper body follows the aim).
    pub aiming_type: u16,
    /// The animation state the character must be in to play it.
    pub from_state: u16,
    /// The state it leaves the character in.
    pub to_state: u16,
    /// Number of body parts it drives (19 for a biped).
    pub parts: usize,
    /// Number of frames.
    pub frames: usize,
    /// Duration in frames used for blending into the next animation.
    pub duration: u16,
    /// Variant bits (which character variants may play it).
    pub varient: u16,
    /// Variant bits at the end of the animation.
    pub varient_end: u16,
    /// The frame range during which it cannot be interrupted.
    pub atomic: [u16; 2],
    /// Blend-in and blend-out lengths, in frames.
    pub interpolation: [u16; 2],
    /// The frame on which the action fires (-1: none).
    pub action_frame: i16,
    /// First level in which the animation is available.
    pub first_level: u16,
    /// The frame range during which the character is invulnerable.
    pub invulnerable: [u8; 2],
    /// The animation's flags (`ONrAnimFlag`).
    pub flags: u32,
    /// Names of the TRAMs played directly after it, without a state change.
    pub direct_animations: [Option<String>; 2],
    /// Bit mask of the parts it drives.
    pub used_parts: u32,
    /// Bit mask of the parts it replaces in an overlay.
    pub replace_parts: u32,
    /// Rotation about the vertical axis the character has turned at the end, in radians.
    pub final_rotation: f32,
    /// Direction of movement (forward, backward, sideways...).
    pub move_direction: u16,
    /// The vocalization played with it.
    pub vocalization: u16,
    /// Attack ring: the largest reach of every sample.
    pub ring_max_distance: f32,
    /// Attack ring: the lowest height hit.
    pub ring_min_height: f32,
    /// Attack ring: the highest height hit.
    pub ring_max_height: f32,
    /// Attack ring: the reach in each of its directions, around the character.
    pub ring: [f32; t::EXTENT_RING_SAMPLES],
    /// The first frame on which any attack can hit.
    pub first_attack: AttackBound,
    /// The frame of the attack's largest reach.
    pub max_attack: AttackBound,
    /// The attack's direction as the engine computed it.
    pub computed_direction: u32,
    /// The attack's name (for the AI's melee profiles).
    pub attack_name: String,
    /// Frames the character is frozen when the attack hits (hard pause).
    pub hard_pause: u16,
    /// Frames of slowed play when the attack hits (soft pause).
    pub soft_pause: u16,
    /// Root height per frame.
    pub heights: Vec<f32>,
    /// Root horizontal velocity (x, z) per frame: the root motion, summed frame by frame.
    pub velocities: Vec<[f32; 2]>,
    /// The attacks (`TRtAttack`).
    pub attacks: Vec<Attack>,
    /// Damage taken on given frames: (hit points, frame).
    pub damages: Vec<[u16; 2]>,
    /// Motion blurs.
    pub blurs: Vec<Blur>,
    /// Shortcuts: the animation states from which it can be entered early, with their lengths.
    pub shortcuts: Vec<[u32; 3]>,
    /// The throw, for throw animations.
    pub throw: Option<Throw>,
    /// Footsteps: (frame, foot) pairs.
    pub footsteps: Vec<[u16; 2]>,
    /// Particles emitted.
    pub particles: Vec<Particle>,
    /// `TRtPosition` per frame.
    pub positions: Vec<PositionPoint>,
    /// Sounds: (name, frame).
    pub sounds: Vec<(String, u16)>,
    /// Attack extents per frame.
    pub attack_extents: Vec<AttackExtent>,
    /// The rotation block (offset table and every stream): a view of the file's raw data
    /// when read, the encoder's bytes when built.
    pub rotations: Bytes,
    /// Where each part's stream lies in `rotations`, one per part.
    pub streams: Vec<Stream>,
    /// The file that holds the rotation block (a level's `.raw`, an `.oni` itself) and the
    /// block's byte offset in it: errors about a key name where it lies. Built TRAMs: the
    /// TRAM's name and 0.
    pub rotations_at: (String, u64),
}
