//! Whole ROMs: byte order, header, version (build strings), the DMA file table (dmadata) and
//! each file's data, decompressed (Yaz0; iQue's DEFLATE).
//!
//! * Byte order from the first word: `80 37 12 40` big-endian (.z64), `37 80 40 12` byte-swapped
//!   (.v64), `40 12 37 80` little-endian words (.n64).
//! * Header (rom_header.s): 0x20 title (20 bytes), 0x3B game code (medium, "ZL"/"ZS", region),
//!   0x3F revision.
//! * Version: the build creator and date strings in `boot` (zelda@srd44 / zelda@srd022j and a
//!   "YY-MM-DD hh:mm:ss" date); dmadata starts at the next 16-byte boundary after them
//!   (as Z64Utils finds it). When that fails, dmadata is found by its structure: entry 0 at
//!   vrom 0, entry 1 following it, entry 2 (dmadata itself) at its own offset.
//! * `DmaEntry {vromStart, vromEnd, romStart, romEnd}`, ended by vromEnd == 0; romEnd == 0 is an
//!   uncompressed file at romStart; romStart or romEnd == 0xFFFFFFFF is a deleted file.

use crate::layout::{DmaEntry, Record, DMA_ENTRY_SIZE};
use crate::yaz0;
use boneyard_core::{limit, Endian, Error, Limits, Reader, Result};

/// How a ROM's bytes are ordered, told by its first word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ByteOrder {
    /// .z64, big-endian (native).
    BigEndian,
    /// .v64, 16-bit byte-swapped.
    ByteSwapped,
    /// .n64, 32-bit little-endian words.
    LittleEndian,
}

impl ByteOrder {
    /// The order with its file extension ("big-endian (.z64)").
    pub fn name(self) -> &'static str {
        match self {
            ByteOrder::BigEndian => "big-endian (.z64)",
            ByteOrder::ByteSwapped => "byte-swapped (.v64)",
            ByteOrder::LittleEndian => "little-endian (.n64)",
        }
    }
}

/// The byte order of a ROM from its first four bytes (`80 37 12 40` in native order); `None`
/// for anything that is not a ROM header.
pub fn byte_order(head: &[u8]) -> Option<ByteOrder> {
    match head.get(..4)? {
        [0x80, 0x37, 0x12, 0x40] => Some(ByteOrder::BigEndian),
        [0x37, 0x80, 0x40, 0x12] => Some(ByteOrder::ByteSwapped),
        [0x40, 0x12, 0x37, 0x80] => Some(ByteOrder::LittleEndian),
        _ => None,
    }
}

/// The ROM put in big-endian order, in place (a trailing partial word is kept as is; a
/// big-endian ROM, `.z64`, is left as it is, not copied).
pub fn normalize_in_place(data: &mut [u8], order: ByteOrder) {
    match order {
        ByteOrder::BigEndian => {}
        ByteOrder::ByteSwapped => data.chunks_exact_mut(2).for_each(|c| c.swap(0, 1)),
        ByteOrder::LittleEndian => data.chunks_exact_mut(4).for_each(|c| c.reverse()),
    }
}

/// Known builds: (creator, date, version name) (zeldaret/oot Makefile, zeldaret/mm build.c).
pub const BUILDS: &[(&str, &str, &str)] = &[
    ("zelda@srd44", "98-10-21 04:56:31", "OoT NTSC 1.0"),
    ("zelda@srd44", "98-10-26 10:58:45", "OoT NTSC 1.1"),
    ("zelda@srd44", "98-11-10 14:34:22", "OoT PAL 1.0"),
    ("zelda@srd44", "98-11-12 18:17:03", "OoT NTSC 1.2"),
    ("zelda@srd44", "98-11-18 17:36:49", "OoT PAL 1.1"),
    ("zelda@srd022j", "02-10-29 23:49:53", "OoT GC JP"),
    ("zelda@srd022j", "02-10-30 00:15:15", "OoT GC JP MQ"),
    ("zelda@srd022j", "02-12-19 13:28:09", "OoT GC US"),
    ("zelda@srd022j", "02-12-19 14:05:42", "OoT GC US MQ"),
    ("zelda@srd022j", "03-02-13 19:46:49", "OoT GC EU debug (2)"),
    ("zelda@srd022j", "03-02-21 00:16:31", "OoT GC EU MQ debug"),
    ("zelda@srd022j", "03-02-21 00:49:18", "OoT GC EU debug"),
    ("zelda@srd022j", "03-02-21 20:12:23", "OoT GC EU"),
    ("zelda@srd022j", "03-02-21 20:37:19", "OoT GC EU MQ"),
    ("zelda@srd022j", "03-10-08 21:53:00", "OoT GC JP CE"),
    ("zelda@srd44", "00-07-31 17:04:16", "MM N64 US"),
];

