//! The project's own MOTN writer (the demo, fixtures, tests): standard five-block sequences
//! with the layout the reader expects from the real file (u8 counts, u8/u16 key frames,
//! 2-bit component counts, IEEE halves; the byte blocks packed, a zero pad byte before a block
//! of 16-bit values where it would start at an odd offset, as Sega laid out every sequence).

use crate::curve::Axis;
use crate::layout::motn as L;
use boneyard_core::{Endian, Error, Result, Writer};

/// Most frames of a standard sequence written: ShenmueDK reads block 2 as u16 entries once the
/// header word `frames | flagHigh << 16` sets a bit of 0xFFFF8000, so frames stay below 0x8000.
/// An encoder's ceiling (a fact of the format, not a `Limits` field), as are the two below.
pub const MAX_FRAMES: usize = 0x7FFF;
/// Most interior keys of one channel (block 2 entries are u8).
pub const MAX_INTERIOR_KEYS: usize = 255;
/// Highest control id a block 1 descriptor holds (`id = v >> 9`).
pub const MAX_CONTROL: u16 = 127;

/// A key to write: which halves are stored follows `count` (1 = value, 2 = shared tangent +
/// value, 3 = in, out, value, 0 = nothing).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KeySpec {
    /// The key's frame.
    pub frame: u16,
    /// Halves to store (0-3, as [`crate::curve::Key::count`]).
    pub count: u8,
    /// Slope arriving at the key, per second.
    pub tangent_in: f32,
    /// Slope leaving the key, per second.
    pub tangent_out: f32,
    /// The value (turns for rotations).
    pub value: f32,
}

/// One channel: control id, axis and its keys (the first at frame 0, the last at frames-1).
#[derive(Debug, Clone)]
pub struct CurveSpec {
    /// The MOTN id of the control.
    pub control: u16,
    /// Which axis.
    pub axis: Axis,
    /// The keys, frames ascending.
    pub keys: Vec<KeySpec>,
}

/// One sequence to write into a MOTN file.
#[derive(Debug, Clone)]
pub struct SequenceSpec {
    /// Its name in the name table.
    pub name: String,
    /// Number of frames.
    pub frames: u16,
    /// The header's flagHigh (controller family; 0 = the human rig).
    pub flag_high: u16,
    /// Sorted by control then axis (the writer sorts them).
    pub curves: Vec<CurveSpec>,
}

fn half(v: f32) -> u16 {
    half::f16::from_f32(v).to_bits()
}

/// Encode one sequence (header + five blocks).
pub fn encode_sequence(s: &SequenceSpec) -> Vec<u8> {
    let mut curves = s.curves.clone();
    curves.sort_by_key(|c| (c.control, c.axis));
    let mut w = Writer::new(Endian::Little);
    w.u16(s.frames).u16(s.flag_high).zeros(8);
    // Block 1.
    let mut ids: Vec<u16> = curves.iter().map(|c| c.control).collect();
    ids.dedup();
    for id in &ids {
        let mut v = id << L::ID_SHIFT;
        for c in curves.iter().filter(|c| c.control == *id) {
            v |= L::CHANNEL_BITS[c.axis as usize];
        }
        w.u16(v);
    }
    w.u16(0);
    let b2 = w.len();
    for c in &curves {
        w.u8(c.keys.len().saturating_sub(2) as u8);
    }
    // Sega's layout: the byte blocks packed, the blocks of 16-bit values (block 3 when frames
    // are u16, block 5) 2-byte aligned behind a zero pad byte; every one of the 1293 decoded
    // sequences of MOTION.BIN is laid out so.
    let wide = u32::from(s.frames) > L::U8_FRAMES_MAX;
    if wide {
        w.align(2);
    }
    let b3 = w.len();
    for c in &curves {
        for k in c.keys.iter().skip(1).take(c.keys.len().saturating_sub(2)) {
            if wide {
                w.u16(k.frame);
            } else {
                w.u8(k.frame as u8);
            }
        }
    }
    let b4 = w.len();
    for c in &curves {
        for chunk in c.keys.chunks(4) {
            let mut b = 0u8;
            for (i, k) in chunk.iter().enumerate() {
                b |= (k.count & 3) << (6 - 2 * i);
            }
            w.u8(b);
        }
    }
    w.align(2);
    let b5 = w.len();
    for c in &curves {
        for k in &c.keys {
            match k.count {
                1 => {
                    w.u16(half(k.value));
                }
                2 => {
                    w.u16(half(k.tangent_in)).u16(half(k.value));
                }
                3 => {
                    w.u16(half(k.tangent_in)).u16(half(k.tangent_out)).u16(half(k.value));
                }
                _ => {}
            }
        }
    }
    for (i, o) in [b2, b3, b4, b5].into_iter().enumerate() {
        w.patch_u16(4 + 2 * i, o as u16);
    }
    w.into_bytes()
}

