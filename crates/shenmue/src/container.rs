//! Containers that hold Shenmue models and motions: GZ (gzip), PKF ("PAKF" chunks),
//! PKS ("PAKS" + IPAC), IPAC and AFS. Each reader returns named entries as sub-slices
//! (zero-copy, except GZ which inflates with a size limit). Sizes that lie (past the end,
//! overlapping the header) are errors naming the offset.
//!
//! Each has a writer too (fixtures and tests; no public Shenmue container of a model exists).

use crate::layout::container as L;
use boneyard_core::reader::cstr;
use boneyard_core::{limit, Endian, Error, Limit, Limits, Reader, Result, Writer};
use std::io::Read;

/// Largest inflated GZ payload by default (`Limits::max_inflated_bytes`).
fn max_inflated() -> Limit {
    limit!(Limits::default(), max_inflated_bytes)
}
/// Most entries of one container by default (`Limits::max_entries`).
fn max_entries() -> Limit {
    limit!(Limits::default(), max_entries)
}

/// One entry of a container.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry<'a> {
    /// The entry's name (`NAME.EXT` for IPAC, the chunk tag for PKF, the AFS name table's).
    pub name: String,
    /// Absolute offset in the container's bytes.
    pub offset: usize,
    /// The entry's bytes.
    pub data: &'a [u8],
}

/// The container formats Shenmue's discs pack files in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A gzip stream (one file).
    Gz,
    /// PAKF: tagged chunks (`{fourcc, size}`).
    Pkf,
    /// PAKS: a header pointing at an IPAC directory.
    Pks,
    /// IPAC: a dictionary of named files.
    Ipac,
    /// AFS: an offset table with an optional name table.
    Afs,
}

/// The container a file is, from its magic bytes (`None` for anything else).
pub fn kind_of(data: &[u8]) -> Option<Kind> {
    match data.get(..4) {
        Some(m) if m == L::PAKF => Some(Kind::Pkf),
        Some(m) if m == L::PAKS => Some(Kind::Pks),
        Some(m) if m == L::IPAC => Some(Kind::Ipac),
        Some(m) if m == L::AFS => Some(Kind::Afs),
        Some(m) if m[..2] == L::GZIP => Some(Kind::Gz),
        _ => None,
    }
}

/// Inflate a gzip stream (bounded by the default `Limits::max_inflated_bytes`).
pub fn gunzip(data: &[u8]) -> Result<Vec<u8>> {
    gunzip_max(data, max_inflated().max)
}

/// Inflate a gzip stream, stopping with an error naming `max_inflated_bytes` past `max` bytes
/// (nested archives pass what is left of their total, so a GZ in a GZ cannot hold twice the
/// limit at once).
pub fn gunzip_max(data: &[u8], max: u64) -> Result<Vec<u8>> {
    gunzip_within(data, max, Limit::new(max_inflated().name, max))
}

/// [`gunzip_max`] naming the caller's `limit` (of which `max` is what is left).
pub fn gunzip_within(data: &[u8], max: u64, limit: Limit) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut d = flate2::read::GzDecoder::new(data).take(max.saturating_add(1));
    d.read_to_end(&mut out).map_err(|e| Error::invalid(0, format!("gzip: {e}")))?;
    if out.len() as u64 > max {
        return Err(limit.error(0, limit.max - max + out.len() as u64, "bytes inflated"));
    }
    Ok(out)
}

/// Compress `data` as a gzip stream (test fixtures, the demo).
pub fn gzip(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    // Writing to a Vec cannot fail.
    let _ = e.write_all(data);
    e.finish().unwrap_or_default()
}

/// PKF: `PAKF, u32 content size (the whole PKF, header included), u32 unknown, u32 file
/// count`, an optional `DUMY` chunk, then `count` chunks `{fourcc, u32 size incl. this 8-byte
/// header}`; a zero word between chunks is padding (skipped 4 bytes at a time).
pub fn read_pkf(data: &[u8]) -> Result<Vec<Entry<'_>>> {
    read_pkf_with(data, max_entries())
}