/// The decompilation's name of a known build (its `baseroms/<version>`), which chooses the
/// asset table's reading of the build's files ([`crate::names::variant_for`]). MM builds get
/// `mm-` and the MM decomp's name (`mm-unknown` when the build is not known): the OoT table
/// describes none of them. Unknown OoT builds have none (every reading is tried).
pub fn decomp_version(build: &str) -> Option<&'static str> {
    Some(match build {
        "OoT NTSC 1.0" => "ntsc-1.0",
        "OoT NTSC 1.1" => "ntsc-1.1",
        "OoT PAL 1.0" => "pal-1.0",
        "OoT NTSC 1.2" => "ntsc-1.2",
        "OoT PAL 1.1" => "pal-1.1",
        "OoT GC JP" => "gc-jp",
        "OoT GC JP MQ" => "gc-jp-mq",
        "OoT GC US" => "gc-us",
        "OoT GC US MQ" => "gc-us-mq",
        "OoT GC EU debug (2)" | "OoT GC EU debug" => "gc-eu-dbg",
        "OoT GC EU MQ debug" => "gc-eu-mq-dbg",
        "OoT GC EU" => "gc-eu",
        "OoT GC EU MQ" => "gc-eu-mq",
        "OoT GC JP CE" => "gc-jp-ce",
        "MM N64 US" => "mm-n64-us",
        "MM (unknown build)" => "mm-unknown",
        _ => return None,
    })
}

/// What `info` tells of a ROM.
#[derive(Debug, Clone, Default)]
pub struct RomInfo {
    /// The byte order it was stored in.
    pub byte_order: Option<ByteOrder>,
    /// The header's internal name (0x20, 20 bytes).
    pub title: String,
    /// The header's game code (0x3B, e.g. "CZLE").
    pub game_code: String,
    /// The header's revision byte (0x3F).
    pub revision: u8,
    /// The build strings (team, date) found beside dmadata.
    pub build: Option<(String, String)>,
    /// The version boneyard recognised ("oot-gc-eu-mq-dbg"...), from the build or game code.
    pub version: Option<&'static str>,
    /// ROM offset of the dmadata table.
    pub dmadata: usize,
    /// Entries in dmadata.
    pub entries: usize,
    /// Entries marked deleted (no data in this ROM).
    pub deleted: usize,
    /// Entries whose ROM bytes overlap an earlier entry's, as (entry, the earlier one, where
    /// the entry is in the table): not read. The games' files never overlap in the ROM; a
    /// crafted table of 4,000 entries naming one object made 4,000 documents of it (minutes of
    /// export, hundreds of MB written, from 74 KB).
    pub overlapping: Vec<(usize, usize, u64)>,
    /// File names found (debug ROMs).
    pub named: bool,
}

/// A file taken out of a ROM (decompressed).
#[derive(Debug, Clone)]
pub struct RomFile {
    /// Its index in dmadata.
    pub index: usize,
    /// The file's name, from the debug ROMs' name table (`sDmaMgrFileNames`).
    pub name: Option<String>,
    /// Its virtual ROM address (where the game's code asks for it).
    pub vrom: u32,
    /// True when it was stored compressed (Yaz0 or iQue DEFLATE).
    pub compressed: bool,
    /// Its bytes, decompressed.
    pub data: Vec<u8>,
}

// The caller's limits bound a ROM: `max_rom_entries` of its DMA table (OoT's debug ROM has
// 1,532; the table ends at a zero entry), `max_rom_file_bytes` of one file decompressed,
// `max_rom_bytes` of all of them (OoT and MM hold under 64 MiB: entries may share one
// compressed range, so without it a small ROM could ask for 4096 x 64 MiB) and, for Yaz0
// files, `max_yaz0_bytes`.

