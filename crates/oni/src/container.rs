//! Instance files: level `.dat` (VR31, raw data in the `.raw` and `.sep` beside it) and
//! OniSplit's `.oni` (VR32, raw data appended inside the file).
//!
//! Every offset read here is checked against the file before use; errors name the file and
//! the byte offset.

use crate::layout::{self, descriptor as d, header as h};
use boneyard_core::reader::{cstr, slice};
use boneyard_core::{limit, Endian, Error, Limits, Reader, Result};
use bytes::Bytes;

/// The container's version word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    /// Level `.dat` of the game (all retail and demo builds).
    Vr31,
    /// OniSplit's single-instance `.oni` file (raw table inside).
    Vr32,
}

impl Version {
    /// The version's four characters ("VR31", "VR32").
    pub fn name(self) -> &'static str {
        match self {
            Version::Vr31 => "VR31",
            Version::Vr32 => "VR32",
        }
    }
}

/// One instance descriptor.
#[derive(Debug, Clone)]
pub struct Descriptor {
    /// The template tag ([`crate::layout::tag`] of "TRAM", "ONCC"...).
    pub tag: u32,
    /// Offset of the struct (past the 8-byte pre-data), relative to the data block.
    pub data_offset: u32,
    /// Instance name with its tag prefix ("TRAMKONCOMpunch_heavy"), if named.
    pub name: Option<String>,
    /// Size in bytes, the pre-data included.
    pub size: u32,
    /// Descriptor flags ([`crate::layout::descriptor::FLAG_UNIQUE`], `FLAG_PLACEHOLDER`).
    pub flags: u32,
    /// Defined elsewhere: looked up by name in the other files given.
    pub placeholder: bool,
}

impl Descriptor {
    /// The name without the four-character tag prefix.
    pub fn short_name(&self) -> Option<&str> {
        self.name.as_deref().map(|n| n.get(4..).unwrap_or(n))
    }
}

/// Where the raw data (`tm_raw` fields) of this file lives.
#[derive(Debug, Clone)]
enum RawStore {
    /// A VR32 file: `[offset, offset + len)` of the file itself; raw fields are relative to it.
    Inside { offset: usize, len: usize },
    /// A VR31 level: the `.raw` beside the `.dat`; raw fields are absolute offsets into it.
    Companion { name: String, data: Option<Bytes> },
}

/// A parsed instance file (descriptors checked; instance data read on demand).
#[derive(Debug, Clone)]
pub struct InstanceFile {
    /// The file's name as given (used in errors and warnings).
    pub name: String,
    /// VR31 level file or VR32 OniSplit file.
    pub version: Version,
    /// The template checksum of the header (names the build: PC retail, demo, PS2).
    pub checksum: u64,
    /// Every instance descriptor, in file order.
    pub descriptors: Vec<Descriptor>,
    /// Number of template descriptors in the header.
    pub num_templates: u32,
    /// Shared, so that what is read out of it (a TRAM's rotation block) is a view, not a copy.
    data: Bytes,
    data_block: usize,
    data_len: usize,
    raw: RawStore,
    /// The `.sep` (Mac and demo: textures and sounds), kept for completeness.
    pub sep: Option<(String, Vec<u8>)>,
}

/// Longest instance name read, its tag prefix included (the retail names are under 64
/// characters). Without it, a million descriptors naming the start of one long name block
/// would each scan and copy the whole block. A fact of what a name is (the engine's names are
/// short fixed strings), not a resource limit: it stays a constant, not a `Limits` field.
pub const MAX_NAME: usize = 256;

/// Does `bytes` start like an instance file (version word and descriptor sizes)?
pub fn looks_like_instance_file(bytes: &[u8]) -> bool {
    let Some(head) = bytes.get(0..0x14) else { return false };
    let v = u32::from_le_bytes([head[8], head[9], head[10], head[11]]);
    let sizes = [
        u16::from_le_bytes([head[12], head[13]]),
        u16::from_le_bytes([head[14], head[15]]),
        u16::from_le_bytes([head[16], head[17]]),
        u16::from_le_bytes([head[18], head[19]]),
    ];
    (v == h::VERSION_VR31 || v == h::VERSION_VR32) && sizes == [64, 20, 16, 8]
}

/// A human name for a template checksum.
pub fn checksum_name(c: u64) -> &'static str {
    match c {
        h::CHECKSUM_PC_RETAIL => "PC retail",
        h::CHECKSUM_PC_DEMO_MAC => "PC demo / Mac",
        h::CHECKSUM_PS2 => "PS2",
        _ => "unknown build",
    }
}

