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
    /// Short lower-case name used for the asset table ("object_dekunuts").
    pub stem: String,
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
                    self.files[fi].stem
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