/// Read a (normalised, big-endian) ROM: header, version, every file, within the caller's
/// limits (`max_rom_entries`, `max_rom_file_bytes`, `max_rom_bytes`, `max_yaz0_bytes`).
pub fn read_rom(rom: &[u8], limits: &Limits) -> Result<(RomInfo, Vec<RomFile>)> {
    if rom.len() < 0x1000 {
        return Err(Error::invalid(0, format!("ROM of {} bytes is too short for a header and boot code", rom.len())));
    }
    let text = |a: usize, b: usize| boneyard_core::reader::cstr(&rom[a..b]).trim_end().to_string();
    let mut info =
        RomInfo { title: text(0x20, 0x34), game_code: text(0x3B, 0x3F), revision: rom[0x3F], ..Default::default() };
    let mut dma = None;
    if let Some((creator, date, end)) = find_build(rom) {
        info.version = BUILDS.iter().find(|b| b.0 == creator && b.1 == date).map(|b| b.2);
        info.build = Some((creator, date));
        let cand = end.div_ceil(16) * 16;
        if looks_like_dmadata(rom, cand) {
            dma = Some(cand);
        }
    }
    if info.version.is_none() {
        // No known build string: the game code's "ZL" (OoT) / "ZS" (MM) at 0x3C at least.
        info.version = match rom.get(0x3C..0x3E) {
            Some(b"ZL") => Some("OoT (unknown build)"),
            Some(b"ZS") => Some("MM (unknown build)"),
            _ => None,
        };
    }
    let dma = match dma.or_else(|| find_dmadata(rom)) {
        Some(d) => d,
        None => return Err(Error::invalid(0, "no DMA file table (dmadata) found in the ROM")),
    };
    info.dmadata = dma;
    // The table is walked in order, every check made there; the files' bytes are then read
    // and decompressed on rayon's threads (a retail ROM's 1,500 Yaz0 files were most of its
    // open). What fails first in the table's order is the error, as when each file was read
    // at its entry: a file that does not decompress before the entry where the walk stopped.
    let mut reads: Vec<FileRead> = Vec::new();
    let table_error = walk_table(rom, dma, limits, &mut info, &mut reads).err();
    let decoded: Vec<Result<Vec<u8>>> = {
        use rayon::prelude::*;
        reads.par_iter().map(|r| r.bytes(rom, limits)).collect()
    };
    let mut files = Vec::with_capacity(reads.len());
    for (r, data) in reads.iter().zip(decoded) {
        files.push(RomFile {
            index: r.index,
            name: None,
            vrom: r.vrom,
            compressed: r.compressed.is_some(),
            data: data?,
        });
    }
    if let Some(e) = table_error {
        return Err(e);
    }
    if let Some(names) = file_names(rom, info.entries) {
        info.named = true;
        for f in files.iter_mut() {
            f.name = names.get(f.index).cloned();
        }
    }
    Ok((info, files))
}

/// A file of the DMA table to read: its entry, where its bytes are and how they are stored.
struct FileRead {
    index: usize,
    vrom: u32,
    /// Its bytes in the ROM (checked to be there).
    range: std::ops::Range<usize>,
    /// Compressed (Yaz0, or iQue's DEFLATE): the size it decompresses to.
    compressed: Option<usize>,
}

impl FileRead {
    /// The file's bytes, decompressed (errors at their ROM offset).
    fn bytes(&self, rom: &[u8], limits: &Limits) -> Result<Vec<u8>> {
        let at = self.range.start as u64;
        let bytes = &rom[self.range.clone()];
        match self.compressed {
            None => Ok(bytes.to_vec()),
            Some(size) if yaz0::is_yaz0(bytes) => {
                yaz0::decode_within(bytes, Some(size), limit!(limits, max_yaz0_bytes)).map_err(|e| e.shifted(at))
            }
            Some(size) => inflate(bytes, size).map_err(|e| e.shifted(at)),
        }
    }
}

