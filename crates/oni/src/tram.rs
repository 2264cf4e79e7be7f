//! TRAM (`TRtAnimation`): every field of the struct and of its raw arrays, the rotation
//! streams checked once at load, and the engine's frame walk (0x427820).

use crate::container::InstanceFile;
use crate::keys;
use crate::layout::{tram as t, TRAM};
use crate::math::{quat_lerp, EQuat};
use boneyard_core::{Error, Reader, Result};
use bytes::Bytes;
use serde_json::{json, Map, Value};

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
}

/// Largest raw array element count accepted (the struct's counts are u8/u16/u32).
const MAX_ARRAY: usize = 1 << 16;

fn bound(r: &mut Reader<'_>) -> Result<AttackBound> {
    Ok(AttackBound {
        frame: r.u16()?,
        attack_index: r.u8()?,
        extent_index: r.u8()?,
        position: r.vec3()?,
        distance: r.f32()?,
        min_height: r.f32()?,
        max_height: r.f32()?,
        angle: r.f32()?,
    })
}

impl Tram {
    /// Read TRAM instance `index` of `file`. `link_name` names the targets of the two direct
    /// animation links (for the JSON), or None.
    pub fn read(file: &InstanceFile, index: usize, link_name: &dyn Fn(u32, u64) -> Option<String>) -> Result<Tram> {
        let desc = file
            .descriptors
            .get(index)
            .ok_or_else(|| Error::invalid(0, format!("no instance {index}")).in_file(&file.name))?;
        if desc.tag != TRAM {
            return Err(Error::invalid(0, format!("instance {index} is not a TRAM")).in_file(&file.name));
        }
        let name = desc.short_name().map(str::to_string).unwrap_or_else(|| format!("TRAM#{index}"));
        let s = file.instance(index).map_err(|e| e.in_file(&file.name))?;
        if s.len() < t::SIZE {
            return Err(Error::invalid(
                s.offset(),
                format!("TRAM {name}: instance is {} bytes, a TRAM is {:#x}", s.len(), t::SIZE),
            )
            .in_file(&file.name));
        }
        Self::read_struct(file, index, name, s, link_name)
    }

