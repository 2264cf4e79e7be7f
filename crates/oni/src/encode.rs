//! boneyard's own Oni writer: TRAM (every key size), M3GM with its arrays, TRGA/TRTA/TRIA,
//! TRCM, TRBS, and the two containers in OniSplit's layout: the single-file `.oni` (VR32,
//! raw table inside) and a level `.dat` (VR31) with its `.raw`.
//!
//! Layout facts (from the OniSplit fixtures): in a `.oni`, the name block follows the
//! descriptors and the data block the names, both 32-aligned; every instance is 32-aligned;
//! a descriptor's size counts the 8-byte pre-data but not the padding; the data block's
//! length is rounded up to 32 (the padding after the last instance is not written); the raw
//! table follows, starting with 32 zero bytes, every array 32-aligned, its length exact. In a
//! level, instances are packed, the name descriptors are sorted by name, the template
//! descriptors by tag, the pre-data holds `(index << 8) | 1` and the level's file id
//! `(level << 25) | 1`, the file ends with the name block, and the `.raw` starts with 32 zero
//! bytes.
//!
//! Bodies are laid out as OniSplit writes them: the TRBS, then per distinct TRCM the TRCM,
//! TRGA, TRTA, TRIA and per part the M3GM followed by its PNTA, VCRA (vertex normals), VCRA
//! (triangle normals), TXCA, IDXA (strips), IDXA (triangle normal indices). OniSplit's
//! `GeometryDatReader` reads all six M3GM links without checking, so none is ever 0: a mesh
//! without normals gets OniSplit's generated ones, a mesh without texture coordinates zeros
//! (see [`geometry_instances`]). `TRBSfixture_body19.oni`, `TRBSfixture_lod5.oni` and
//! `M3GMfixture_box.oni` re-encode byte for byte (`tests/bodies.rs`).

use crate::body::{links_from_parents, Body};
use crate::layout::{self, array as arr, header as h, m3gm as g, tram as t, trcm};
use crate::math::{EQuat, ANGLE_STEP_6};
use crate::tram::{AttackBound, Stream, Tram};
use boneyard_core::{Endian, Error, Mesh, Result, Writer};
use bytes::Bytes;
use glam::Vec3;

/// One instance to write.
#[derive(Debug, Clone, Default)]
pub struct Instance {
    /// The template tag ([`crate::layout::tag`] of its four characters).
    pub tag: u32,
    /// The full name with the tag prefix ("TRAMKONOKOidle1"); None for an unnamed instance.
    pub name: Option<String>,
    /// The struct (and its variable array), without the pre-data.
    pub data: Vec<u8>,
    /// Raw arrays: the struct offset of the u32 that points at them, and their bytes.
    pub raw: Vec<(usize, Vec<u8>)>,
    /// Links: the struct offset of the u32, and the index of the target instance.
    pub links: Vec<(usize, usize)>,
    /// A placeholder: no data here, defined by name in another file (a level's links into
    /// `level0_Final`).
    pub placeholder: bool,
}

impl Instance {
    /// A placeholder for `name` (with its tag prefix), defined in another file.
    pub fn placeholder(tag: u32, name: &str) -> Instance {
        Instance { tag, name: Some(name.to_string()), placeholder: true, ..Default::default() }
    }
}

fn align(n: usize, a: usize) -> usize {
    n.div_ceil(a) * a
}

/// Template checksums of the retail PC build (template descriptors of a level).
fn template_checksum(tag: u32) -> u64 {
    match &layout::tag_name(tag)[..] {
        "IDXA" => 0x2708f,
        "M3GM" => 0x27a078e436,
        "PNTA" => 0x37676c,
        "TRAM" => 0x107e3cc918,
        "TRBS" => 0x2a2924239,
        "TRCM" => 0x2392de054e,
        "TRGA" => 0x5206b20f8,
        "TRIA" => 0xac482,
        "TRTA" => 0x759e8,
        "TXCA" => 0x9141a,
        "VCRA" => 0x54739,
        _ => 0,
    }
}

fn check_links(instances: &[Instance]) -> Result<()> {
    for (i, inst) in instances.iter().enumerate() {
        for &(at, target) in &inst.links {
            if target >= instances.len() || at + 4 > inst.data.len() {
                return Err(Error::invalid(0, format!("instance {i}: link at {at:#x} to {target} is out of range")));
            }
        }
        for (at, _) in &inst.raw {
            if at + 4 > inst.data.len() {
                return Err(Error::invalid(0, format!("instance {i}: raw field at {at:#x} is out of range")));
            }
        }
    }
    Ok(())
}

/// Place the raw arrays: each 32-aligned after `start`; patch the struct fields with
/// `base + offset`. Returns the raw bytes from `start` on.
fn place_raw(instances: &mut [Instance], start: usize) -> Vec<u8> {
    let mut raw = vec![0u8; start];
    for inst in instances.iter_mut() {
        for (at, bytes) in std::mem::take(&mut inst.raw) {
            if bytes.is_empty() {
                continue;
            }
            raw.resize(align(raw.len(), 32), 0);
            let off = raw.len() as u32;
            inst.data[at..at + 4].copy_from_slice(&off.to_le_bytes());
            raw.extend_from_slice(&bytes);
        }
    }
    raw
}

fn patch_links(instances: &mut [Instance]) {
    for inst in instances.iter_mut() {
        for &(at, target) in &inst.links {
            inst.data[at..at + 4].copy_from_slice(&layout::make_link(target).to_le_bytes());
        }
    }
}