impl InstanceFile {
    /// The file's name without its folders: what `source` fields name (`level1_Final.dat#16`),
    /// so that they do not depend on where the file was read from.
    pub fn file_name(&self) -> &str {
        boneyard_core::text::file_name(&self.name)
    }

    /// Parse the header, descriptors and names. `raw` is the companion `.raw` of a VR31 file
    /// (name, bytes), `None` when it was not found.
    pub fn parse(
        name: &str,
        data: Vec<u8>,
        raw: Option<(String, Vec<u8>)>,
        sep: Option<(String, Vec<u8>)>,
    ) -> Result<Self> {
        Self::parse_with(name, data, raw, sep, &Limits::default())
    }

    /// [`InstanceFile::parse`] within the caller's limits (`max_instances`).
    pub fn parse_with(
        name: &str,
        data: Vec<u8>,
        raw: Option<(String, Vec<u8>)>,
        sep: Option<(String, Vec<u8>)>,
        limits: &Limits,
    ) -> Result<Self> {
        Self::parse_inner(name, data, raw, sep, limits).map_err(|e| e.in_file(name))
    }

    fn parse_inner(
        name: &str,
        data: Vec<u8>,
        raw: Option<(String, Vec<u8>)>,
        sep: Option<(String, Vec<u8>)>,
        limits: &Limits,
    ) -> Result<Self> {
        let mut r = Reader::new(&data, Endian::Little);
        if data.len() < h::SIZE {
            return Err(Error::invalid(
                0,
                format!("{} bytes is too short for an instance file header (64)", data.len()),
            ));
        }
        r.seek(h::CHECKSUM)?;
        let checksum = r.u64()?;
        let version = match r.u32()? {
            h::VERSION_VR31 => Version::Vr31,
            h::VERSION_VR32 => Version::Vr32,
            v => {
                return Err(Error::invalid(
                    h::VERSION as u64,
                    format!("version {:?} is not VR31 (level) or VR32 (OniSplit .oni)", v.to_le_bytes()),
                ))
            }
        };
        let sizes = [r.u16()?, r.u16()?, r.u16()?, r.u16()?];
        if sizes != [64, 20, 16, 8] {
            return Err(Error::invalid(h::SIZES as u64, format!("descriptor sizes {sizes:?} are not (64, 20, 16, 8)")));
        }
        let num_instances = r.u32()? as u64;
        let num_names = r.u32()? as u64;
        let num_templates = r.u32()?;
        let data_block = r.u32()? as usize;
        let data_len = r.u32()? as usize;
        let name_block = r.u32()? as usize;
        let name_len = r.u32()? as usize;
        let raw_off = r.u32()? as usize;
        let raw_len = r.u32()? as usize;

        let check_block = |what: &str, at: usize, off: usize, len: usize| -> Result<()> {
            if off.checked_add(len).is_none_or(|e| e > data.len()) {
                return Err(Error::invalid(
                    at as u64,
                    format!("{what} [{off:#x}, +{len:#x}) is past the end of the file ({:#x} bytes)", data.len()),
                ));
            }
            Ok(())
        };
        // OniSplit rounds a .oni's data block length up to 32 bytes without writing the
        // padding after the last instance: clamp it to the file (each instance is checked).
        let data_len = match version {
            Version::Vr32 if data_block <= data.len() => data_len.min(data.len() - data_block),
            _ => data_len,
        };
        check_block("data block", h::DATA_OFFSET, data_block, data_len)?;
        check_block("name block", h::NAME_OFFSET, name_block, name_len)?;
        let raw = match version {
            Version::Vr32 => {
                check_block("raw table", h::RAW_OFFSET, raw_off, raw_len)?;
                RawStore::Inside { offset: raw_off, len: raw_len }
            }
            Version::Vr31 => {
                if name_block.checked_add(name_len) != Some(data.len()) {
                    return Err(Error::invalid(
                        h::NAME_LENGTH as u64,
                        format!(
                            "the name block ends at {:#x} but the file is {:#x} bytes (a level file ends with its names)",
                            name_block + name_len,
                            data.len()
                        ),
                    ));
                }
                match raw {
                    Some((n, b)) => RawStore::Companion { name: n, data: Some(Bytes::from(b)) },
                    None => RawStore::Companion { name: String::new(), data: None },
                }
            }
        };

        r.seek(h::SIZE)?;
        // A count that does not fit (the limit, or a table past the end) is the header field
        // declaring it, not the table (as MOTN's): the offset is the field's.
        let at_field = |field: usize| move |e: Error| Error { offset: Some(field as u64), ..e };
        let n = r
            .check_count(
                num_instances,
                h::SIZE_INSTANCE_DESCRIPTOR,
                limit!(limits, max_instances),
                "instance descriptors",
            )
            .map_err(at_field(h::NUM_INSTANCES))?;
        let names = slice(&data, name_block, name_len)?;
        let mut descriptors = Vec::with_capacity(n);
        for i in 0..n {
            let at = r.offset();
            let tag = r.u32()?;
            let data_offset = r.u32()?;
            let name_offset = r.u32()? as usize;
            let size = r.u32()?;
            let flags = r.u32()?;
            let named = flags & d::FLAG_UNIQUE == 0;
            let name = if named {
                let s = names.get(name_offset..).ok_or_else(|| {
                    Error::invalid(
                        at + d::NAME_OFFSET as u64,
                        format!("instance {i}: name offset {name_offset:#x} is outside the name block ({name_len:#x} bytes)"),
                    )
                })?;
                let len = s.iter().take(MAX_NAME).position(|&c| c == 0).ok_or_else(|| {
                    Error::invalid(
                        name_block as u64 + name_offset as u64,
                        format!("instance {i}: name is not terminated within {MAX_NAME} bytes"),
                    )
                })?;
                Some(cstr(&s[..len]))
            } else {
                None
            };
            let placeholder = flags & d::FLAG_PLACEHOLDER != 0 || size == 0 || data_offset == 0;
            if !placeholder {
                // The struct and its pre-data must lie inside the data block.
                let start = (data_offset as usize).checked_sub(d::PRE_DATA);
                let ok = start.is_some()
                    && (size as usize) >= d::PRE_DATA
                    && start.and_then(|s| s.checked_add(size as usize)).is_some_and(|e| e <= data_len);
                if !ok {
                    return Err(Error::invalid(
                        at + d::DATA_OFFSET as u64,
                        format!(
                            "instance {i} ({}): data [{data_offset:#x} - 8, +{size:#x}) is outside the data block ({data_len:#x} bytes)",
                            layout::tag_name(tag)
                        ),
                    ));
                }
            }
            descriptors.push(Descriptor { tag, data_offset, name, size, flags, placeholder });
        }
        // Name descriptors: instance indices, for the engine's binary search. Check them.
        let nn = r
            .check_count(num_names, h::SIZE_NAME_DESCRIPTOR, limit!(limits, max_instances), "name descriptors")
            .map_err(at_field(h::NUM_NAMES))?;
        for _ in 0..nn {
            let at = r.offset();
            let idx = r.u32()? as usize;
            r.u32()?;
            if idx >= n {
                return Err(Error::invalid(at, format!("name descriptor points at instance {idx} of {n}")));
            }
        }
        Ok(InstanceFile {
            name: name.to_string(),
            version,
            checksum,
            descriptors,
            num_templates,
            data: Bytes::from(data),
            data_block,
            data_len,
            raw,
            sep,
        })
    }