    fn read_struct(
        file: &InstanceFile,
        index: usize,
        name: String,
        s: Reader<'_>,
        link_name: &dyn Fn(u32, u64) -> Option<String>,
    ) -> Result<Tram> {
        let fname = file.name.as_str();
        let base = s.base();
        let at = |off: usize| base + off as u64;
        let mut r = s.clone();
        let mut u16_at = |off: usize| -> Result<u16> {
            r.seek(off)?;
            r.u16()
        };
        let fps = u16_at(t::FPS)?;
        let key_size = u16_at(t::COMPRESSION)?;
        let kind = u16_at(t::TYPE)?;
        let aiming_type = u16_at(t::AIMING_TYPE)?;
        let from_state = u16_at(t::FROM_STATE)?;
        let to_state = u16_at(t::TO_STATE)?;
        let parts = u16_at(t::NUM_PARTS)? as usize;
        let frames = u16_at(t::NUM_FRAMES)? as usize;
        let duration = u16_at(t::DURATION)?;
        let varient = u16_at(t::VARIENT)?;
        let varient_end = u16_at(t::VARIENT_END)?;
        let atomic = [u16_at(t::ATOMIC_START)?, u16_at(t::ATOMIC_END)?];
        let interpolation = [u16_at(t::END_INTERPOLATION)?, u16_at(t::MAX_INTERPOLATION)?];
        let action_frame = u16_at(t::ACTION_FRAME)? as i16;
        let first_level = u16_at(t::FIRST_LEVEL)?;
        let hard_pause = u16_at(t::HARD_PAUSE)?;
        let soft_pause = u16_at(t::SOFT_PAUSE)?;
        let move_direction = u16_at(t::MOVE_DIRECTION)?;
        let vocalization = u16_at(t::VOCALIZATION)?;
        let bytes = s.data();
        let b = |off: usize| bytes.get(off).copied().unwrap_or(0);
        let mut r = s.clone();
        let mut u32_at = |off: usize| -> Result<u32> {
            r.seek(off)?;
            r.u32()
        };
        let flags = u32_at(t::FLAGS)?;
        let used_parts = u32_at(t::USED_PARTS)?;
        let replace_parts = u32_at(t::REPLACE_PARTS)?;
        let final_rotation = f32::from_bits(u32_at(t::FINAL_ROTATION)?);
        let computed_direction = u32_at(t::COMPUTED_DIRECTION)?;
        let num_extents = u32_at(t::NUM_ATTACK_EXTENTS)? as u64;
        let direct = [u32_at(t::DIRECT_ANIMATIONS)?, u32_at(t::DIRECT_ANIMATIONS + 4)?];
        let raw_field = |off: usize| -> Result<u32> {
            let mut r = s.clone();
            r.seek(off)?;
            r.u32()
        };

        let err = |off: usize, msg: String| Error::invalid(at(off), format!("TRAM {name}: {msg}")).in_file(fname);
        if !t::KEY_SIZES.contains(&key_size) {
            return Err(err(
                t::COMPRESSION,
                format!("key size {key_size} is not one the engine knows (3, 4, 6, 8 or 16)"),
            ));
        }
        if parts == 0 || parts > t::MAX_PARTS {
            return Err(err(t::NUM_PARTS, format!("{parts} parts (the engine takes 1 to {})", t::MAX_PARTS)));
        }
        if frames == 0 {
            return Err(err(t::NUM_FRAMES, "no frames".into()));
        }

        let mut r = s.clone();
        r.seek(t::EXTENT_RING)?;
        let ring_max_distance = r.f32()?;
        let ring_min_height = r.f32()?;
        let ring_max_height = r.f32()?;
        let mut ring = [0f32; t::EXTENT_RING_SAMPLES];
        for v in ring.iter_mut() {
            *v = r.f32()?;
        }
        r.seek(t::FIRST_ATTACK)?;
        let first_attack = bound(&mut r)?;
        let max_attack = bound(&mut r)?;
        r.seek(t::ATTACK_NAME)?;
        let attack_name = r.name(t::ATTACK_NAME_LEN)?;

        // A raw array: `count` elements of `size` bytes at the raw offset stored at `field`.
        let array = |field: usize, count: usize, size: usize, what: &str| -> Result<Option<Reader<'_>>> {
            let off = raw_field(field)?;
            if count == 0 {
                return Ok(None);
            }
            if off == 0 {
                return Err(err(field, format!("{count} {what} but no raw offset")));
            }
            file.raw_slice(off, count * size, at(field), &format!("TRAM {name}: {what}")).map(Some)
        };
        let raw_err = |e: Error| e.in_file(file.raw_name());