fn header(w: &mut Writer, version: u32, counts: [usize; 3], data: (usize, usize), names: (usize, usize)) {
    w.bytes(&h::CHECKSUM_PC_RETAIL.to_le_bytes());
    w.u32(version);
    w.u16(64).u16(20).u16(16).u16(8);
    for c in counts {
        w.u32(c as u32);
    }
    w.u32(data.0 as u32).u32(data.1 as u32).u32(names.0 as u32).u32(names.1 as u32);
}

/// A single `.oni` file (VR32) as OniSplit writes it.
pub fn write_oni(instances: &[Instance]) -> Result<Vec<u8>> {
    check_links(instances)?;
    if instances.iter().any(|i| i.placeholder) {
        return Err(Error::unsupported("placeholders in a .oni (write a level)"));
    }
    let mut inst = instances.to_vec();
    patch_links(&mut inst);
    let raw = place_raw(&mut inst, 32);
    let n = inst.len();
    // Names.
    let mut names = Vec::new();
    let mut name_offsets = Vec::with_capacity(n);
    for i in &inst {
        name_offsets.push(names.len());
        if let Some(nm) = &i.name {
            names.extend_from_slice(nm.as_bytes());
            names.push(0);
        }
    }
    let name_block = align(h::SIZE + n * h::SIZE_INSTANCE_DESCRIPTOR, 32);
    let data_block = align(name_block + names.len(), 32);
    // Instances, 32-aligned, each with its pre-data.
    let mut data = Vec::new();
    let mut offsets = Vec::with_capacity(n);
    for (k, i) in inst.iter().enumerate() {
        data.resize(align(data.len(), 32), 0);
        data.extend_from_slice(&layout::make_link(k).to_le_bytes());
        data.extend_from_slice(&0u32.to_le_bytes());
        offsets.push(data.len());
        data.extend_from_slice(&i.data);
    }
    let data_len = align(data.len(), 32);
    let raw_table = data_block + data_len;
    let has_raw = raw.len() > 32;
    let mut w = Writer::new(Endian::Little);
    header(&mut w, h::VERSION_VR32, [n, 0, 0], (data_block, data_len), (name_block, names.len()));
    if has_raw {
        w.u32(raw_table as u32).u32(raw.len() as u32);
    } else {
        w.u32(0).u32(0);
    }
    w.zeros(8);
    for (k, i) in inst.iter().enumerate() {
        w.u32(i.tag).u32(offsets[k] as u32);
        w.u32(if i.name.is_some() { name_offsets[k] as u32 } else { 0 });
        w.u32((i.data.len() + 8) as u32);
        w.u32(if i.name.is_some() { 0 } else { layout::descriptor::FLAG_UNIQUE });
    }
    w.zeros(name_block - w.len());
    w.bytes(&names);
    w.zeros(data_block - w.len());
    w.bytes(&data);
    if has_raw {
        w.zeros(raw_table - w.len());
        w.bytes(&raw);
    }
    Ok(w.into_bytes())
}

/// A level: the `.dat` (VR31) and its `.raw`, for level number `level`.
pub fn write_level(instances: &[Instance], level: u8) -> Result<(Vec<u8>, Vec<u8>)> {
    check_links(instances)?;
    let mut inst = instances.to_vec();
    patch_links(&mut inst);
    let raw = place_raw(&mut inst, 32);
    let n = inst.len();
    let file_id = ((level as u32 & 0x7f) << 25) | 1;
    let mut names = Vec::new();
    let mut name_offsets = vec![0usize; n];
    let mut named: Vec<usize> = (0..n).filter(|&k| inst[k].name.is_some()).collect();
    for &k in &named {
        name_offsets[k] = names.len();
        names.extend_from_slice(inst[k].name.as_deref().unwrap_or("").as_bytes());
        names.push(0);
    }
    named.sort_by(|&a, &b| inst[a].name.cmp(&inst[b].name));
    let mut tags: Vec<u32> = inst.iter().map(|i| i.tag).collect();
    tags.sort_by_key(|&t| layout::tag_name(t));
    tags.dedup();
    let mut data = Vec::new();
    let mut offsets = Vec::with_capacity(n);
    for (k, i) in inst.iter().enumerate() {
        if i.placeholder {
            offsets.push(0);
            continue;
        }
        data.extend_from_slice(&layout::make_link(k).to_le_bytes());
        data.extend_from_slice(&file_id.to_le_bytes());
        offsets.push(data.len());
        data.extend_from_slice(&i.data);
    }
    let descs_end = h::SIZE + n * 20 + named.len() * 8 + tags.len() * 16;
    let data_block = align(descs_end, 32);
    let name_block = align(data_block + data.len(), 32);
    let mut w = Writer::new(Endian::Little);
    header(&mut w, h::VERSION_VR31, [n, named.len(), tags.len()], (data_block, data.len()), (name_block, names.len()));
    w.zeros(16);
    for (k, i) in inst.iter().enumerate() {
        let size = if i.placeholder { 0 } else { i.data.len() + 8 };
        w.u32(i.tag).u32(offsets[k] as u32).u32(name_offsets[k] as u32).u32(size as u32);
        w.u32(match (i.placeholder, i.name.is_some()) {
            (true, _) => layout::descriptor::FLAG_PLACEHOLDER,
            (false, true) => 0,
            (false, false) => layout::descriptor::FLAG_UNIQUE,
        });
    }
    for &k in &named {
        w.u32(k as u32).u32(0);
    }
    for &tg in &tags {
        w.bytes(&template_checksum(tg).to_le_bytes());
        w.u32(tg).u32(inst.iter().filter(|i| i.tag == tg).count() as u32);
    }
    w.zeros(data_block - w.len());
    w.bytes(&data);
    w.zeros(name_block - w.len());
    w.bytes(&names);
    Ok((w.into_bytes(), raw))
}

