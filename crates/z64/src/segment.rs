//! Segmented addresses: the game binds files to segments (object 6, gameplay_keep 4,
//! link_animetion 7) and every pointer in the data is `segment << 24 | offset`. A [`Ctx`] is
//! one such binding; every resolution is checked against the bound file's size.

use crate::layout::{split_segmented, Record};
use boneyard_core::{Endian, Error, Reader, Result};

/// A file of the document, bound to a segment.
#[derive(Debug, Clone)]
pub struct SegFile {
    /// Display name (path or ROM file name).
    pub name: String,
    /// Short lower-case name used for the asset table ("object_dekunuts") and to know the
    /// game's files (gameplay_keep) whatever their case.
    pub stem: String,
    /// The short name as the file has it (`object_oA10`, `Adult_saria`): what names made from
    /// it, sources and outputs say, so that they name the file on a disk that tells case.
    pub shown: String,
    /// The segment it is bound to (6 for objects, 4 for gameplay_keep, 7 for link_animetion).
    pub segment: u8,
    /// Its bytes (decompressed).
    pub data: Vec<u8>,
    /// Files taken from a ROM: when the asset table's names do not fit the data (another
    /// version's layout), fall back to the structural scan with a note instead of failing.
    pub lenient: bool,
}

/// A segment table: which file each segment points at.
#[derive(Clone, Copy)]
pub struct Ctx<'a> {
    /// Every file of the document.
    pub files: &'a [SegFile],
    /// Per segment 0..16, the index of the file bound to it.
    pub map: [Option<usize>; 16],
    /// The file whose data is being read (for error offsets).
    pub home: usize,
}

impl<'a> Ctx<'a> {
    /// A segment table over `files`, reading in file `home`.
    pub fn new(files: &'a [SegFile], map: [Option<usize>; 16], home: usize) -> Self {
        Ctx { files, map, home }
    }