/// [`read_pkf`] with the caller's `max_entries`.
pub fn read_pkf_with(data: &[u8], max_entries: Limit) -> Result<Vec<Entry<'_>>> {
    let mut r = Reader::new(data, Endian::Little);
    if r.array::<4>()? != *L::PAKF {
        return Err(Error::invalid(0, "not a PAKF"));
    }
    let size_at = r.offset();
    let end = r.u32()? as usize;
    let _unk = r.u32()?;
    let count_at = r.offset();
    let count = r.u32()? as usize;
    if end < L::PKF_HEADER || end > data.len() {
        return Err(Error::invalid(
            size_at,
            format!("content size {end} does not fit the file's {} bytes", data.len()),
        ));
    }
    max_entries.check(count as u64, count_at, "PKF files")?;
    let mut out = Vec::new();
    let mut pos = L::PKF_HEADER;
    while out.len() < count && pos + L::CHUNK_HEADER <= end {
        let mut c = Reader::at(data, pos, Endian::Little)?;
        let tag = c.array::<4>()?;
        if tag == [0; 4] {
            pos += 4;
            continue;
        }
        let size = c.u32()? as usize;
        if size < L::CHUNK_HEADER || size > end - pos {
            return Err(Error::invalid(
                pos as u64 + 4,
                format!("chunk size {size} does not fit (the PKF ends at {end:#x})"),
            ));
        }
        if &tag != b"DUMY" {
            out.push(Entry { name: cstr(&tag), offset: pos, data: &data[pos..pos + size] });
        }
        pos += size;
    }
    Ok(out)
}

/// A PAKF of these chunks (tag, payload), for fixtures.
pub fn write_pkf(chunks: &[([u8; 4], &[u8])]) -> Vec<u8> {
    let mut w = Writer::new(Endian::Little);
    w.bytes(L::PAKF).u32(0).u32(0).u32(chunks.len() as u32);
    w.bytes(b"DUMY").u32(16).zeros(8);
    for (tag, d) in chunks {
        w.bytes(tag).u32((L::CHUNK_HEADER + d.len()) as u32).bytes(d);
    }
    let total = w.len() as u32;
    w.patch_u32(4, total);
    w.into_bytes()
}

/// IPAC at `base`: `IPAC, dictOfs, count, content size`; dictionary of 20-byte entries
/// `{name[8], ext[4], ofs, size}` with offsets relative to the IPAC start. The content size
/// is where the data ends (ShenmueDK writes the dictionary there), so entries and the
/// dictionary are bounded by the file, and the size field only has to fit in it.
pub fn read_ipac(data: &[u8], base: usize) -> Result<Vec<Entry<'_>>> {
    read_ipac_with(data, base, max_entries())
}

/// [`read_ipac`] with the caller's `max_entries`.
pub fn read_ipac_with(data: &[u8], base: usize, max_entries: Limit) -> Result<Vec<Entry<'_>>> {
    let mut r = Reader::at(data, base, Endian::Little)?;
    if r.array::<4>()? != *L::IPAC {
        return Err(Error::invalid(base as u64, "not an IPAC"));
    }
    let dict = r.u32()? as usize;
    let count_at = r.offset();
    let count = r.u32()?;
    let size_at = r.offset();
    let size = r.u32()? as usize;
    if base.checked_add(size).is_none_or(|e| e > data.len()) {
        return Err(Error::invalid(size_at, format!("IPAC size {size} runs past the file's {} bytes", data.len())));
    }
    let block = data;
    let mut d = Reader::at(block, base.saturating_add(dict), Endian::Little)
        .map_err(|_| Error::invalid(base as u64 + 4, format!("dictionary offset {dict:#x} is past the IPAC")))?;
    let count = d
        .check_count(u64::from(count), L::IPAC_ENTRY, max_entries, "IPAC entries")
        .map_err(|e| Error { offset: Some(count_at), ..e })?;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let at = d.offset();
        let name = cstr(d.bytes(8)?);
        let ext = cstr(d.bytes(4)?);
        let ofs = d.u32()? as usize;
        let len = d.u32()? as usize;
        let start = base.checked_add(ofs);
        let slice = start.and_then(|s| s.checked_add(len).and_then(|e| block.get(s..e)));
        let Some(slice) = slice else {
            return Err(Error::invalid(
                at + 12,
                format!("entry {name}.{ext}: {len} bytes at +{ofs:#x} run past the IPAC"),
            ));
        };
        out.push(Entry { name: format!("{name}.{ext}"), offset: base + ofs, data: slice });
    }
    Ok(out)
}