// ------------------------------------------------------------------------------------------
// Keys

/// Euler angles (x, y, z) of an engine quaternion, such that its (transposed) matrix is
/// Rx(x)·Ry(y)·Rz(z) in column vectors; each in [0, 2π).
pub fn quat_to_xyz(q: EQuat) -> [f64; 3] {
    // The engine's matrix (MUrQuatToMatrix), in double: m[c][r].
    let [x, y, z, w] = q.map(|c| c as f64);
    let n = x * x + y * y + z * z + w * w;
    let s = if n > 0.0 { 2.0 / n } else { 0.0 };
    let (xx, yy, zz) = (x * x * s, y * y * s, z * z * s);
    let (xy, xz, yz) = (x * y * s, x * z * s, y * z * s);
    let (wx, wy, wz) = (w * x * s, w * y * s, w * z * s);
    let m =
        [[1.0 - (yy + zz), xy - wz, xz + wy], [xy + wz, 1.0 - (xx + zz), yz - wx], [xz - wy, yz + wx, 1.0 - (xx + yy)]];
    // M = Rx·Ry·Rz has row 0 = (cy cz, -cy sz, sy) and column 2 = (sy, -sx cy, cx cy).
    let r = |row: usize, col: usize| m[col][row];
    let sy = r(0, 2).clamp(-1.0, 1.0);
    let cy = (r(0, 0) * r(0, 0) + r(0, 1) * r(0, 1)).sqrt();
    let y = sy.atan2(cy);
    let (x, z) = if cy > 1e-9 {
        ((-r(1, 2)).atan2(r(2, 2)), (-r(0, 1)).atan2(r(0, 0)))
    } else {
        // Gimbal lock: put it all in x.
        (r(2, 1).atan2(r(1, 1)), 0.0)
    };
    [x, y, z].map(|a| a.rem_euclid(std::f64::consts::TAU))
}

/// The nearest 6-byte key (rounded, where Bungie's importer truncated).
pub fn encode6(q: EQuat) -> [u16; 3] {
    quat_to_xyz(q).map(|a| {
        let u = (a / ANGLE_STEP_6 as f64).round();
        if u >= 65535.5 {
            0
        } else {
            u as u16
        }
    })
}

/// One key of `size` bytes for engine quaternion `q`.
pub fn encode_key(size: u16, q: EQuat) -> Result<Vec<u8>> {
    let mut w = Writer::new(Endian::Little);
    match size {
        16 => {
            for c in q {
                w.f32(c);
            }
        }
        8 => {
            for c in q {
                w.i16((c.clamp(-1.0, 1.0) * 32767.0).round() as i16);
            }
        }
        4 => {
            for c in q {
                w.i8((c.clamp(-1.0, 1.0) * 127.0).round() as i8);
            }
        }
        6 => {
            for u in encode6(q) {
                w.u16(u);
            }
        }
        3 => {
            w.bytes(&encode3(q));
        }
        _ => return Err(Error::unsupported(format!("key size {size}"))),
    }
    Ok(w.into_bytes())
}

/// The nearest 3-byte key (searching the byte tables).
pub fn encode3(q: EQuat) -> [u8; 3] {
    let tr = crate::keys::byte_trig();
    let q = crate::math::quat_normalize(q);
    let q = if q[3] < 0.0 { q.map(|c| -c) } else { q };
    let angle = (0..256usize)
        .min_by(|&a, &b| (tr.cos_half[a] - q[3]).abs().total_cmp(&(tr.cos_half[b] - q[3]).abs()))
        .unwrap_or(0);
    let s = tr.sin_half[angle];
    let mut best = (f32::MAX, 0usize, 0usize);
    for lo in 0..256 {
        for la in 0..256 {
            let v = [tr.cos[lo] * tr.cos[la] * s, tr.sin[lo] * tr.cos[la] * s, tr.sin[la] * s];
            let d = (v[0] - q[0]).powi(2) + (v[1] - q[1]).powi(2) + (v[2] - q[2]).powi(2);
            if d < best.0 {
                best = (d, lo, la);
            }
        }
    }
    [best.1 as u8, best.2 as u8, angle as u8]
}

/// A rotation block from keys per part: `(frame, quaternion)` lists starting at frame 0 and
/// ending at `frames - 1`, gaps 1 to 255.
pub fn rotation_block(size: u16, frames: usize, parts: &[Vec<(usize, EQuat)>]) -> Result<(Vec<u8>, Vec<Stream>)> {
    if frames == 0 {
        return Err(Error::invalid(0, "an animation needs at least one frame"));
    }
    let mut out = vec![0u8; parts.len() * 2];
    let mut streams = Vec::with_capacity(parts.len());
    for (p, keys) in parts.iter().enumerate() {
        let start = out.len();
        if start > u16::MAX as usize {
            return Err(Error::ceiling(0, "rotation block over 64 KiB (u16 offsets)"));
        }
        out[2 * p..2 * p + 2].copy_from_slice(&(start as u16).to_le_bytes());
        let ok = keys.first().map(|k| k.0) == Some(0) && keys.last().map(|k| k.0) == Some(frames.saturating_sub(1));
        if !ok {
            return Err(Error::invalid(
                0,
                format!("part {p}: keys must start at frame 0 and end at frame {}", frames - 1),
            ));
        }
        for (k, &(f, q)) in keys.iter().enumerate() {
            if k > 0 {
                let gap = f.checked_sub(keys[k - 1].0).filter(|g| (1..=255).contains(g));
                let gap =
                    gap.ok_or_else(|| Error::invalid(0, format!("part {p}: gap before frame {f} is not 1..255")))?;
                out.push(gap as u8);
            }
            out.extend_from_slice(&encode_key(size, q)?);
        }
        streams.push(Stream { start, end: out.len(), keys: keys.len() });
    }
    Ok((out, streams))
}