/// Walk the DMA table at `dma` in order, counting its entries in `info` and checking each one
/// (the caller's limits, ranges inside the ROM, no overlap), adding the files to read to
/// `reads`; the first entry that fails the checks ends the walk with its error.
fn walk_table(rom: &[u8], dma: usize, limits: &Limits, info: &mut RomInfo, reads: &mut Vec<FileRead>) -> Result<()> {
    let mut total = 0usize;
    let max_entries = limit!(limits, max_rom_entries);
    // The ROM ranges read so far, by start: (start, end, entry).
    let mut read: std::collections::BTreeMap<usize, (usize, usize)> = std::collections::BTreeMap::new();
    for i in 0.. {
        let at = dma + i * DMA_ENTRY_SIZE;
        let Ok(DmaEntry { vrom_start: vs, vrom_end: ve, rom_start: rs, rom_end: re }) = DmaEntry::parse_at(rom, at)
        else {
            return Err(Error::invalid(at as u64, "DMA table runs past the end of the ROM"));
        };
        if ve == 0 {
            break;
        }
        max_entries.check(i as u64 + 1, at as u64, "DMA table entries")?;
        info.entries += 1;
        if rs == u32::MAX || re == u32::MAX {
            info.deleted += 1;
            continue;
        }
        if ve < vs {
            return Err(Error::invalid(
                at as u64,
                format!("DMA entry {i}: vromEnd {ve:#x} is before vromStart {vs:#x}"),
            ));
        }
        let size = (ve - vs) as usize;
        // The bytes it takes in the ROM: stored, its size; compressed, up to romEnd.
        let span = (rs as usize, if re == 0 { rs as usize + size } else { re as usize });
        if span.1 > span.0 {
            // The nearest range starting at or before its end that reaches past its start (the
            // ranges read do not overlap each other, so that one is the only candidate).
            let clash = read.range(..span.1).next_back().filter(|(_, &(end, _))| end > span.0);
            if let Some((_, &(_, first))) = clash {
                info.overlapping.push((i, first, at as u64));
                continue;
            }
            read.insert(span.0, (span.1, i));
        }
        limit!(limits, max_rom_file_bytes).check(size as u64, at as u64, &format!("bytes in DMA entry {i}"))?;
        total += size;
        limit!(limits, max_rom_bytes).check(
            total as u64,
            at as u64,
            &format!("bytes the files up to DMA entry {i} decompress to"),
        )?;
        let rs = rs as usize;
        let (range, compressed) = if re == 0 {
            if rom.get(rs..rs + size).is_none() {
                return Err(Error::invalid(
                    at as u64,
                    format!("DMA entry {i}: file at {rs:#x}+{size:#x} is past the end of the ROM"),
                ));
            }
            (rs..rs + size, None)
        } else {
            let re = re as usize;
            if rom.get(rs..re).filter(|_| rs < re).is_none() {
                return Err(Error::invalid(
                    at as u64,
                    format!("DMA entry {i}: compressed range {rs:#x}..{re:#x} is not in the ROM"),
                ));
            }
            (rs..re, Some(size))
        };
        reads.push(FileRead { index: i, vrom: vs, range, compressed });
    }
    Ok(())
}

/// Debug ROMs carry a table of file names, one `char*` per DMA entry (`sDmaMgrFileNames`,
/// z_std_dma.c), pointing at strings "makerom", "boot", "dmadata", ... The table is found by
/// the strings' spacing: three consecutive pointers differ as the first three strings' ROM
/// offsets do; the difference between a pointer and its string's offset is the load address.
pub fn file_names(rom: &[u8], entries: usize) -> Option<Vec<String>> {
    let end = rom.len().min(0x20_0000);
    // (A retail ROM has no such strings: the search then reads the first 2 MB, by memchr's
    // vector search rather than a compare at every byte.)
    let find = |pat: &[u8], from: usize| memchr::memmem::find(&rom[from..end], pat).map(|p| p + from);
    let s0 = find(b"makerom\0", 0x1000)?;
    let s1 = find(b"boot\0", s0)?;
    let s2 = find(b"dmadata\0", s1)?;
    if s1 - s0 > 16 || s2 - s1 > 16 {
        return None;
    }
    let (d1, d2) = ((s1 - s0) as u32, (s2 - s1) as u32);
    let mut at = 0x1000;
    while at + 12 <= end {
        let mut r = Reader::at(rom, at, Endian::Big).ok()?;
        let (w0, w1, w2) = (r.u32().ok()?, r.u32().ok()?, r.u32().ok()?);
        if w0 >> 24 == 0x80 && w1.wrapping_sub(w0) == d1 && w2.wrapping_sub(w1) == d2 {
            let base = w0.wrapping_sub(s0 as u32);
            let mut names = Vec::with_capacity(entries);
            let mut table = Reader::at(rom, at, Endian::Big).ok()?;
            for _ in 0..entries {
                let p = table.u32().ok()?.wrapping_sub(base) as usize;
                let s = rom.get(p..(p + 64).min(rom.len()))?;
                let n = boneyard_core::reader::cstr(s);
                if n.is_empty() || n.contains('?') || n.contains(' ') {
                    return None;
                }
                names.push(n);
            }
            return Some(names);
        }
        at += 4;
    }
    None
}