        let mut heights = Vec::with_capacity(frames);
        let mut velocities = Vec::with_capacity(frames);
        // frames >= 1, so both arrays are required (a raw offset of 0 is an error).
        if let Some(mut r) = array(t::HEIGHTS, frames, 4, "heights")? {
            for _ in 0..frames {
                heights.push(r.f32().map_err(raw_err)?);
            }
        }
        if let Some(mut r) = array(t::POSITIONS, frames, 8, "motion")? {
            for _ in 0..frames {
                velocities.push([r.f32().map_err(raw_err)?, r.f32().map_err(raw_err)?]);
            }
        }
        let mut attacks = Vec::new();
        if let Some(mut r) = array(t::ATTACKS, b(t::NUM_ATTACKS) as usize, t::ATTACK_SIZE, "attacks")? {
            for _ in 0..b(t::NUM_ATTACKS) {
                let a = (|| -> Result<Attack> {
                    let a = Attack {
                        damage_bits: r.u32()?,
                        knockback: r.f32()?,
                        flags: r.u32()?,
                        damage: r.u16()?,
                        first_frame: r.u16()?,
                        last_frame: r.u16()?,
                        damage_animation: r.u16()?,
                        hit_stun: r.u16()?,
                        block_stun: r.u16()?,
                        stagger: r.u16()?,
                        precedence: r.u16()?,
                        extent_index: r.u16()?,
                    };
                    r.u16()?;
                    Ok(a)
                })()
                .map_err(raw_err)?;
                attacks.push(a);
            }
        }
        let mut damages = Vec::new();
        if let Some(mut r) = array(t::TAKE_DAMAGES, b(t::NUM_TAKE_DAMAGES) as usize, t::TAKE_DAMAGE_SIZE, "damage")? {
            for _ in 0..b(t::NUM_TAKE_DAMAGES) {
                damages.push([r.u16().map_err(raw_err)?, r.u16().map_err(raw_err)?]);
            }
        }
        let mut blurs = Vec::new();
        if let Some(mut r) = array(t::BLURS, b(t::NUM_BLURS) as usize, t::BLUR_SIZE, "blurs")? {
            for _ in 0..b(t::NUM_BLURS) {
                let x = (|| -> Result<Blur> {
                    let x = Blur {
                        parts: r.u32()?,
                        first_frame: r.u16()?,
                        last_frame: r.u16()?,
                        lifetime: r.u8()?,
                        alpha: r.u8()?,
                        interval: r.u8()?,
                    };
                    r.u8()?;
                    Ok(x)
                })()
                .map_err(raw_err)?;
                blurs.push(x);
            }
        }
        let mut shortcuts = Vec::new();
        if let Some(mut r) = array(t::SHORTCUTS, b(t::NUM_SHORTCUTS) as usize, t::SHORTCUT_SIZE, "shortcuts")? {
            for _ in 0..b(t::NUM_SHORTCUTS) {
                shortcuts.push([
                    r.u16().map_err(raw_err)? as u32,
                    r.u16().map_err(raw_err)? as u32,
                    r.u32().map_err(raw_err)?,
                ]);
            }
        }
        let has_throw = raw_field(t::THROW)? != 0;
        let throw = match array(t::THROW, usize::from(has_throw), t::THROW_SIZE, "throw")? {
            Some(mut r) => Some(
                (|| -> Result<Throw> {
                    Ok(Throw { offset: r.vec3()?, facing: r.f32()?, distance: r.f32()?, victim_type: r.u16()? })
                })()
                .map_err(raw_err)?,
            ),
            _ => None,
        };
        let mut footsteps = Vec::new();
        if let Some(mut r) = array(t::FOOTSTEPS, b(t::NUM_FOOTSTEPS) as usize, t::FOOTSTEP_SIZE, "footsteps")? {
            for _ in 0..b(t::NUM_FOOTSTEPS) {
                footsteps.push([r.u16().map_err(raw_err)?, r.u16().map_err(raw_err)?]);
            }
        }
        let mut particles = Vec::new();
        if let Some(mut r) = array(t::PARTICLES, b(t::NUM_PARTICLES) as usize, t::PARTICLE_SIZE, "particles")? {
            for _ in 0..b(t::NUM_PARTICLES) {
                let p = (|| -> Result<Particle> {
                    let start = r.u16()?;
                    let stop = r.u16()?;
                    let part = r.u16()?;
                    r.u16()?;
                    Ok(Particle { start, stop, part, name: r.name(t::PARTICLE_NAME_LEN)? })
                })()
                .map_err(raw_err)?;
                particles.push(p);
            }
        }
        // Position points: one per frame when present (0 = none, as in OniSplit's files
        // without <Positions>).
        let mut positions = Vec::new();
        if raw_field(t::POSITION_POINTS)? != 0 {
            if let Some(mut r) = array(t::POSITION_POINTS, frames, t::POSITION_POINT_SIZE, "position points")? {
                for _ in 0..frames {
                    let p = (|| -> Result<PositionPoint> {
                        Ok(PositionPoint { x: r.i16()?, z: r.i16()?, toe_to_head: r.u16()?, floor_to_toe: r.i16()? })
                    })()
                    .map_err(raw_err)?;
                    positions.push(p);
                }
            }
        }
        let mut rr = s.clone();
        rr.seek(t::NUM_SOUNDS)?;
        let num_sounds = rr.u32()? as u64;
        let num_sounds = rr.check_count(num_sounds, 0, MAX_ARRAY, "sounds").map_err(|e| e.in_file(fname))?;
        let mut sounds = Vec::new();
        if let Some(mut r) = array(t::SOUNDS, num_sounds, t::SOUND_SIZE, "sounds")? {
            for _ in 0..num_sounds {
                let nm = r.name(t::SOUND_NAME_LEN).map_err(raw_err)?;
                sounds.push((nm, r.u16().map_err(raw_err)?));
            }
        }
        let num_extents = s.check_count(num_extents, 0, MAX_ARRAY, "attack extents").map_err(|e| e.in_file(fname))?;
        let mut attack_extents = Vec::new();
        if let Some(mut r) = array(t::ATTACK_EXTENTS, num_extents, t::ATTACK_EXTENT_SIZE, "attack extents")? {
            for _ in 0..num_extents {
                let e = (|| -> Result<AttackExtent> {
                    let frame = r.u16()?;
                    let angle = r.u16()?;
                    let distance = r.u16()?;
                    r.u16()?;
                    Ok(AttackExtent { frame, angle, distance, min_height: r.i16()?, max_height: r.i16()? })
                })()
                .map_err(raw_err)?;
                attack_extents.push(e);
            }
        }