// ------------------------------------------------------------------------------------------
// TRAM

/// A TRAM with the fields OniSplit gives an animation without extras (its sentinels
/// included): rotations must then be set with [`rotation_block`].
pub fn new_tram(name: &str, key_size: u16, parts: usize, frames: usize) -> Tram {
    let none = AttackBound {
        frame: 0xffff,
        attack_index: 0,
        extent_index: 0,
        position: [0.0; 3],
        distance: 0.0,
        min_height: 0.0,
        max_height: 0.0,
        angle: 0.0,
    };
    Tram {
        name: name.to_string(),
        file: String::new(),
        descriptor: 0,
        fps: t::ENGINE_FPS,
        key_size,
        kind: 6,
        aiming_type: 0,
        from_state: 7,
        to_state: 7,
        parts,
        frames,
        duration: frames as u16,
        varient: 0,
        varient_end: 0,
        atomic: [0, 0],
        interpolation: [0, 0],
        action_frame: -1,
        first_level: 0,
        invulnerable: [0, 0],
        flags: 0,
        direct_animations: [None, None],
        used_parts: 0,
        replace_parts: 0,
        final_rotation: 0.0,
        move_direction: 1,
        vocalization: 0xffff,
        ring_max_distance: 0.0,
        ring_min_height: 1e9,
        ring_max_height: -1e9,
        ring: [0.0; t::EXTENT_RING_SAMPLES],
        first_attack: none,
        max_attack: none,
        computed_direction: 0,
        attack_name: String::new(),
        hard_pause: 0,
        soft_pause: 0,
        heights: vec![0.0; frames],
        velocities: vec![[0.0; 2]; frames],
        attacks: vec![],
        damages: vec![],
        blurs: vec![],
        shortcuts: vec![],
        throw: None,
        footsteps: vec![],
        particles: vec![],
        positions: vec![],
        sounds: vec![],
        attack_extents: vec![],
        rotations: Bytes::new(),
        streams: vec![],
        rotations_at: (name.to_string(), 0),
    }
}

fn put_bound(w: &mut Writer, b: &AttackBound) {
    w.u16(b.frame).u8(b.attack_index).u8(b.extent_index);
    for c in b.position {
        w.f32(c);
    }
    w.f32(b.distance).f32(b.min_height).f32(b.max_height).f32(b.angle);
}