/// Check that `s` fits the format (what [`encode_sequence`] would otherwise truncate) and that
/// its keys are what the reader takes them for, then encode it. Errors name the control and
/// axis (the caller names the clip).
pub fn encode_sequence_checked(s: &SequenceSpec) -> Result<Vec<u8>> {
    let frames = usize::from(s.frames);
    if frames == 0 || frames > MAX_FRAMES {
        return Err(Error::ceiling(0, format!("{frames} frames; a MOTN sequence holds 1 to {MAX_FRAMES}")));
    }
    let mut seen = std::collections::BTreeSet::new();
    let (mut ids, mut interior, mut b4_bytes) = (std::collections::BTreeSet::new(), 0usize, 0usize);
    for c in &s.curves {
        let what = format!("control {} {}", c.control, c.axis.path());
        if c.control > MAX_CONTROL || !seen.insert((c.control, c.axis)) {
            return Err(Error::invalid(0, format!("{what}: id above {MAX_CONTROL} or written twice")));
        }
        ids.insert(c.control);
        let n = c.keys.len();
        if n < 2 || c.keys[0].frame != 0 || usize::from(c.keys[n - 1].frame) != frames - 1 {
            return Err(Error::invalid(0, format!("{what}: keys must run from frame 0 to frame {}", frames - 1)));
        }
        if n - 2 > MAX_INTERIOR_KEYS {
            return Err(Error::ceiling(
                0,
                format!("{what}: {} interior keys; a channel holds at most {MAX_INTERIOR_KEYS} (u8 counts)", n - 2),
            ));
        }
        for (i, k) in c.keys.iter().enumerate() {
            let exact = |v: f32| half::f16::from_f32(v).to_f32().to_bits() == v.to_bits() && v.is_finite();
            if i > 0 && k.frame < c.keys[i - 1].frame {
                return Err(Error::invalid(0, format!("{what}: key {i} at frame {} goes backwards", k.frame)));
            }
            if k.count > 3 || !(exact(k.value) && exact(k.tangent_in) && exact(k.tangent_out)) {
                return Err(Error::invalid(0, format!("{what}: key {i} is not a count 0-3 of finite halves")));
            }
        }
        interior += n - 2;
        b4_bytes += n.div_ceil(4);
    }
    let even = |v: usize| v + v % 2;
    let b2 = L::SEQ_HEADER + 2 * (ids.len() + 1);
    let b3 = even(b2 + s.curves.len());
    let b4 = even(b3 + interior * if frames > L::U8_FRAMES_MAX as usize { 2 } else { 1 });
    let b5 = even(b4 + b4_bytes);
    if b5 > usize::from(u16::MAX) {
        return Err(Error::ceiling(0, format!("block 5 would start at +{b5:#x}; block offsets are u16")));
    }
    Ok(encode_sequence(s))
}

/// Keys at every frame of `values` (one per frame), each with its value and a shared tangent
/// from the central difference (units per second at 30 Hz), so the Hermite passes through
/// every frame's value.
pub fn dense_keys(values: &[f32]) -> Vec<KeySpec> {
    let n = values.len();
    (0..n)
        .map(|i| {
            let prev = values[i.saturating_sub(1)];
            let next = values[(i + 1).min(n - 1)];
            let span = ((i + 1).min(n - 1) - i.saturating_sub(1)).max(1) as f32;
            let tangent = (next - prev) / span * L::FPS;
            KeySpec { frame: i as u16, count: 2, tangent_in: tangent, tangent_out: tangent, value: values[i] }
        })
        .collect()
}

/// Encode a whole MOTN file: header, sequence table (with its terminator slot), names,
/// sequence data, and a build stamp at the end.
pub fn encode_file(seqs: &[SequenceSpec]) -> Vec<u8> {
    let raw: Vec<(String, Vec<u8>)> = seqs.iter().map(|s| (s.name.clone(), encode_sequence(s))).collect();
    encode_file_raw(&raw)
}

/// Wrap already-encoded sequences (name, bytes) in a MOTN file (tests use it to re-wrap real
/// sequences cut from a file).
pub fn encode_file_raw(seqs: &[(String, Vec<u8>)]) -> Vec<u8> {
    let n = seqs.len();
    let mut w = Writer::new(Endian::Little);
    w.zeros(0x20);
    let table = w.len();
    w.zeros((n + 1) * L::TABLE_ENTRY);
    let names = w.len();
    w.zeros(4 * n);
    let mut name_ptrs = Vec::with_capacity(n);
    for (name, _) in seqs {
        name_ptrs.push(w.len() as u32);
        w.bytes(name.as_bytes()).u8(0);
    }
    w.align(4);
    let base = w.len();
    let mut data_ofs = Vec::with_capacity(n);
    for (_, bytes) in seqs {
        // Sequences are 2-byte aligned, like the real file's.
        w.align(2);
        data_ofs.push((w.len() - base) as u32);
        w.bytes(bytes);
    }
    w.align(4);
    w.bytes(b"Sun Nov 29 00:00:00 2026\n\0\0\0");
    let size = w.len() as u32;
    w.patch_u32(L::SEQ_TABLE, table as u32);
    w.patch_u32(L::NAME_TABLE, names as u32);
    w.patch_u32(L::DATA_BASE, base as u32);
    w.patch_u32(L::ATTRIBUTES, (n + 1) as u32);
    w.patch_u32(L::FILE_SIZE, size);
    for i in 0..n {
        w.patch_u32(table + 8 * i, data_ofs[i]);
        // No action metadata.
        w.patch_u32(table + 8 * i + 4, 0);
        w.patch_u32(names + 4 * i, name_ptrs[i]);
    }
    w.into_bytes()
}
