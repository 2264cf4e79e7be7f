//! Writing sequences into a copy of a MOTN file (`MOTION.BIN`): a sequence named like an
//! entry replaces that entry's data, others are appended as new entries. Everything else is
//! carried over byte for byte, in the layout the reader (and the game's loader, as the
//! reference describes it) expects:
//!
//! * the sequence table grows by one slot per appended entry (the `(0,0)` terminator stays
//!   last) and the attribute word's count (`& 0x0FFF`) with it;
//! * the action metadata region that follows the table moves down by the table's growth, and
//!   every metadata offset inside it moves with it, those into the terminator slot too (a
//!   block may begin in its zeros: they move with it); offsets outside it are kept as they are;
//! * the name-pointer table follows; the names keep their order and the new ones come after
//!   them, so the first name still starts right after the pointers (new-yokosuka counts the
//!   entries by that span);
//! * the data keeps its relative offsets except where a replaced sequence changes size: a
//!   block all of whose names are replaced is rewritten in place (the bytes after it move,
//!   and with them the offsets); a block also used by names that are not replaced (many names
//!   share one block) is kept for them, and the replaced names point at a new block after the
//!   last one; appended sequences come after that. Unreferenced bytes after a replaced block
//!   stay after it. The build stamp stays at the end.

use crate::layout::motn as L;
use crate::motn::MotnFile;
use boneyard_core::{Endian, Error, Result, Writer};

/// One sequence to write: its name and encoded bytes (header and five blocks).
#[derive(Debug, Clone)]
pub struct NewSequence {
    /// The entry name it is written under (an existing name replaces that entry).
    pub name: String,
    /// The sequence's bytes: header and five blocks.
    pub bytes: Vec<u8>,
    /// The action metadata offset (in the *input* file) an appended entry takes; replaced
    /// entries keep their own.
    pub meta: u32,
}

/// Where a written sequence ended up.
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    /// The entries (table slots) that name it.
    pub entries: Vec<usize>,
    /// Absolute offset of its header in the written file.
    pub offset: usize,
    /// Whether it replaced an existing entry (else it was appended).
    pub replaced: bool,
    /// Names that shared the replaced block and still play the old data.
    pub kept_for: Vec<String>,
}

/// The written file and where each [`NewSequence`] is (in the order given).
#[derive(Debug, Clone)]
pub struct Rebuilt {
    /// The whole written MOTN file.
    pub bytes: Vec<u8>,
    /// Per sequence given, where it was placed.
    pub placed: Vec<Placed>,
}

/// The bytes of block `k`'s own sequence (without unreferenced bytes after it).
pub fn sequence_len(m: &MotnFile, k: usize) -> usize {
    let b = &m.blocks[k];
    b.region_end - b.offset - b.motion().map_or(0, |mo| mo.trailing)
}