/// The TRAM instance of `tr` (name given with or without the "TRAM" prefix). Links of the
/// direct animations are not written.
pub fn tram_instance(tr: &Tram) -> Result<Instance> {
    if tr.heights.len() != tr.frames || tr.velocities.len() != tr.frames {
        return Err(Error::invalid(0, "heights and motion need one entry per frame"));
    }
    if tr.streams.len() != tr.parts || tr.rotations.is_empty() {
        return Err(Error::invalid(0, "rotation block missing (see encode::rotation_block)"));
    }
    let mut w = Writer::new(Endian::Little);
    w.zeros(t::FLAGS);
    w.u32(tr.flags).u32(0).u32(0).u32(tr.used_parts).u32(tr.replace_parts).f32(tr.final_rotation);
    w.u16(tr.move_direction).u16(tr.vocalization);
    w.f32(tr.ring_max_distance).f32(tr.ring_min_height).f32(tr.ring_max_height);
    for v in tr.ring {
        w.f32(v);
    }
    put_bound(&mut w, &tr.first_attack);
    put_bound(&mut w, &tr.max_attack);
    w.u32(tr.computed_direction).u32(tr.attack_extents.len() as u32).u32(0);
    w.name(&tr.attack_name, t::ATTACK_NAME_LEN);
    w.u16(tr.hard_pause).u16(tr.soft_pause).u32(tr.sounds.len() as u32).u32(0).u16(0);
    w.u16(tr.fps).u16(tr.key_size).u16(tr.kind).u16(tr.aiming_type).u16(tr.from_state).u16(tr.to_state);
    w.u16(tr.parts as u16).u16(tr.frames as u16).u16(tr.duration).u16(tr.varient).u16(tr.varient_end);
    w.u16(tr.atomic[0]).u16(tr.atomic[1]).u16(tr.interpolation[0]).u16(tr.interpolation[1]);
    w.i16(tr.action_frame).u16(tr.first_level);
    let counts = [
        tr.invulnerable[0],
        tr.invulnerable[1],
        tr.attacks.len() as u8,
        tr.damages.len() as u8,
        tr.blurs.len() as u8,
        tr.shortcuts.len() as u8,
        tr.footsteps.len() as u8,
        tr.particles.len() as u8,
    ];
    w.bytes(&counts);
    debug_assert_eq!(w.len(), t::SIZE);
    let data = w.into_bytes();

    let arr = |f: &dyn Fn(&mut Writer)| {
        let mut w = Writer::new(Endian::Little);
        f(&mut w);
        w.into_bytes()
    };
    let mut raw = Vec::new();
    raw.push((t::HEIGHTS, arr(&|w| tr.heights.iter().for_each(|&v| ignore(w.f32(v))))));
    raw.push((t::POSITIONS, arr(&|w| tr.velocities.iter().for_each(|v| ignore(w.f32(v[0]).f32(v[1]))))));
    raw.push((
        t::ATTACKS,
        arr(&|w| {
            for a in &tr.attacks {
                w.u32(a.damage_bits).f32(a.knockback).u32(a.flags).u16(a.damage).u16(a.first_frame);
                w.u16(a.last_frame).u16(a.damage_animation).u16(a.hit_stun).u16(a.block_stun);
                w.u16(a.stagger).u16(a.precedence).u16(a.extent_index).u16(0);
            }
        }),
    ));
    raw.push((t::TAKE_DAMAGES, arr(&|w| tr.damages.iter().for_each(|d| ignore(w.u16(d[0]).u16(d[1]))))));
    raw.push((
        t::BLURS,
        arr(&|w| {
            for b in &tr.blurs {
                w.u32(b.parts).u16(b.first_frame).u16(b.last_frame).u8(b.lifetime).u8(b.alpha).u8(b.interval).u8(0);
            }
        }),
    ));
    raw.push((
        t::SHORTCUTS,
        arr(&|w| tr.shortcuts.iter().for_each(|s| ignore(w.u16(s[0] as u16).u16(s[1] as u16).u32(s[2])))),
    ));
    raw.push((
        t::THROW,
        arr(&|w| {
            if let Some(x) = &tr.throw {
                w.f32(x.offset[0]).f32(x.offset[1]).f32(x.offset[2]).f32(x.facing).f32(x.distance).u16(x.victim_type);
            }
        }),
    ));
    raw.push((t::FOOTSTEPS, arr(&|w| tr.footsteps.iter().for_each(|f| ignore(w.u16(f[0]).u16(f[1]))))));
    raw.push((
        t::PARTICLES,
        arr(&|w| {
            for p in &tr.particles {
                w.u16(p.start).u16(p.stop).u16(p.part).u16(0).name(&p.name, t::PARTICLE_NAME_LEN);
            }
        }),
    ));
    raw.push((
        t::POSITION_POINTS,
        arr(&|w| tr.positions.iter().for_each(|p| ignore(w.i16(p.x).i16(p.z).u16(p.toe_to_head).i16(p.floor_to_toe)))),
    ));
    raw.push((t::ROTATIONS, tr.rotations.to_vec()));
    raw.push((t::SOUNDS, arr(&|w| tr.sounds.iter().for_each(|(n, f)| ignore(w.name(n, t::SOUND_NAME_LEN).u16(*f))))));
    raw.push((
        t::ATTACK_EXTENTS,
        arr(&|w| {
            for e in &tr.attack_extents {
                w.u16(e.frame).u16(e.angle).u16(e.distance).u16(0).i16(e.min_height).i16(e.max_height);
            }
        }),
    ));
    let name = if tr.name.starts_with("TRAM") { tr.name.clone() } else { format!("TRAM{}", tr.name) };
    Ok(Instance { tag: layout::TRAM, name: Some(name), data, raw, ..Default::default() })
}

// ------------------------------------------------------------------------------------------
// Bodies

fn list_instance(tag: u32, count_at: usize, elems_at: usize, count: usize, elems: Vec<u8>) -> Instance {
    let mut data = vec![0u8; elems_at];
    data[count_at..count_at + 4].copy_from_slice(&(count as u32).to_le_bytes());
    data.extend_from_slice(&elems);
    Instance { tag, data, ..Default::default() }
}

fn vec3_bytes(v: &[Vec3]) -> Vec<u8> {
    let mut w = Writer::new(Endian::Little);
    for p in v {
        w.f32(p.x).f32(p.y).f32(p.z);
    }
    w.into_bytes()
}

/// Zero bytes OniSplit appends after every TXCA's coordinates (60 unused coordinates; the
/// count field holds the real count).
pub const TXCA_PADDING: usize = 480;

/// `v` scaled to unit length as OniSplit's `Vector3.Normalize` does it (f32, times the
/// reciprocal of the length); a zero vector stays zero (OniSplit would write NaNs).
fn normalize_f32(v: Vec3) -> Vec3 {
    let len = ((v.x * v.x + v.y * v.y) + v.z * v.z).sqrt();
    if len > 0.0 {
        v * (1.0 / len)
    } else {
        Vec3::ZERO
    }
}

/// The triangles of strips as OniSplit lists them (`Stripify.ToTriangleList`): every other
/// triangle of a strip with its first two corners swapped, so all keep the first one's
/// winding. None when the strips are malformed.
pub fn strip_triangles(strips: &[u32]) -> Option<Vec<[u32; 3]>> {
    let mut out = Vec::new();
    let mut i = 0;
    let mut win = [0u32; 3];
    let mut k = 0usize;
    while i < strips.len() {
        let v = strips[i];
        if v & g::STRIP_START != 0 {
            win = [v & !g::STRIP_START, *strips.get(i + 1)?, *strips.get(i + 2)?];
            i += 3;
            k = 0;
        } else {
            if out.is_empty() {
                return None;
            }
            win = [win[1], win[2], v];
            i += 1;
            k += 1;
        }
        out.push(if !k.is_multiple_of(2) { [win[1], win[0], win[2]] } else { win });
    }
    Some(out)
}