    /// The file being read.
    pub fn home_file(&self) -> &'a SegFile {
        &self.files[self.home]
    }

    /// Resolve `addr` to (file index, offset), checking that `len` bytes are there. `at` is
    /// where the pointer was read (an offset in the home file), for the error message.
    pub fn resolve(&self, addr: u32, len: usize, at: u64) -> Result<(usize, usize)> {
        let (seg, off) = split_segmented(addr);
        let Some(fi) = self.map[seg as usize] else {
            return Err(Error::invalid(
                at,
                format!("pointer {addr:#010x} is in segment {seg}, which no given file provides"),
            ));
        };
        let size = self.files[fi].data.len();
        let off = off as usize;
        if off.checked_add(len).is_none_or(|e| e > size) {
            return Err(Error::invalid(
                at,
                format!(
                    "pointer {addr:#010x} ({len} bytes) is outside segment {seg} ({}, {size:#x} bytes)",
                    self.files[fi].shown
                ),
            ));
        }
        Ok((fi, off))
    }

    /// The `len` bytes at `addr`.
    pub fn bytes(&self, addr: u32, len: usize, at: u64) -> Result<&'a [u8]> {
        let (fi, off) = self.resolve(addr, len, at)?;
        Ok(&self.files[fi].data[off..off + len])
    }

    /// A big-endian reader over the `len` bytes at `addr` (checked as [`Ctx::bytes`] checks
    /// them), whose offsets are those of the bound file.
    pub fn reader(&self, addr: u32, len: usize, at: u64) -> Result<Reader<'a>> {
        let (fi, off) = self.resolve(addr, len, at)?;
        Reader::new(&self.files[fi].data, Endian::Big).sub(off, len)
    }

    /// The record `R` at `addr`: its `R::SIZE` bytes checked as [`Ctx::bytes`] checks them (a
    /// pointer that leads nowhere is an error at `at`), then read field by field.
    pub fn record<R: Record>(&self, addr: u32, at: u64) -> Result<R> {
        let (fi, off) = self.resolve(addr, R::SIZE, at)?;
        R::parse_at(&self.files[fi].data, off).map_err(|e| e.in_file(self.files[fi].name.clone()))
    }

    /// The `len` bytes at `addr` when [`Ctx::bytes`] finds them, None where it fails, without
    /// building the error (for the scans' quick tests, which fail at most candidates).
    #[inline]
    pub fn bytes_if_there(&self, addr: u32, len: usize) -> Option<&'a [u8]> {
        let (seg, off) = split_segmented(addr);
        let data = &self.files.get(self.map[seg as usize]?)?.data;
        let off = off as usize;
        data.get(off..off.checked_add(len)?)
    }

    /// The record `R` at `addr` when [`Ctx::record`] reads it, None where it fails, without
    /// building the error: for callers that drop it (the display-list decoder reads every
    /// command through this).
    #[inline]
    pub fn record_if_there<R: Record>(&self, addr: u32) -> Option<R> {
        // What `resolve` checks (the record's bytes within the file), then `parse_at` on them.
        self.bytes_if_there(addr, R::SIZE).map(|b| R::decode(b, Endian::Big))
    }

    /// The bytes from `addr` to the end of its segment.
    pub fn tail(&self, addr: u32, at: u64) -> Result<&'a [u8]> {
        let (fi, off) = self.resolve(addr, 0, at)?;
        Ok(&self.files[fi].data[off..])
    }

    /// Where segmented address `addr` lies, for a warning: the file bound to its segment
    /// (None when it is the file being read, which warnings name by default) and the offset
    /// in it; `None` when the segment is bound to no file.
    pub fn place(&self, addr: u32) -> Option<(Option<String>, u64)> {
        let (seg, off) = split_segmented(addr);
        let fi = self.map.get(seg as usize).copied().flatten()?;
        Some(((fi != self.home).then(|| self.files[fi].name.clone()), off as u64))
    }

    /// Size of the file bound to `seg`.
    pub fn segment_len(&self, seg: u8) -> Option<usize> {
        self.map.get(seg as usize).copied().flatten().map(|fi| self.files[fi].data.len())
    }

    /// Is `addr` a pointer into a bound segment (offset inside the file)?
    pub fn is_valid(&self, addr: u32) -> bool {
        let (seg, off) = split_segmented(addr);
        addr >> 28 == 0 && self.segment_len(seg).is_some_and(|l| (off as usize) < l)
    }

    /// An error about the data at segmented address `addr`, naming that file and offset.
    pub fn error(&self, addr: u32, msg: impl Into<String>) -> Error {
        let (seg, off) = split_segmented(addr);
        let e = Error::invalid(off as u64, msg);
        match self.map[seg as usize] {
            Some(fi) => e.in_file(self.files[fi].name.clone()),
            None => e,
        }
    }

    /// The home offset of `addr` when it points into the home file (for error offsets).
    pub fn home_offset(&self, addr: u32) -> u64 {
        let (seg, off) = split_segmented(addr);
        if self.map[seg as usize] == Some(self.home) {
            off as u64
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Gfx;
    use proptest::prelude::*;

    proptest! {
        /// The quiet readings find what the checked ones find, and fail where they fail.
        #[test]
        fn quiet_readings_match_checked_ones(
            sizes in proptest::collection::vec(0usize..40, 1..4),
            map in proptest::collection::vec(proptest::option::of(0usize..4), 16),
            addr in any::<u32>(),
            near in 0u32..48,
            seg in 0u32..16,
            len in 0usize..20,
        ) {
            let files: Vec<SegFile> = sizes
                .iter()
                .enumerate()
                .map(|(i, &n)| SegFile {
                    name: format!("f{i}"),
                    stem: format!("f{i}"),
                    shown: format!("f{i}"),
                    segment: 6,
                    data: (0..n).map(|b| b as u8).collect(),
                    lenient: false,
                })
                .collect();
            // A map naming a file past the list's end (which the crate never builds) is only
            // refused by the quiet readings: such addresses are skipped.
            let map: [Option<usize>; 16] = std::array::from_fn(|i| map[i]);
            let ctx = Ctx::new(&files, map, 0);
            for a in [addr, seg << 24 | near, addr & 0x0F00_0000 | near] {
                if map[split_segmented(a).0 as usize].is_some_and(|f| f >= files.len()) {
                    continue;
                }
                prop_assert_eq!(ctx.bytes_if_there(a, len), ctx.bytes(a, len, 0).ok());
                prop_assert_eq!(ctx.record_if_there::<Gfx>(a), ctx.record::<Gfx>(a, 0).ok());
            }
        }
    }
}