/// Write `seqs` into a copy of `data` (read as `m`); see the module documentation.
pub fn rebuild(data: &[u8], m: &MotnFile, seqs: &[NewSequence]) -> Result<Rebuilt> {
    let n = m.entries.len();
    // Which new sequence each entry takes, if any.
    let mut take: Vec<Option<usize>> = vec![None; n];
    let mut appended = Vec::new();
    for (s, q) in seqs.iter().enumerate() {
        if q.bytes.len() % 2 != 0 || q.name.is_empty() || q.name.contains('\0') {
            return Err(Error::invalid(0, format!("sequence {:?}: odd length or bad name", q.name)));
        }
        let mut hit = false;
        for (i, e) in m.entries.iter().enumerate() {
            if e.name == q.name {
                take[i] = Some(s);
                hit = true;
            }
        }
        if !hit {
            appended.push(s);
        }
    }
    let k = appended.len();
    let slots = n + k + 1;
    if slots > L::ATTR_COUNT_MASK as usize {
        return Err(Error::ceiling(
            L::ATTRIBUTES as u64,
            format!("{} sequences; the attribute word counts at most {}", n + k, L::ATTR_COUNT_MASK - 1),
        ));
    }
    // Blocks rewritten in place: every name using it takes the same new sequence.
    let mut in_place: Vec<Option<usize>> = vec![None; m.blocks.len()];
    for (b, slot) in in_place.iter_mut().enumerate() {
        let users: Vec<Option<usize>> = (0..n).filter(|&i| m.entries[i].block == b).map(|i| take[i]).collect();
        if let Some(&Some(s)) = users.first() {
            if users.iter().all(|u| *u == Some(s)) {
                *slot = Some(s);
            }
        }
    }
    let table = m.table_offset as usize;
    let old_meta_lo = table + (n + 1) * L::TABLE_ENTRY;
    let old_names = m.name_table_offset as usize;
    let strings_lo = old_names + 4 * n;
    let bad = |at: usize, msg: String| Error::invalid(at as u64, msg);
    if !(old_meta_lo <= old_names && strings_lo <= m.data_base as usize && m.data_base as usize <= data.len()) {
        return Err(bad(L::NAME_TABLE, "the table, names and data are not in the order the writer keeps".into()));
    }
    // Name pointers, and where the name strings end.
    let mut name_ptrs = Vec::with_capacity(n);
    let mut strings_hi = strings_lo;
    for (i, e) in m.entries.iter().enumerate() {
        let at = old_names + 4 * i;
        let p = u32::from_le_bytes(data[at..at + 4].try_into().expect("4 bytes")) as usize;
        if p < strings_lo || p >= m.data_base as usize {
            return Err(bad(at, format!("entry #{i} {}: its name lies outside the name strings", e.name)));
        }
        name_ptrs.push(p);
        strings_hi = strings_hi.max(p + e.name.len() + 1);
    }
    let grow = L::TABLE_ENTRY * k;
    // The terminator slot moves with the region (an offset into it reads its zeros).
    let terminator = table + n * L::TABLE_ENTRY;
    let shift_meta = |o: u32| -> u32 {
        let u = o as usize;
        if (terminator..old_names).contains(&u) {
            (u + grow) as u32
        } else {
            o
        }
    };
    // Header, table (patched below), metadata region, name pointers (patched), names.
    let mut w = Writer::new(Endian::Little);
    w.bytes(&data[..table]);
    w.zeros(slots * L::TABLE_ENTRY);
    w.bytes(&data[old_meta_lo..old_names]);
    let names = w.len();
    w.zeros(4 * (n + k));
    let strings = w.len();
    w.bytes(&data[strings_lo..strings_hi]);
    let mut new_name_ptrs: Vec<usize> = name_ptrs.iter().map(|p| p - strings_lo + strings).collect();
    for &s in &appended {
        new_name_ptrs.push(w.len());
        w.bytes(seqs[s].name.as_bytes()).u8(0);
    }
    w.align(8);
    let base = w.len();
    // Data: the old data region block by block, then the new blocks, then the tail.
    let old_base = m.data_base as usize;
    let tail = match m.blocks.last() {
        Some(b) if b.motion().is_some() => b.region_end - b.motion().map_or(0, |mo| mo.trailing),
        _ => data.len(),
    };
    let first = m.blocks.first().map_or(tail, |b| b.offset);
    w.bytes(&data[old_base..first.max(old_base)]);
    let mut block_at = vec![0usize; m.blocks.len()];
    let mut seq_at: Vec<Option<usize>> = vec![None; seqs.len()];
    for (b, blk) in m.blocks.iter().enumerate() {
        let end = if b + 1 == m.blocks.len() { tail } else { blk.region_end };
        block_at[b] = w.len();
        match in_place[b] {
            Some(s) => {
                seq_at[s] = Some(w.len());
                w.bytes(&seqs[s].bytes);
                w.bytes(&data[(blk.offset + sequence_len(m, b)).min(end)..end]);
            }
            None => {
                w.bytes(&data[blk.offset..end]);
            }
        }
    }
    for (s, q) in seqs.iter().enumerate() {
        if seq_at[s].is_none() {
            seq_at[s] = Some(w.len());
            w.bytes(&q.bytes);
        }
    }
    w.bytes(&data[tail..]);
    let size = w.len();
    if size > u32::MAX as usize {
        return Err(Error::ceiling(0, "the written file would pass 4 GiB"));
    }
    w.patch_u32(L::NAME_TABLE, names as u32);
    w.patch_u32(L::DATA_BASE, base as u32);
    w.patch_u32(L::ATTRIBUTES, (m.attributes & !L::ATTR_COUNT_MASK) | slots as u32);
    w.patch_u32(L::FILE_SIZE, size as u32);
    let rel = |abs: usize| (abs - base) as u32;
    let mut placed: Vec<Placed> = seqs
        .iter()
        .enumerate()
        .map(|(s, _)| Placed {
            entries: Vec::new(),
            offset: seq_at[s].expect("placed"),
            replaced: !appended.contains(&s),
            kept_for: Vec::new(),
        })
        .collect();
    for (i, e) in m.entries.iter().enumerate() {
        let at = match take[i] {
            Some(s) => {
                placed[s].entries.push(i);
                seq_at[s].expect("placed")
            }
            None => {
                if let Some(s) = in_place[e.block] {
                    unreachable!("block {} rewritten for {s} is used by #{i}", e.block);
                }
                block_at[e.block]
            }
        };
        w.patch_u32(table + L::TABLE_ENTRY * i, rel(at));
        w.patch_u32(table + L::TABLE_ENTRY * i + 4, shift_meta(e.meta_offset));
        w.patch_u32(names + 4 * i, new_name_ptrs[i] as u32);
    }
    for (j, &s) in appended.iter().enumerate() {
        let i = n + j;
        placed[s].entries.push(i);
        w.patch_u32(table + L::TABLE_ENTRY * i, rel(seq_at[s].expect("placed")));
        w.patch_u32(table + L::TABLE_ENTRY * i + 4, shift_meta(seqs[s].meta));
        w.patch_u32(names + 4 * i, new_name_ptrs[i] as u32);
    }
    // Names that shared a replaced block and keep the old data.
    for (s, p) in placed.iter_mut().enumerate() {
        if !p.replaced {
            continue;
        }
        let blocks: Vec<usize> = p.entries.iter().map(|&i| m.entries[i].block).collect();
        p.kept_for = (0..n)
            .filter(|&i| take[i] != Some(s) && blocks.contains(&m.entries[i].block))
            .map(|i| m.entries[i].name.to_string())
            .collect();
    }
    Ok(Rebuilt { bytes: w.into_bytes(), placed })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::Axis;
    use crate::encode::{dense_keys, encode_file_raw, encode_sequence, CurveSpec, SequenceSpec};

    fn seq(name: &str, frames: u16, v: f32) -> Vec<u8> {
        let values: Vec<f32> = (0..frames).map(|f| v + f as f32 * 0.25).collect();
        encode_sequence(&SequenceSpec {
            name: name.into(),
            frames,
            flag_high: 0,
            curves: vec![CurveSpec { control: 0, axis: Axis::PosY, keys: dense_keys(&values) }],
        })
    }

    #[test]
    fn replace_in_place_keep_shared_and_append() {
        // A (own block), B and D sharing one block: D is written with no bytes of its own,
        // then its slot points at B's data.
        let raw = vec![("A".to_string(), seq("A", 3, 1.0)), ("B".into(), seq("B", 4, 2.0)), ("D".into(), Vec::new())];
        let mut file = encode_file_raw(&raw);
        let b_off: [u8; 4] = file[0x20 + 8..0x20 + 12].try_into().unwrap();
        file[0x20 + 2 * 8..0x20 + 2 * 8 + 4].copy_from_slice(&b_off);
        let m = MotnFile::parse(&file).unwrap();
        let seqs = vec![
            NewSequence { name: "A".into(), bytes: seq("A", 5, 7.0), meta: 0 },
            NewSequence { name: "B".into(), bytes: seq("B", 6, 8.0), meta: 0 },
            NewSequence { name: "NEW".into(), bytes: seq("NEW", 2, 9.0), meta: 0 },
        ];
        let r = rebuild(&file, &m, &seqs).unwrap();
        let back = MotnFile::parse(&r.bytes).unwrap();
        let names: Vec<&str> = back.entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["A", "B", "D", "NEW"]);
        assert_eq!(back.attributes & 0xFFF, 5);
        let frames = |i: usize| back.blocks[back.entries[i].block].frames;
        // A replaced in place (5 frames), B on a new block (6), D keeps the old B data (4).
        assert_eq!((frames(0), frames(1), frames(2), frames(3)), (5, 6, 4, 2));
        assert_eq!(
            r.placed[0],
            Placed {
                entries: vec![0],
                offset: back.blocks[back.entries[0].block].offset,
                replaced: true,
                kept_for: vec![]
            }
        );
        assert_eq!(r.placed[1].kept_for, ["D"]);
        assert!(!r.placed[2].replaced && r.placed[2].entries == [3]);
        assert_eq!(back.timestamp, m.timestamp);
        // The name span new-yokosuka counts by: the first name right after the pointers.
        let first = u32::from_le_bytes(r.bytes[back.name_table_offset as usize..][..4].try_into().unwrap());
        assert_eq!(first, back.name_table_offset + 4 * 4);
        assert!(back.gaps.is_empty());
    }
}