/// Whether `strips` still describe `mesh`: walked as the engine walks them (no winding flip)
/// they give the mesh's triangles in order, each as stored or with its last two corners
/// swapped (the reader orients triangles that way), all within the points.
fn strips_describe(strips: &[u32], mesh: &Mesh) -> bool {
    let tris = mesh.indices.len() / 3;
    if strips.is_empty() || !mesh.indices.len().is_multiple_of(3) {
        return false;
    }
    let Ok(walked) = crate::body::walk_strips(strips, Some(tris), mesh.positions.len()) else { return false };
    // The walk must use every index (nothing left after the last triangle).
    let Some(listed) = strip_triangles(strips) else { return false };
    listed.len() == tris
        && walked
            .chunks_exact(3)
            .zip(mesh.indices.chunks_exact(3))
            .all(|(w, m)| w[0] == m[0] && ((w[1] == m[1] && w[2] == m[2]) || (w[1] == m[2] && w[2] == m[1])))
}

/// Vertex normals as OniSplit generates them for a mesh that has none (its DAE/OBJ import
/// without normals): vertices at the same position share one normal, the sum over the
/// triangles touching it of the triangle's unit normal times the triangle's angle at its
/// first corner, normalized (f32, the angle by a double atan2 rounded to f32). Not checked
/// against an OniSplit file (every fixture has normals): it follows what OniSplit is known to do.
pub fn generated_normals(positions: &[Vec3], indices: &[u32]) -> Vec<Vec3> {
    // One slot per distinct position, as OniSplit de-duplicates them (f32 equality: -0 is 0).
    let mut slot_of: std::collections::HashMap<[u32; 3], usize> = std::collections::HashMap::new();
    let slots: Vec<usize> = positions
        .iter()
        .map(|p| {
            let n = slot_of.len();
            let key = p.to_array().map(|c| if c == 0.0 { 0 } else { c.to_bits() });
            *slot_of.entry(key).or_insert(n)
        })
        .collect();
    let mut sum = vec![Vec3::ZERO; slot_of.len()];
    for t in indices.chunks_exact(3) {
        let Some([a, b, c]) = t
            .iter()
            .map(|&i| positions.get(i as usize).copied())
            .collect::<Option<Vec<_>>>()
            .map(|v| [v[0], v[1], v[2]])
        else {
            continue;
        };
        let (e1, e2) = (b - a, c - a);
        let n = e1.cross(e2);
        let len = ((n.x * n.x + n.y * n.y) + n.z * n.z).sqrt();
        let dot = (e1.x * e2.x + e1.y * e2.y) + e1.z * e2.z;
        let angle = (len as f64).atan2(dot as f64) as f32;
        let w = normalize_f32(n) * angle;
        for &i in t {
            sum[slots[i as usize]] += w;
        }
    }
    slots.iter().map(|&s| normalize_f32(sum[s])).collect()
}