        // The rotation block.
        let rot_off = raw_field(t::ROTATIONS)?;
        if rot_off == 0 {
            return Err(err(t::ROTATIONS, "no rotation data (raw offset 0)".into()));
        }
        let block = file.raw_from(rot_off, at(t::ROTATIONS), &format!("TRAM {name}: rotations"))?;
        let (block_len, streams) = walk_block(&block, parts, frames, key_size as usize).map_err(|e| {
            let msg = match &e.kind {
                boneyard_core::ErrorKind::Invalid(m) => m.clone(),
                k => k.to_string(),
            };
            Error {
                file: Some(file.raw_name().to_string()),
                offset: e.offset,
                kind: boneyard_core::ErrorKind::Invalid(format!("TRAM {name}: {msg}")),
            }
        })?;

        let rotations = file
            .raw_shared(rot_off, block_len)
            .ok_or_else(|| err(t::ROTATIONS, "the rotation block is past the end of the raw data".into()))?;

        let direct_animations =
            [link_name(direct[0], at(t::DIRECT_ANIMATIONS)), link_name(direct[1], at(t::DIRECT_ANIMATIONS + 4))];
        Ok(Tram {
            name: name.clone(),
            file: fname.to_string(),
            descriptor: index,
            fps,
            key_size,
            kind,
            aiming_type,
            from_state,
            to_state,
            parts,
            frames,
            duration,
            varient,
            varient_end,
            atomic,
            interpolation,
            action_frame,
            first_level,
            invulnerable: [b(t::INVULNERABLE_START), b(t::INVULNERABLE_LENGTH)],
            flags,
            direct_animations,
            used_parts,
            replace_parts,
            final_rotation,
            move_direction,
            vocalization,
            ring_max_distance,
            ring_min_height,
            ring_max_height,
            ring,
            first_attack,
            max_attack,
            computed_direction,
            attack_name,
            hard_pause,
            soft_pause,
            heights,
            velocities,
            attacks,
            damages,
            blurs,
            shortcuts,
            throw,
            footsteps,
            particles,
            positions,
            sounds,
            attack_extents,
            rotations,
            streams,
        })
    }

    /// The engine quaternion of `part` at whole frame `frame` (< frames), by the walk of
    /// `TRrQuatArray_SetAnimationInternal` (0x427820).
    pub fn rotation(&self, part: usize, frame: usize) -> Result<EQuat> {
        let st =
            self.streams.get(part).ok_or_else(|| Error::invalid(0, format!("TRAM {}: no part {part}", self.name)))?;
        if frame >= self.frames {
            return Err(Error::invalid(0, format!("TRAM {}: frame {frame} of {}", self.name, self.frames)));
        }
        let ks = self.key_size as usize;
        let key = |pos: usize| -> Result<EQuat> {
            self.rotations
                .get(pos..pos + ks)
                .and_then(|b| keys::decode(self.key_size, b))
                .ok_or_else(|| Error::invalid(pos as u64, format!("TRAM {}: key outside its stream", self.name)))
        };
        // One frame: the engine reads a gap and a key past the stream but lands on key 0.
        if self.frames == 1 {
            return key(st.start);
        }
        let mut p = st.start;
        let mut current = p;
        let mut last;
        let mut current_frame = 0usize;
        p += ks;
        let mut gap;
        loop {
            gap = *self
                .rotations
                .get(p)
                .filter(|_| p < st.end)
                .ok_or_else(|| Error::invalid(p as u64, format!("TRAM {}: the walk left the stream", self.name)))?
                as usize;
            p += 1;
            last = current;
            current = p;
            p += ks;
            current_frame += gap;
            if frame <= current_frame {
                break;
            }
        }
        let into = frame - (current_frame - gap);
        if into == 0 {
            key(last)
        } else if into == gap {
            key(current)
        } else {
            Ok(quat_lerp(key(last)?, key(current)?, into as f32 / gap as f32))
        }
    }

    /// Every frame's rotation of `part`, in one pass over the stream: the same keys and lerps
    /// as [`rotation`](Self::rotation) frame by frame (the walk's position only moves forward).
    pub fn part_rotations(&self, part: usize) -> Result<Vec<EQuat>> {
        let st =
            *self.streams.get(part).ok_or_else(|| Error::invalid(0, format!("TRAM {}: no part {part}", self.name)))?;
        let ks = self.key_size as usize;
        let key = |pos: usize| -> Result<EQuat> {
            self.rotations
                .get(pos..pos + ks)
                .filter(|_| pos + ks <= st.end)
                .and_then(|b| keys::decode(self.key_size, b))
                .ok_or_else(|| Error::invalid(pos as u64, format!("TRAM {}: key outside its stream", self.name)))
        };
        let mut out = Vec::with_capacity(self.frames);
        if self.frames == 1 {
            out.push(key(st.start)?);
            return Ok(out);
        }
        // The segment (last key, current key, gap, frame of the current key), each key
        // decoded once.
        let mut p = st.start + ks;
        let mut current_q = key(st.start)?;
        let mut last_q = current_q;
        let mut gap = 0usize;
        let mut current_frame = 0usize;
        let mut started = false;
        for frame in 0..self.frames {
            while !started || frame > current_frame {
                started = true;
                gap =
                    *self.rotations.get(p).filter(|_| p < st.end).ok_or_else(|| {
                        Error::invalid(p as u64, format!("TRAM {}: the walk left the stream", self.name))
                    })? as usize;
                p += 1;
                last_q = current_q;
                current_q = key(p)?;
                p += ks;
                current_frame += gap;
            }
            let into = frame - (current_frame - gap);
            out.push(if into == 0 {
                last_q
            } else if into == gap {
                current_q
            } else {
                quat_lerp(last_q, current_q, into as f32 / gap as f32)
            });
        }
        Ok(out)
    }

    /// Every part's rotation at `frame`.
    pub fn rotations_at(&self, frame: usize) -> Result<Vec<EQuat>> {
        (0..self.parts).map(|p| self.rotation(p, frame)).collect()
    }

    /// The root's displacement at `frame`: the per-frame motion summed over frames 0..frame
    /// (frame 0 at the origin), as (x, z).
    pub fn position(&self, frame: usize) -> [f32; 2] {
        let mut p = [0f32; 2];
        for v in self.velocities.iter().take(frame) {
            p[0] += v[0];
            p[1] += v[1];
        }
        p
    }

    /// Root height at `frame` (0 past the end, as the engine's table read leaves it).
    pub fn height(&self, frame: usize) -> f32 {
        self.heights.get(frame).copied().unwrap_or(0.0)
    }

    /// The bytes of part `part`'s stream as the walk reads them (key, gap, key, ..., key).
    pub fn stream_bytes(&self, part: usize) -> &[u8] {
        self.streams.get(part).and_then(|s| self.rotations.get(s.start..s.end)).unwrap_or(&[])
    }

    /// Format string for `AnimInfo::format`.
    pub fn format(&self) -> String {
        format!("TRAM/{}", self.key_size)
    }

    /// Every static field, for `list --json` (the per-frame ones are in [`frame_json`]).
    ///
    /// [`frame_json`]: Self::frame_json
    pub fn info_json(&self) -> Map<String, Value> {
        let mut m = Map::new();
        let mut put = |k: &str, v: Value| {
            m.insert(k.to_string(), v);
        };
        put("instance", json!(self.descriptor));
        put("sampling", json!("whole frames at 60 fps: a real frame is rounded down and clamped"));
        put("key_size", json!(self.key_size));
        put("fps_field", json!(self.fps));
        put("type", json!(self.kind));
        put("aiming_type", json!(self.aiming_type));
        put("from_state", json!(self.from_state));
        put("to_state", json!(self.to_state));
        put("duration", json!(self.duration));
        put("varient", json!(self.varient));
        put("varient_end", json!(self.varient_end));
        put("atomic", json!(self.atomic));
        put("end_interpolation", json!(self.interpolation[0]));
        put("max_interpolation", json!(self.interpolation[1]));
        put("action_frame", json!(self.action_frame));
        put("first_level", json!(self.first_level));
        put("invulnerable", json!({"start": self.invulnerable[0], "length": self.invulnerable[1]}));
        put("flags", json!(self.flags));
        put("direct_animations", json!(self.direct_animations));
        put("used_parts", json!(self.used_parts));
        put("replace_parts", json!(self.replace_parts));
        put("final_rotation", json!(self.final_rotation));
        put("move_direction", json!(self.move_direction));
        put("vocalization", json!(self.vocalization));
        put("hard_pause", json!(self.hard_pause));
        put("soft_pause", json!(self.soft_pause));
        put("attack_name", json!(self.attack_name));
        put(
            "extents",
            json!({
                "max_distance": self.ring_max_distance,
                "min_height": self.ring_min_height,
                "max_height": self.ring_max_height,
                "ring": self.ring.to_vec(),
                "longest_reach_angle": self.max_attack.angle,
                "first_attack": bound_json(&self.first_attack),
                "max_attack": bound_json(&self.max_attack),
                "computed_direction": self.computed_direction,
                "attack_points": self.attack_extents.iter().map(|e| json!({
                    "frame": e.frame,
                    "angle": e.angle as f64 * (std::f64::consts::TAU / 65535.0),
                    "angle_raw": e.angle,
                    "distance": e.distance as f64 * 0.01,
                    "min_height": e.min_height as f64 * 0.01,
                    "max_height": e.max_height as f64 * 0.01,
                })).collect::<Vec<_>>(),
            }),
        );
        // Per-frame arrays (heights, motion, position points) are in `sample --json`, one
        // frame at a time, so that `list --json` of a whole level stays small.
        put(
            "attacks",
            json!(self
                .attacks
                .iter()
                .map(|a| json!({
                    "damage_bits": a.damage_bits, "knockback": a.knockback, "flags": a.flags,
                    "damage": a.damage, "first_frame": a.first_frame, "last_frame": a.last_frame,
                    "damage_animation": a.damage_animation, "hit_stun": a.hit_stun,
                    "block_stun": a.block_stun, "stagger": a.stagger, "precedence": a.precedence,
                    "extent_index": a.extent_index,
                }))
                .collect::<Vec<_>>()),
        );
        put(
            "self_damage",
            json!(self.damages.iter().map(|d| json!({"damage": d[0], "frame": d[1]})).collect::<Vec<_>>()),
        );
        put(
            "blurs",
            json!(self
                .blurs
                .iter()
                .map(|x| json!({"parts": x.parts, "first_frame": x.first_frame, "last_frame": x.last_frame,
                    "lifetime": x.lifetime, "alpha": x.alpha, "interval": x.interval}))
                .collect::<Vec<_>>()),
        );
        put(
            "shortcuts",
            json!(self
                .shortcuts
                .iter()
                .map(|x| json!({"from_state": x[0], "length": x[1], "flags": x[2]}))
                .collect::<Vec<_>>()),
        );
        put(
            "throw",
            match &self.throw {
                Some(x) => json!({"offset": x.offset, "facing": x.facing, "distance": x.distance,
                    "victim_type": x.victim_type}),
                None => Value::Null,
            },
        );
        put(
            "footsteps",
            json!(self.footsteps.iter().map(|f| json!({"frame": f[0], "type": f[1]})).collect::<Vec<_>>()),
        );
        put(
            "particles",
            json!(self
                .particles
                .iter()
                .map(|p| json!({"start": p.start, "stop": p.stop, "part": p.part, "name": p.name}))
                .collect::<Vec<_>>()),
        );
        put("sounds", json!(self.sounds.iter().map(|(n, f)| json!({"name": n, "frame": f})).collect::<Vec<_>>()));
        put("has_position_points", json!(!self.positions.is_empty()));
        put("keys_per_part", json!(self.streams.iter().map(|s| s.keys).collect::<Vec<_>>()));
        m
    }

    /// Per-frame fields at `frame`, for `sample --json`.
    pub fn frame_json(&self, frame: usize) -> Map<String, Value> {
        let f = frame as u32;
        let mut m = Map::new();
        let pos = self.position(frame);
        m.insert("height".into(), json!(self.height(frame)));
        m.insert("velocity".into(), json!(self.velocities.get(frame).copied().unwrap_or([0.0, 0.0])));
        m.insert("position".into(), json!([pos[0], 0.0, pos[1]]));
        if let Some(p) = self.positions.get(frame) {
            m.insert(
                "position_point".into(),
                json!({"x": p.x as f64 * 0.01, "z": p.z as f64 * 0.01,
                    "toe_to_head": p.toe_to_head as f64 * 0.01, "floor_to_toe": p.floor_to_toe as f64 * 0.01}),
            );
        }
        let active: Vec<usize> = self
            .attacks
            .iter()
            .enumerate()
            .filter(|(_, a)| (a.first_frame as u32..=a.last_frame as u32).contains(&f))
            .map(|(i, _)| i)
            .collect();
        m.insert("attacks".into(), json!(active));
        let dmg: u32 = self.damages.iter().filter(|d| d[1] as u32 == f).map(|d| d[0] as u32).sum();
        m.insert("self_damage".into(), json!(dmg));
        let (s, l) = (self.invulnerable[0] as u32, self.invulnerable[1] as u32);
        m.insert("invulnerable".into(), json!(f >= s && f < s + l));
        m.insert("atomic".into(), json!(f >= self.atomic[0] as u32 && f <= self.atomic[1] as u32));
        m.insert(
            "footsteps".into(),
            json!(self.footsteps.iter().filter(|x| x[0] as u32 == f).map(|x| x[1]).collect::<Vec<_>>()),
        );
        m.insert(
            "sounds".into(),
            json!(self.sounds.iter().filter(|x| x.1 as u32 == f).map(|x| x.0.clone()).collect::<Vec<_>>()),
        );
        m.insert(
            "particles".into(),
            json!(self
                .particles
                .iter()
                .filter(|p| (p.start as u32..=p.stop as u32).contains(&f))
                .map(|p| p.name.clone())
                .collect::<Vec<_>>()),
        );
        m.insert(
            "blurs".into(),
            json!(self
                .blurs
                .iter()
                .enumerate()
                .filter(|(_, b)| (b.first_frame as u32..=b.last_frame as u32).contains(&f))
                .map(|(i, _)| i)
                .collect::<Vec<_>>()),
        );
        m
    }
}