/// iQue files: raw DEFLATE.
fn inflate(comp: &[u8], size: usize) -> Result<Vec<u8>> {
    use std::io::Read;
    // `size` is within the caller's `max_rom_file_bytes` (checked at its DMA entry).
    let mut out = Vec::with_capacity(size);
    let mut dec = flate2::read::DeflateDecoder::new(comp).take(size as u64 + 1);
    dec.read_to_end(&mut out).map_err(|e| Error::invalid(0, format!("neither Yaz0 nor DEFLATE: {e}")))?;
    if out.len() != size {
        return Err(Error::invalid(0, format!("DEFLATE stream gives {} bytes, the file table says {size}", out.len())));
    }
    Ok(out)
}

/// The build creator and date strings: (creator, date, offset after the date's NUL).
fn find_build(rom: &[u8]) -> Option<(String, String, usize)> {
    let end = rom.len().min(0x40000);
    let hay = &rom[0x1000.min(end)..end];
    let pos = memchr::memmem::find(hay, b"zelda@srd")? + 0x1000;
    let cend = pos + rom[pos..end].iter().position(|&c| c == 0)?;
    let creator = String::from_utf8_lossy(&rom[pos..cend]).to_string();
    let mut d = cend;
    while d < end && rom[d] == 0 {
        d += 1;
    }
    let dend = d + rom[d..end].iter().position(|&c| c == 0)?;
    let date = String::from_utf8_lossy(&rom[d..dend]).to_string();
    Some((creator, date, dend + 1))
}

fn looks_like_dmadata(rom: &[u8], at: usize) -> bool {
    // The first three entries: makerom at 0, boot right after it, dmadata itself at `at`.
    let e = |i: usize| DmaEntry::parse_at(rom, at + i * DMA_ENTRY_SIZE).ok();
    matches!(
        (e(0), e(1), e(2)),
        (Some(DmaEntry { vrom_start: 0, vrom_end: v0e, rom_start: 0, .. }), Some(DmaEntry { vrom_start: v1s, .. }), Some(DmaEntry { vrom_start: v2s, rom_start: r2s, .. }))
            if v0e > 0 && v1s == v0e && v2s as usize == at && r2s as usize == at
    )
}

fn find_dmadata(rom: &[u8]) -> Option<usize> {
    let end = rom.len().min(0x40000);
    (0x1000..end).step_by(16).find(|&a| looks_like_dmadata(rom, a))
}

/// Build a minimal ROM around `files` (for tests and fuzz seeds): header, build strings,
/// dmadata, then each file (Yaz0-compressed when `compress`).
pub fn build_test_rom(files: &[Vec<u8>], compress: bool, version: usize) -> Vec<u8> {
    let files: Vec<(&[u8], bool)> = files.iter().map(|f| (f.as_slice(), compress)).collect();
    build_test_rom_with(&files, version)
}

/// A ROM laid out as the retail games lay theirs out, around `files` (for benches and the
/// `z64open rom` tool): no name table, the largest file (an animation bank such as
/// `link_animetion`) first in the table and stored, every other file Yaz0-compressed.
pub fn build_retail_like_rom(files: &[Vec<u8>]) -> Vec<u8> {
    let largest = (0..files.len()).max_by_key(|&i| files[i].len());
    let order = largest.into_iter().chain((0..files.len()).filter(|&i| Some(i) != largest));
    let entries: Vec<(&[u8], bool)> = order.map(|i| (files[i].as_slice(), Some(i) != largest)).collect();
    build_test_rom_with(&entries, 0)
}

/// As [`build_test_rom`], choosing per file whether it is Yaz0-compressed.
pub fn build_test_rom_with(files: &[(&[u8], bool)], version: usize) -> Vec<u8> {
    build_test_rom_named(files, None, version)
}