/// The M3GM of `mesh` (positions in the part's space) and its six arrays, laid out as
/// OniSplit's `GeometryDatWriter` writes them: M3GM first, then PNTA, VCRA (vertex normals),
/// VCRA (triangle normals), TXCA, IDXA (strips), IDXA (triangle normal indices), every link
/// present. Appended to `out`; returns the M3GM's index. `name` (with or without the "M3GM"
/// prefix) names it, as `-create:m3gm` does; body geometries are unnamed.
///
/// * PNTA: bounding box = per-axis min/max; bounding sphere = the mean of the points (f32 sum
///   times the reciprocal of the count) and the largest distance to it (OniSplit's).
/// * Vertex normals: the mesh's; without them (or of the wrong count), OniSplit's generated
///   ones ([`generated_normals`]).
/// * Texture coordinates: the mesh's; without them zero for every point (what OniSplit
///   writes for a source without coordinates), then [`TXCA_PADDING`] zero bytes.
/// * Strips: `strips` when they still describe the mesh (a geometry read from a file, so
///   OniSplit's own strips come back); otherwise every triangle is its own strip (OniSplit's
///   stripifier is not reproduced; its reader and the engine read both the same way).
/// * Triangle normals: one per triangle of the strips as OniSplit lists them
///   ([`strip_triangles`]), normalize(cross(b − a, c − a)) in f32; their indices 0, 1, 2, ….
pub fn geometry_instances(mesh: &Mesh, strips: Option<&[u32]>, name: Option<&str>, out: &mut Vec<Instance>) -> usize {
    let pts = &mesh.positions;
    let n = pts.len();
    let m3gm = out.len();
    let name = name.map(|s| if s.starts_with("M3GM") { s.to_string() } else { format!("M3GM{s}") });
    out.push(Instance { tag: layout::M3GM, name, data: vec![0u8; g::SIZE], ..Default::default() });
    // PNTA
    let (lo, hi) = pts.iter().fold((Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)), |(a, b), &p| (a.min(p), b.max(p)));
    let (lo, hi) = if pts.is_empty() { (Vec3::ZERO, Vec3::ZERO) } else { (lo, hi) };
    let centre =
        if pts.is_empty() { Vec3::ZERO } else { pts.iter().fold(Vec3::ZERO, |s, &p| s + p) * (1.0 / n as f32) };
    let radius = pts
        .iter()
        .map(|&p| {
            let d = centre - p;
            (d.x * d.x + d.y * d.y) + d.z * d.z
        })
        .fold(0.0f32, |m, d| if d > m { d } else { m })
        .sqrt();
    let mut pnta = vec![0u8; g::PNTA_ELEMENTS];
    let mut w = Writer::new(Endian::Little);
    for v in [lo.x, lo.y, lo.z, hi.x, hi.y, hi.z, centre.x, centre.y, centre.z, radius] {
        w.f32(v);
    }
    pnta[g::PNTA_BBOX..g::PNTA_BBOX + 40].copy_from_slice(&w.into_bytes());
    pnta[g::PNTA_COUNT..g::PNTA_COUNT + 4].copy_from_slice(&(n as u32).to_le_bytes());
    pnta.extend_from_slice(&vec3_bytes(pts));
    let mut links = vec![(g::POINTS, out.len())];
    out.push(Instance { tag: layout::PNTA, data: pnta, ..Default::default() });
    // Vertex normals.
    let normals = match &mesh.normals {
        Some(v) if v.len() == n => v.clone(),
        _ => generated_normals(pts, &mesh.indices),
    };
    links.push((g::VERTEX_NORMALS, out.len()));
    out.push(list_instance(layout::VCRA, g::LIST_COUNT, g::LIST_ELEMENTS, n, vec3_bytes(&normals)));
    // Strips, and the triangles OniSplit derives its triangle normals from.
    let strips: Vec<u32> = match strips {
        Some(s) if strips_describe(s, mesh) => s.to_vec(),
        _ => mesh.indices.chunks_exact(3).flat_map(|t| [t[0] | g::STRIP_START, t[1], t[2]]).collect(),
    };
    let tris = strip_triangles(&strips).unwrap_or_default();
    let tri_normals: Vec<Vec3> = tris
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| pts.get(i as usize).copied().unwrap_or(Vec3::ZERO));
            normalize_f32((b - a).cross(c - a))
        })
        .collect();
    links.push((g::TRIANGLE_NORMALS, out.len()));
    out.push(list_instance(layout::VCRA, g::LIST_COUNT, g::LIST_ELEMENTS, tri_normals.len(), vec3_bytes(&tri_normals)));
    // Texture coordinates.
    let mut w = Writer::new(Endian::Little);
    match &mesh.uvs {
        Some(uv) if uv.len() == n => uv.iter().for_each(|t| ignore(w.f32(t.x).f32(t.y))),
        _ => ignore(w.zeros(8 * n)),
    }
    w.zeros(TXCA_PADDING);
    links.push((g::TEXCOORDS, out.len()));
    out.push(list_instance(layout::TXCA, g::LIST_COUNT, g::LIST_ELEMENTS, n, w.into_bytes()));
    // Strips and triangle normal indices.
    let mut w = Writer::new(Endian::Little);
    strips.iter().for_each(|&i| ignore(w.u32(i)));
    links.push((g::STRIPS, out.len()));
    out.push(list_instance(layout::IDXA, g::LIST_COUNT, g::LIST_ELEMENTS, strips.len(), w.into_bytes()));
    let mut w = Writer::new(Endian::Little);
    (0..tris.len() as u32).for_each(|k| ignore(w.u32(k)));
    links.push((g::TRIANGLE_NORMAL_INDICES, out.len()));
    out.push(list_instance(layout::IDXA, g::LIST_COUNT, g::LIST_ELEMENTS, tris.len(), w.into_bytes()));
    out[m3gm].links = links;
    m3gm
}

/// The TRCM of `body` and what it links, appended to `out` in OniSplit's order: TRCM, TRGA,
/// TRTA, TRIA, then each part's geometry ([`geometry_instances`]) in part order. `meshes`
/// are rigid meshes bound to their part (the first per part is used; parts without one get a
/// zero TRGA entry, which the engine skips); `meshes[k]` is offered `body.strips[k]`, used
/// only if those strips still describe it (see [`geometry_instances`]). The TRCM's polygon
/// count and debug name are the body's (OniSplit leaves both 0). Returns the TRCM's index.
pub fn trcm_instances(body: &Body, meshes: &[Mesh], out: &mut Vec<Instance>) -> Result<usize> {
    let parts = body.parts();
    if parts == 0 || parts > t::MAX_PARTS || body.parents.len() != parts {
        return Err(Error::invalid(0, format!("a body needs 1 to 32 parts with parents ({parts})")));
    }
    let trcm_at = out.len();
    let (trga, trta, tria) = (trcm_at + 1, trcm_at + 2, trcm_at + 3);
    let mut data = vec![0u8; trcm::SIZE];
    data[trcm::POLYGON_COUNT..trcm::POLYGON_COUNT + 4].copy_from_slice(&body.polygon_count.to_le_bytes());
    data[trcm::NUM_PARTS..trcm::NUM_PARTS + 2].copy_from_slice(&(parts as u16).to_le_bytes());
    let dn = body.debug_name.as_bytes();
    let k = dn.len().min(trcm::DEBUG_NAME_LEN - 1);
    data[trcm::DEBUG_NAME..trcm::DEBUG_NAME + k].copy_from_slice(&dn[..k]);
    out.push(Instance {
        tag: layout::TRCM,
        data,
        links: vec![(trcm::GEOMETRIES, trga), (trcm::TRANSLATIONS, trta), (trcm::INDEX_BLOCKS, tria)],
        ..Default::default()
    });
    let mut data = vec![0u8; arr::ELEMENTS + 4 * parts];
    data[arr::COUNT..arr::COUNT + 2].copy_from_slice(&(parts as u16).to_le_bytes());
    out.push(Instance { tag: layout::TRGA, data, ..Default::default() });
    let mut data = vec![0u8; arr::ELEMENTS];
    data[arr::COUNT..arr::COUNT + 2].copy_from_slice(&(parts as u16).to_le_bytes());
    for tr in &body.translations {
        for c in tr {
            data.extend_from_slice(&c.to_le_bytes());
        }
    }
    out.push(Instance { tag: layout::TRTA, data, ..Default::default() });
    let mut data = vec![0u8; arr::ELEMENTS];
    data[arr::COUNT..arr::COUNT + 2].copy_from_slice(&(parts as u16).to_le_bytes());
    for b in links_from_parents(&body.parents) {
        data.extend_from_slice(&b);
    }
    out.push(Instance { tag: layout::TRIA, data, ..Default::default() });
    let mut geoms: Vec<Option<(usize, &Mesh)>> = vec![None; parts];
    for (k, m) in meshes.iter().enumerate() {
        if let boneyard_core::MeshBinding::Rigid { bone } = m.binding {
            if bone < parts && geoms[bone].is_none() {
                geoms[bone] = Some((k, m));
            }
        }
    }
    let mut links = Vec::new();
    for (p, gm) in geoms.iter().enumerate() {
        if let Some((k, m)) = gm {
            let strips = body.strips.get(*k).map(Vec::as_slice);
            links.push((arr::ELEMENTS + 4 * p, geometry_instances(m, strips, None, out)));
        }
    }
    out[trga].links = links;
    Ok(trcm_at)
}