fn bound_json(b: &AttackBound) -> Value {
    json!({"frame": b.frame, "attack_index": b.attack_index, "extent_index": b.extent_index,
        "position": b.position, "distance": b.distance, "min_height": b.min_height,
        "max_height": b.max_height, "angle": b.angle})
}

/// Check the rotation block: the offset table inside the raw data, every stream inside it,
/// every part's gaps adding up to frames − 1 exactly, no stream running into the next one.
/// Returns the block's length (up to the end of the last stream) and the streams.
pub fn walk_block(block: &Reader<'_>, parts: usize, frames: usize, ks: usize) -> Result<(usize, Vec<Stream>)> {
    let data = block.data();
    if frames == 0 || ks == 0 {
        return Err(block.error_at(0, format!("{frames} frames, key size {ks}: nothing to walk")));
    }
    let table = parts.saturating_mul(2);
    if table > data.len() {
        return Err(block.error_at(
            0,
            format!("the offset table ({parts} parts, {table} bytes) runs past the end of the raw data"),
        ));
    }
    let mut starts = Vec::with_capacity(parts);
    let mut r = block.clone();
    for p in 0..parts {
        let off = r.u16()? as usize;
        if off >= data.len() {
            return Err(
                block.error_at(2 * p, format!("part {p}'s stream offset {off:#x} is past the end of the raw data"))
            );
        }
        starts.push(off);
    }
    let last_frame = frames - 1;
    let mut streams = Vec::with_capacity(parts);
    for (p, &start) in starts.iter().enumerate() {
        // The stream may not run into another part's stream that starts after it.
        let limit = starts.iter().copied().filter(|&s| s > start).min().unwrap_or(data.len());
        let mut pos = start;
        let mut sum = 0usize;
        let mut nkeys = 0usize;
        let overrun = |pos: usize, sum: usize, why: &str| {
            block.error_at(
                pos,
                format!(
                    "part {p}: {why} after gaps adding up to {sum}; they must add up to frames - 1 = {last_frame} (the last key must be on the last frame)"
                ),
            )
        };
        if pos + ks > limit {
            return Err(overrun(pos, sum, "the first key runs past the stream's end"));
        }
        pos += ks;
        nkeys += 1;
        while sum < last_frame {
            if pos + 1 + ks > limit {
                let why = if limit == data.len() {
                    "the stream runs past the end of the raw data"
                } else {
                    "the stream runs into the next part's stream"
                };
                return Err(overrun(pos, sum, why));
            }
            let gap = data[pos] as usize;
            sum += gap;
            if sum > last_frame {
                return Err(overrun(pos, sum, "a gap overruns the frames"));
            }
            pos += 1 + ks;
            nkeys += 1;
        }
        // Only float keys can hold a value that is not finite: the other sizes are integers
        // scaled or looked up, so their keys are not decoded here (a 6-byte key costs three
        // sines and cosines).
        let float_keys = if ks == 16 { nkeys } else { 0 };
        for k in 0..float_keys {
            let at = if k == 0 { start } else { start + ks + (k - 1) * (ks + 1) + 1 };
            if let Some(q) = data.get(at..at + ks).and_then(|b| keys::decode(ks as u16, b)) {
                if q.iter().any(|c| !c.is_finite()) {
                    return Err(block.error_at(at, format!("part {p}: key {k} is not finite")));
                }
            }
        }
        streams.push(Stream { start, end: pos, keys: nkeys });
    }
    let end = streams.iter().map(|s| s.end).max().unwrap_or(table).max(table);
    if end > data.len() {
        return Err(block.error_at(0, "rotation block past the end"));
    }
    Ok((end, streams))
}