/// As [`build_test_rom_with`], with a debug-ROM file name table when `names` is given (one
/// name per file; "makerom", "boot", "dmadata" come first).
pub fn build_test_rom_named(files: &[(&[u8], bool)], names: Option<&[&str]>, version: usize) -> Vec<u8> {
    let mut rom = vec![0u8; 0x1000];
    rom[..4].copy_from_slice(&[0x80, 0x37, 0x12, 0x40]);
    rom[0x20..0x33].copy_from_slice(b"THE LEGEND OF ZELDA");
    rom[0x3B..0x3F].copy_from_slice(b"CZLE");
    let (creator, date, _) = BUILDS[version % BUILDS.len()];
    rom.extend_from_slice(creator.as_bytes());
    rom.push(0);
    rom.extend_from_slice(date.as_bytes());
    rom.push(0);
    while !rom.len().is_multiple_of(16) {
        rom.push(0);
    }
    let dma = rom.len();
    // makerom (the header), boot (placeholder), dmadata, then the files.
    let n = files.len() + 3;
    let table_size = (n + 1) * DMA_ENTRY_SIZE;
    rom.resize(dma + table_size, 0);
    if let Some(names) = names {
        // Strings then the pointer table after dmadata, "loaded" at 0x80000000 + ROM offset.
        let mut ptrs = Vec::new();
        for n in ["makerom", "boot", "dmadata"].iter().chain(names.iter()) {
            ptrs.push(0x8000_0000u32 + rom.len() as u32);
            rom.extend_from_slice(n.as_bytes());
            rom.push(0);
            while !rom.len().is_multiple_of(4) {
                rom.push(0);
            }
        }
        for p in ptrs {
            rom.extend_from_slice(&p.to_be_bytes());
        }
    }
    let mut entries = vec![(0u32, 0x1000u32, 0u32, 0u32), (0x1000, dma as u32, 0x1000, 0)];
    entries.push((dma as u32, (dma + table_size) as u32, dma as u32, 0));
    let mut vrom = (dma + table_size) as u32;
    for &(f, compress) in files {
        while !rom.len().is_multiple_of(16) {
            rom.push(0);
        }
        let rs = rom.len() as u32;
        let vs = vrom;
        vrom += f.len().div_ceil(16) as u32 * 16;
        if compress {
            let c = yaz0::encode(f);
            rom.extend_from_slice(&c);
            entries.push((vs, vs + f.len() as u32, rs, rom.len() as u32));
        } else {
            rom.extend_from_slice(f);
            entries.push((vs, vs + f.len() as u32, rs, 0));
        }
    }
    for (i, e) in entries.iter().enumerate() {
        let at = dma + i * DMA_ENTRY_SIZE;
        for (k, v) in [e.0, e.1, e.2, e.3].iter().enumerate() {
            rom[at + k * 4..at + k * 4 + 4].copy_from_slice(&v.to_be_bytes());
        }
    }
    while !rom.len().is_multiple_of(16) {
        rom.push(0);
    }
    rom
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ique_deflate_files() {
        use std::io::Write;
        let data: Vec<u8> = (0..3000u32).map(|i| (i % 251) as u8).collect();
        let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(&data).unwrap();
        let comp = enc.finish().unwrap();
        assert_eq!(inflate(&comp, data.len()).unwrap(), data);
        assert!(inflate(&comp, data.len() + 1).is_err(), "a size that disagrees with the table");
        assert!(inflate(&[0xFF; 16], 10).is_err());
    }

    #[test]
    fn every_oot_build_has_its_decomp_version() {
        for (_, _, label) in BUILDS {
            match decomp_version(label) {
                Some(v) if label.starts_with("MM") => assert!(v.starts_with("mm-"), "{label}: {v}"),
                Some(v) => assert!(crate::names::VERSIONS.contains(&v), "{label}: {v}"),
                None => panic!("{label}"),
            }
        }
    }

    #[test]
    fn byte_orders() {
        let z = [0x80, 0x37, 0x12, 0x40, 1, 2, 3, 4];
        assert_eq!(byte_order(&z), Some(ByteOrder::BigEndian));
        let v = [0x37, 0x80, 0x40, 0x12, 2, 1, 4, 3];
        assert_eq!(byte_order(&v), Some(ByteOrder::ByteSwapped));
        let mut w = v;
        normalize_in_place(&mut w, ByteOrder::ByteSwapped);
        assert_eq!(w, z);
        let n = [0x40, 0x12, 0x37, 0x80, 4, 3, 2, 1];
        assert_eq!(byte_order(&n), Some(ByteOrder::LittleEndian));
        let mut w = n;
        normalize_in_place(&mut w, ByteOrder::LittleEndian);
        assert_eq!(w, z);
        assert_eq!(byte_order(b"Yaz0"), None);
    }
}