/// A TRBS named `name` (without prefix) whose five slots hold one TRCM of `body` (as
/// OniSplit's `-create:trbs` does), with one M3GM per part from `meshes` (see
/// `trcm_instances`). Returns the instances, the TRBS first, in OniSplit's order.
pub fn body_instances(name: &str, body: &Body, meshes: &[Mesh]) -> Result<Vec<Instance>> {
    let mut out = vec![Instance::default()];
    let trcm_at = trcm_instances(body, meshes, &mut out)?;
    out[0] = trbs_instance(name, [Some(trcm_at); layout::trbs::LODS]);
    Ok(out)
}

/// A TRBS whose five slots (lowest detail first) use `bodies[slots[k]]` (each with its own
/// meshes and strips), laid out as OniSplit writes a body set: the TRBS, then every body's
/// TRCM block (`trcm_instances`) in the order of `bodies`. A slot of None is a zero link.
pub fn body_set_instances(
    name: &str,
    bodies: &[Body],
    slots: [Option<usize>; layout::trbs::LODS],
) -> Result<Vec<Instance>> {
    if slots.iter().flatten().any(|&k| k >= bodies.len()) {
        return Err(Error::invalid(0, "a body set slot names a body not given"));
    }
    let mut out = vec![Instance::default()];
    let mut at = Vec::with_capacity(bodies.len());
    for b in bodies {
        at.push(trcm_instances(b, &b.meshes, &mut out)?);
    }
    out[0] = trbs_instance(name, slots.map(|s| s.map(|k| at[k])));
    Ok(out)
}

fn trbs_instance(name: &str, slots: [Option<usize>; layout::trbs::LODS]) -> Instance {
    Instance {
        tag: layout::TRBS,
        name: Some(format!("TRBS{name}")),
        data: vec![0u8; layout::trbs::SIZE],
        links: slots.iter().enumerate().filter_map(|(k, s)| s.map(|t| (4 * k, t))).collect(),
        ..Default::default()
    }
}

/// A character class (ONCC) linking body set `trbs` and animation collection `trac`
/// (instance indices); every other field zero.
pub fn oncc_instance(name: &str, trbs: usize, trac: Option<usize>) -> Instance {
    let mut links = vec![(layout::oncc::BODY_SET, trbs)];
    if let Some(t) = trac {
        links.push((layout::oncc::ANIMATIONS, t));
    }
    Instance {
        tag: layout::ONCC,
        name: Some(format!("ONCC{name}")),
        data: vec![0u8; layout::oncc::SIZE],
        links,
        ..Default::default()
    }
}

/// An animation collection (TRAC): entries (weight 100, virtual from-state 0, lookup 0) for
/// the TRAMs `trams` (instance indices), and an optional parent collection.
pub fn trac_instance(name: &str, trams: &[usize], parent: Option<usize>) -> Instance {
    let mut data = vec![0u8; arr::ELEMENTS];
    data[arr::COUNT..arr::COUNT + 2].copy_from_slice(&(trams.len() as u16).to_le_bytes());
    let mut links = Vec::new();
    if let Some(p) = parent {
        links.push((arr::TRAC_PARENT, p));
    }
    for (k, &t) in trams.iter().enumerate() {
        let at = data.len();
        data.extend_from_slice(&100u16.to_le_bytes());
        data.extend_from_slice(&[0u8; 10]);
        links.push((at + arr::TRAC_ENTRY_TRAM, t));
        debug_assert_eq!(data.len(), arr::ELEMENTS + (k + 1) * arr::TRAC_ENTRY_SIZE);
    }
    Instance { tag: layout::TRAC, name: Some(format!("TRAC{name}")), data, links, ..Default::default() }
}

/// Append `more` to `all`, shifting its links.
pub fn append(all: &mut Vec<Instance>, more: Vec<Instance>) {
    let base = all.len();
    for mut i in more {
        for l in &mut i.links {
            l.1 += base;
        }
        all.push(i);
    }
}

/// Discard the writer a chained write returns (closures over iterators).
fn ignore(_: &mut Writer) {}