/// An IPAC of these files (name, extension, bytes), for fixtures.
pub fn write_ipac(files: &[(&str, &str, &[u8])]) -> Vec<u8> {
    let mut w = Writer::new(Endian::Little);
    w.bytes(L::IPAC).u32(0).u32(files.len() as u32).u32(0);
    let mut ofs = Vec::new();
    for (_, _, d) in files {
        w.align(16);
        ofs.push(w.len() as u32);
        w.bytes(d);
    }
    w.align(16);
    // The content size is where the dictionary starts (as ShenmueDK writes it).
    let dict = w.len();
    for ((n, e, d), o) in files.iter().zip(&ofs) {
        w.name(n, 8).name(e, 4).u32(*o).u32(d.len() as u32);
    }
    w.patch_u32(4, dict as u32);
    w.patch_u32(12, dict as u32);
    w.into_bytes()
}

/// PKS: `PAKS, u32 IPAC offset (0x10), 2 × u32`, then the IPAC.
pub fn read_pks(data: &[u8]) -> Result<Vec<Entry<'_>>> {
    read_pks_with(data, max_entries())
}

/// [`read_pks`] with the caller's `max_entries`.
pub fn read_pks_with(data: &[u8], max_entries: Limit) -> Result<Vec<Entry<'_>>> {
    let mut r = Reader::new(data, Endian::Little);
    if r.array::<4>()? != *L::PAKS {
        return Err(Error::invalid(0, "not a PAKS"));
    }
    let ipac = r.u32()? as usize;
    if ipac < L::PKS_HEADER || ipac >= data.len() {
        return Err(Error::invalid(4, format!("IPAC offset {ipac:#x} is outside the file")));
    }
    read_ipac_with(data, ipac, max_entries)
}

/// A PAKS holding an IPAC of these files (name, extension, bytes), for fixtures.
pub fn write_pks(files: &[(&str, &str, &[u8])]) -> Vec<u8> {
    let mut w = Writer::new(Endian::Little);
    w.bytes(L::PAKS).u32(L::PKS_HEADER as u32).u32(0).u32(0);
    w.bytes(&write_ipac(files));
    w.into_bytes()
}

/// AFS: `AFS\0, u32 count`, `count × {ofs, size}`; the name table's `{ofs, size}` at the end of
/// the first 2048-byte sector (0x8000 - 8 when count > 1016), 48-byte name records.
pub fn read_afs(data: &[u8]) -> Result<Vec<Entry<'_>>> {
    read_afs_with(data, max_entries())
}

/// [`read_afs`] with the caller's `max_entries`.
pub fn read_afs_with(data: &[u8], max_entries: Limit) -> Result<Vec<Entry<'_>>> {
    let mut r = Reader::new(data, Endian::Little);
    if r.array::<4>()? != *L::AFS {
        return Err(Error::invalid(0, "not an AFS"));
    }
    let count = r.u32()?;
    let count = r.check_count(u64::from(count), 8, max_entries, "AFS entries")?;
    let mut spans = Vec::with_capacity(count);
    for _ in 0..count {
        let at = r.offset();
        let (o, s) = (r.u32()? as usize, r.u32()? as usize);
        if o.checked_add(s).is_none_or(|e| e > data.len()) || o < 8 + 8 * count {
            return Err(Error::invalid(at, format!("entry of {s} bytes at {o:#x} lies outside the archive")));
        }
        spans.push((o, s));
    }
    let table_ptr = afs_first_data(count) - 8;
    let names = Reader::at(data, table_ptr, Endian::Little).ok().and_then(|mut t| {
        let (o, s) = (t.u32().ok()? as usize, t.u32().ok()? as usize);
        (o != 0 && s >= count * L::AFS_NAME_RECORD)
            .then_some(o)
            .and_then(|o| data.get(o..o.checked_add(count * L::AFS_NAME_RECORD)?).map(|b| b.to_vec()))
    });
    Ok(spans
        .into_iter()
        .enumerate()
        .map(|(i, (o, s))| {
            let name = names
                .as_ref()
                .map(|n| cstr(&n[i * L::AFS_NAME_RECORD..i * L::AFS_NAME_RECORD + 32]))
                .filter(|n| !n.is_empty())
                .unwrap_or_else(|| format!("{i:05}"));
            Entry { name, offset: o, data: &data[o..o + s] }
        })
        .collect())
}