    /// Absolute file offset of instance `i`'s struct.
    pub fn struct_offset(&self, i: usize) -> Option<u64> {
        self.descriptors.get(i).map(|desc| self.data_block as u64 + desc.data_offset as u64)
    }

    /// The struct of instance `i` (pre-data excluded), with a reader keeping file offsets.
    pub fn instance(&self, i: usize) -> Result<Reader<'_>> {
        let desc = self
            .descriptors
            .get(i)
            .ok_or_else(|| Error::invalid(0, format!("no instance {i} (the file has {})", self.descriptors.len())))?;
        if desc.placeholder {
            return Err(Error::invalid(
                0,
                format!("instance {i} ({}) is a placeholder without data", desc.name.as_deref().unwrap_or("?")),
            ));
        }
        let block = Reader::new(&self.data, Endian::Little).sub(self.data_block, self.data_len)?;
        block.sub(desc.data_offset as usize, desc.size as usize - d::PRE_DATA)
    }

    /// The two pre-data words of instance `i`: its own link and the file id.
    pub fn pre_data(&self, i: usize) -> Result<(u32, u32)> {
        let desc = self.descriptors.get(i).ok_or_else(|| Error::invalid(0, format!("no instance {i}")))?;
        let at = (self.data_block + desc.data_offset as usize)
            .checked_sub(d::PRE_DATA)
            .filter(|_| !desc.placeholder)
            .ok_or_else(|| Error::invalid(0, format!("instance {i} has no data")))?;
        let mut r = Reader::at(&self.data, at, Endian::Little)?;
        Ok((r.u32()?, r.u32()?))
    }

    /// Resolve a link read at file offset `at`: `None` for 0, the descriptor index otherwise.
    pub fn link(&self, link: u32, at: u64) -> Result<Option<usize>> {
        if link == 0 {
            return Ok(None);
        }
        match layout::link_index(link) {
            Some(i) if i < self.descriptors.len() => Ok(Some(i)),
            _ => Err(Error::invalid(
                at,
                format!("link {link:#010x} is not (index << 8) | 1 of one of the {} instances", self.descriptors.len()),
            )
            .in_file(&self.name)),
        }
    }

    /// Name of the file the raw data lives in (for error messages).
    pub fn raw_name(&self) -> &str {
        match &self.raw {
            RawStore::Inside { .. } => &self.name,
            RawStore::Companion { name, .. } => name,
        }
    }

    /// True when the raw data is at hand (inside a VR32 file, or the level's `.raw` was found).
    pub fn has_raw(&self) -> bool {
        match &self.raw {
            RawStore::Inside { .. } => true,
            RawStore::Companion { data, .. } => data.is_some(),
        }
    }

    /// Length of the raw data (0 when the `.raw` was not found).
    pub fn raw_len(&self) -> usize {
        match &self.raw {
            RawStore::Inside { len, .. } => *len,
            RawStore::Companion { data, .. } => data.as_ref().map_or(0, |d| d.len()),
        }
    }

    /// `len` bytes of the raw data from raw offset `off`, shared with the file (no copy);
    /// None when they are not all there.
    pub fn raw_shared(&self, off: u32, len: usize) -> Option<Bytes> {
        let (store, base, size) = match &self.raw {
            RawStore::Inside { offset, len } => (&self.data, *offset, *len),
            RawStore::Companion { data: Some(b), .. } => (b, 0, b.len()),
            RawStore::Companion { data: None, .. } => return None,
        };
        let start = off as usize;
        let end = start.checked_add(len).filter(|&e| e <= size)?;
        Some(store.slice(base + start..base + end))
    }

    /// The file that holds the raw data, and the byte offset in it of raw offset `off`.
    pub fn raw_position(&self, off: u32) -> (String, u64) {
        match &self.raw {
            RawStore::Inside { offset, .. } => (self.name.clone(), *offset as u64 + u64::from(off)),
            RawStore::Companion { name, .. } => (name.clone(), u64::from(off)),
        }
    }

    /// A reader over the raw data from raw offset `off` to the end of the raw data, with
    /// absolute offsets of the file that holds it. `field_at` is where the offset was read
    /// (named in the error when it is out of range), `what` what the errors call the data
    /// (worded only for an error: `format_args!` costs nothing until then).
    pub fn raw_from(&self, off: u32, field_at: u64, what: impl std::fmt::Display) -> Result<Reader<'_>> {
        let (base, bytes, file): (usize, &[u8], &str) = match &self.raw {
            RawStore::Inside { offset, len } => (*offset, slice(&self.data, *offset, *len)?, &self.name),
            RawStore::Companion { name, data: Some(b) } => (0, &b[..], name),
            RawStore::Companion { data: None, .. } => {
                return Err(Error::invalid(
                    field_at,
                    format!("{what} is in the .raw, which was not found beside the .dat"),
                )
                .in_file(&self.name))
            }
        };
        let off = off as usize;
        if off >= bytes.len() {
            return Err(Error::invalid(
                field_at,
                format!(
                    "{what}: raw offset {off:#x} is past the end of the raw data ({:#x} bytes in {file})",
                    bytes.len()
                ),
            )
            .in_file(&self.name));
        }
        let whole = Reader::new(&self.data, Endian::Little);
        let r = match &self.raw {
            RawStore::Inside { .. } => whole.sub(base + off, bytes.len() - off)?,
            RawStore::Companion { .. } => Reader::new(bytes, Endian::Little).tail(off)?,
        };
        Ok(r)
    }

    /// `len` bytes of raw data at `off` (checked), as [`raw_from`](Self::raw_from).
    pub fn raw_slice(&self, off: u32, len: usize, field_at: u64, what: impl std::fmt::Display) -> Result<Reader<'_>> {
        let r = self.raw_from(off, field_at, &what)?;
        if len > r.len() {
            return Err(Error::invalid(
                field_at,
                format!(
                    "{what}: {len} bytes at raw offset {off:#x} run past the end of the raw data in {} ({} bytes left)",
                    self.raw_name(),
                    r.len()
                ),
            )
            .in_file(&self.name));
        }
        r.sub(0, len)
    }

    /// Instances with tag `t` that have data.
    pub fn with_tag(&self, t: u32) -> impl Iterator<Item = usize> + '_ {
        self.descriptors.iter().enumerate().filter(move |(_, d)| d.tag == t && !d.placeholder).map(|(i, _)| i)
    }

    /// Length of the instance file in bytes.
    pub fn file_len(&self) -> usize {
        self.data.len()
    }
}
