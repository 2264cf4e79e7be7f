//! Reading a TRAM: the struct's fields at their [`layout::tram`](crate::layout::tram)
//! offsets, each raw array checked against its count, the rotation block walked once.

use super::{walk_block, Attack, AttackBound, AttackExtent, Blur, Particle, PositionPoint, Throw, Tram};
use crate::container::InstanceFile;
use crate::layout::{tram as t, TRAM};
use boneyard_core::{limit, Error, Limits, Reader, Result};

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
    /// animation links (for the JSON), or None. Its raw arrays (sounds, attack extents) are
    /// bounded by `limits.max_tram_array`.
    pub fn read(
        file: &InstanceFile,
        index: usize,
        link_name: &dyn Fn(u32, u64) -> Option<String>,
        limits: &Limits,
    ) -> Result<Tram> {
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
        Self::read_struct(file, index, name, s, link_name, limits)
    }

    fn read_struct(
        file: &InstanceFile,
        index: usize,
        name: String,
        s: Reader<'_>,
        link_name: &dyn Fn(u32, u64) -> Option<String>,
        limits: &Limits,
    ) -> Result<Tram> {
        let max_array = limit!(limits, max_tram_array);
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
        // The u8 fields (the raw arrays' counts, the invulnerable range): inside the struct,
        // whose size was checked, but read as every field is, an error past its end.
        let b = |off: usize| -> Result<u8> {
            let mut r = s.clone();
            r.seek(off)?;
            r.u8()
        };
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
            file.raw_slice(off, count * size, at(field), format_args!("TRAM {name}: {what}")).map(Some)
        };
        let raw_err = |e: Error| e.in_file(file.raw_name());

        let mut heights = Vec::new();
        let mut velocities = Vec::new();
        // frames >= 1, so both arrays are required (a raw offset of 0 is an error).
        // Read as one slice each (checked by `array`'s length), the floats little-endian as
        // all of Oni's raw data: a level has hundreds of thousands of frames.
        let f32_at = |c: &[u8], i: usize| f32::from_le_bytes([c[i], c[i + 1], c[i + 2], c[i + 3]]);
        if let Some(mut r) = array(t::HEIGHTS, frames, 4, "heights")? {
            heights = r.bytes(frames * 4).map_err(raw_err)?.chunks_exact(4).map(|c| f32_at(c, 0)).collect();
        }
        if let Some(mut r) = array(t::POSITIONS, frames, 8, "motion")? {
            let xz = r.bytes(frames * 8).map_err(raw_err)?;
            velocities = xz.chunks_exact(8).map(|c| [f32_at(c, 0), f32_at(c, 4)]).collect();
        }
        let mut attacks = Vec::new();
        if let Some(mut r) = array(t::ATTACKS, b(t::NUM_ATTACKS)? as usize, t::ATTACK_SIZE, "attacks")? {
            for _ in 0..b(t::NUM_ATTACKS)? {
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
        if let Some(mut r) = array(t::TAKE_DAMAGES, b(t::NUM_TAKE_DAMAGES)? as usize, t::TAKE_DAMAGE_SIZE, "damage")? {
            for _ in 0..b(t::NUM_TAKE_DAMAGES)? {
                damages.push([r.u16().map_err(raw_err)?, r.u16().map_err(raw_err)?]);
            }
        }
        let mut blurs = Vec::new();
        if let Some(mut r) = array(t::BLURS, b(t::NUM_BLURS)? as usize, t::BLUR_SIZE, "blurs")? {
            for _ in 0..b(t::NUM_BLURS)? {
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
        if let Some(mut r) = array(t::SHORTCUTS, b(t::NUM_SHORTCUTS)? as usize, t::SHORTCUT_SIZE, "shortcuts")? {
            for _ in 0..b(t::NUM_SHORTCUTS)? {
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
        if let Some(mut r) = array(t::FOOTSTEPS, b(t::NUM_FOOTSTEPS)? as usize, t::FOOTSTEP_SIZE, "footsteps")? {
            for _ in 0..b(t::NUM_FOOTSTEPS)? {
                footsteps.push([r.u16().map_err(raw_err)?, r.u16().map_err(raw_err)?]);
            }
        }
        let mut particles = Vec::new();
        if let Some(mut r) = array(t::PARTICLES, b(t::NUM_PARTICLES)? as usize, t::PARTICLE_SIZE, "particles")? {
            for _ in 0..b(t::NUM_PARTICLES)? {
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
        // Named at the count field.
        max_array.check(num_sounds, at(t::NUM_SOUNDS), "sounds").map_err(|e| e.in_file(fname))?;
        let num_sounds = num_sounds as usize;
        let mut sounds = Vec::new();
        if let Some(mut r) = array(t::SOUNDS, num_sounds, t::SOUND_SIZE, "sounds")? {
            for _ in 0..num_sounds {
                let nm = r.name(t::SOUND_NAME_LEN).map_err(raw_err)?;
                sounds.push((nm, r.u16().map_err(raw_err)?));
            }
        }
        max_array.check(num_extents, at(t::NUM_ATTACK_EXTENTS), "attack extents").map_err(|e| e.in_file(fname))?;
        let num_extents = num_extents as usize;
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
        let block = file.raw_from(rot_off, at(t::ROTATIONS), format_args!("TRAM {name}: rotations"))?;
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
            invulnerable: [b(t::INVULNERABLE_START)?, b(t::INVULNERABLE_LENGTH)?],
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
            rotations_at: file.raw_position(rot_off),
            streams,
        })
    }
}