/// Where an AFS's data starts and (8 bytes before it) the name-table pointer sits: the
/// sector boundary after the offset table (a whole sector further when the table ends on one),
/// or 0x8000 for more than 1016 entries.
pub fn afs_first_data(count: usize) -> usize {
    if count > L::AFS_BIG_COUNT {
        return 0x8000;
    }
    let end = 8 + 8 * count;
    end + L::AFS_SECTOR - end % L::AFS_SECTOR
}

/// An AFS of these files (name, bytes) with a name table, for fixtures.
pub fn write_afs(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = Writer::new(Endian::Little);
    w.bytes(L::AFS).u32(files.len() as u32);
    let table = w.len();
    w.zeros(8 * files.len());
    let first = afs_first_data(files.len());
    w.zeros(first - w.len());
    let mut spans = Vec::new();
    for (_, d) in files {
        spans.push((w.len() as u32, d.len() as u32));
        w.bytes(d);
        w.align(L::AFS_SECTOR);
    }
    let name_ofs = w.len();
    for (n, d) in files {
        w.name(n, 32);
        w.zeros(12).u32(d.len() as u32);
    }
    for (i, (o, s)) in spans.iter().enumerate() {
        w.patch_u32(table + 8 * i, *o);
        w.patch_u32(table + 8 * i + 4, *s);
    }
    let ptr = first - 8;
    w.patch_u32(ptr, name_ofs as u32);
    w.patch_u32(ptr + 4, (files.len() * L::AFS_NAME_RECORD) as u32);
    w.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pks_ipac_layout_by_hand() {
        // One 3-byte file: PAKS header (16), IPAC header (16), data at IPAC+0x10, dictionary
        // at IPAC+0x20 (aligned), one 20-byte entry.
        let d = write_pks(&[("ROO_", "BIN", b"abc")]);
        assert_eq!(&d[0..4], b"PAKS");
        assert_eq!(u32::from_le_bytes(d[4..8].try_into().unwrap()), 0x10);
        assert_eq!(&d[16..20], b"IPAC");
        assert_eq!(u32::from_le_bytes(d[20..24].try_into().unwrap()), 0x20);
        // Content size = the dictionary's offset; the dictionary follows: 0x10 + 0x20 + 20.
        assert_eq!(u32::from_le_bytes(d[28..32].try_into().unwrap()), 0x20);
        assert_eq!(d.len(), 0x10 + 0x20 + 20);
        let e = read_pks(&d).unwrap();
        assert_eq!((e[0].name.as_str(), e[0].offset, e[0].data), ("ROO_.BIN", 0x20, &b"abc"[..]));
    }

    #[test]
    fn npc_demo_pks_layout_from_the_reference() {
        // The real NPC_DEMO.PKS (564 bytes) as the reference describes it: PAKS at 0, IPAC at
        // 0x10 with its dictionary at +0x210 holding one entry, ROO_.BIN (an SCNF). Built by
        // hand: the entry's data fills 0x20..0x220, the 20-byte dictionary ends the file.
        let mut d = vec![0u8; 564];
        d[0..4].copy_from_slice(b"PAKS");
        d[4..8].copy_from_slice(&0x10u32.to_le_bytes());
        d[0x10..0x14].copy_from_slice(b"IPAC");
        d[0x14..0x18].copy_from_slice(&0x210u32.to_le_bytes());
        d[0x18..0x1C].copy_from_slice(&1u32.to_le_bytes());
        d[0x1C..0x20].copy_from_slice(&0x210u32.to_le_bytes());
        d[0x20..0x24].copy_from_slice(b"SCNF");
        d[0x220..0x224].copy_from_slice(b"ROO_");
        d[0x228..0x22B].copy_from_slice(b"BIN");
        d[0x22C..0x230].copy_from_slice(&0x10u32.to_le_bytes());
        d[0x230..0x234].copy_from_slice(&0x200u32.to_le_bytes());
        let e = read_pks(&d).unwrap();
        assert_eq!(e.len(), 1);
        assert_eq!((e[0].name.as_str(), e[0].offset, e[0].data.len()), ("ROO_.BIN", 0x20, 0x200));
        assert_eq!(&e[0].data[..4], b"SCNF");
    }

    #[test]
    fn lying_sizes_are_errors_with_offsets() {
        let mut d = write_pks(&[("A", "MT5", b"xyz")]);
        // Entry size field: dictionary at IPAC+0x20 → absolute 0x30; size at +16.
        d[0x30 + 16] = 0xFF;
        let e = read_pks(&d).unwrap_err();
        assert_eq!(e.offset, Some(0x30 + 12));
        let mut p = write_pkf(&[(*b"TEXN", b"1234")]);
        // Layout by hand: header 16, DUMY 16, TEXN chunk 12; content size = all 44 bytes.
        assert_eq!(p.len(), 44);
        assert_eq!(u32::from_le_bytes(p[4..8].try_into().unwrap()), 44);
        let e = read_pkf(&p).unwrap();
        assert_eq!((e.len(), e[0].name.as_str(), e[0].offset), (1, "TEXN", 32));
        p[36] = 0xFF; // the TEXN chunk's size
        assert_eq!(read_pkf(&p).unwrap_err().offset, Some(36));
        p[4] = 0xFF;
        assert_eq!(read_pkf(&p).unwrap_err().offset, Some(4));
        let mut a = write_afs(&[("one.mt5", b"hello")]);
        a[15] = 0x7F; // size of entry 0 (its top byte)
        assert_eq!(read_afs(&a).unwrap_err().offset, Some(8));
        assert!(gunzip(b"\x1f\x8b\x08garbage").is_err());
    }

    #[test]
    fn afs_name_pointer_follows_the_table() {
        assert_eq!(afs_first_data(1), 2048);
        assert_eq!(afs_first_data(254), 2048); // 8 + 2032 = 2040
        assert_eq!(afs_first_data(255), 4096); // the table ends exactly on the sector
        assert_eq!(afs_first_data(300), 4096);
        assert_eq!(afs_first_data(1017), 0x8000);
        let files: Vec<(String, Vec<u8>)> = (0..300).map(|i| (format!("f{i}"), vec![i as u8; 3])).collect();
        let refs: Vec<(&str, &[u8])> = files.iter().map(|(n, d)| (n.as_str(), d.as_slice())).collect();
        let a = write_afs(&refs);
        let e = read_afs(&a).unwrap();
        assert_eq!((e.len(), e[299].name.as_str(), e[299].data), (300, "f299", &[43u8, 43, 43][..]));
        assert_eq!(e[0].offset, 4096);
    }

    #[test]
    fn afs_names_and_gzip() {
        let a = write_afs(&[("one.mt5", b"hello"), ("two.bin", b"world!")]);
        let e = read_afs(&a).unwrap();
        assert_eq!(e[1].name, "two.bin");
        assert_eq!(e[1].data, b"world!");
        assert_eq!(e[0].offset, 2048);
        assert_eq!(gunzip(&gzip(b"payload")).unwrap(), b"payload");
        assert_eq!(gunzip_max(&gzip(b"payload"), 7).unwrap(), b"payload");
        let e = gunzip_max(&gzip(b"payload"), 6).unwrap_err();
        assert!(e.to_string().contains("limit `max_inflated_bytes` (6) exceeded: 7 bytes inflated"), "{e}");
        assert_eq!(kind_of(&gzip(b"x")), Some(Kind::Gz));
    }
}
