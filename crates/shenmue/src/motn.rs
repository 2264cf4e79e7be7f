//! Reading MOTN (`MOTION.BIN`, `M_*.BIN`): the file header, the sequence table and names,
//! and each sequence's five blocks exactly as the reference's corrected reading gives them.
//!
//! Policy: a sequence in the standard layout that fails any check (block continuity, counts
//! that disagree, ids not ascending, key frames out of order, NaN/Inf halves, a block that
//! overruns) is an error naming its byte offset. Layouts that are known but not curves
//! (the legacy frame32 layout) and flag families whose layout is undocumented (0x800D,
//! 0xFFFF) are *listed* as such and never read as curves; what their bytes do show is
//! recorded as a [`Shape`], and [`MotnFile::warnings`] names each of them with its offset.
//!
//! What the listed sequences of `MOTION.BIN` are, from their bytes (no source documents them):
//! * **Frame records** (flagHigh 0x8000 = the six `AKI_AKI_YS*` "legacy frame32" ones, and
//!   0x800D = three `EXB_YKI_AKI_STANDBY*` of family 13): one record per frame from +0x0E,
//!   its size in bytes at header +4 (32 and 98), the u16 at +6, +8, +0xA a 48-bit mask of
//!   the controls a record drives: {31, 32, 34, 36} (an arm) and the 17 controls
//!   {1, 5, 7, 9, 12, 14, 16, 18, 21, 25, 26, 28, 30, 31, 32, 34, 36} (the whole body). A
//!   record is the root position (3 halves: 0x3C9A = 1.1504, the rig's root height) and 3
//!   more root words, then 3 int16 rotations (turns × 65536) a control, 1 for the human rig's
//!   class-3 hinges (7, 14, 28, 34): 6 + 3 + 3 + 1 + 3 = 16 and 6 + 13·3 + 4 = 49 int16,
//!   exactly the record sizes. The values are FK rotations of the IK roots (5, 12, 26, 32)
//!   and hinges, which the rig otherwise solves from target positions; how the engine plays
//!   such records (FK through an IK chain) is not published, so they are not decoded. The
//!   one cross-check the data allows: `AKI_AKI_YS*_R_NEW_ST` (decoded curves) end, at their
//!   last frame, on the legacy records' frame 0 for controls 31 (exactly, as the peer's
//!   runtime also gives it) and 36 (within 61 units). Read as plain FK on the human rig's
//!   lengths, with components 3-5 as the root rotation, the standby records put the feet
//!   0.5-1 m above the ground, so what the values mean beyond their count is not established.
//! * **Node arrays** (flagHigh 0xFFFF, the 17 `TMN_*`; no controller family): header +8 =
//!   node count, node records of 32 bytes from +0x0C (a zero word, three half scales = 1.0,
//!   then three (array offset, first value) pairs), then three arrays of `frames + 1` int16
//!   a node, ending exactly at the next sequence (16 of the 17; `TMN_MJAS_OTOSU_2` differs).
//!   An object's node motion: no node tree is published for it, so not decoded.

use crate::curve::{Axis, Curve, Key, Keys};
use crate::layout::motn as L;
pub use lazy::Curves;

mod lazy;
mod order;
mod scan;
use boneyard_core::reader::cstr;
use boneyard_core::{Endian, Error, Reader, Result};

// The caller's limits bound a file (`Limits`): `max_sequences` it may declare (the real file
// has 1559) and `max_total_frames` of all decoded sequences together (MOTION.BIN has about
// 52,000), which keeps `check` and export bounded on hostile headers.

/// Longest name read (a fact of the names, which are short identifiers; not a `Limits` field).
const MAX_NAME: usize = 64;
/// The file's closing bytes that may hold the build stamp and its padding (64 are searched).
const STAMP_TAIL: usize = 64;
// `Limits::max_action_bytes`: bytes of an action metadata block decoded (MOTION.BIN's longest
// is 200). Entries may all name one block that runs to the name table; decoding megabytes of
// cues for each of 4095 entries would hold billions of them. The block's `len` stays its whole
// length; the records past the limit are named in a warning.
/// The action metadata header before its records.
const ACTION_HEADER: usize = 12;

/// A MOTN file (`MOTION.BIN`, `M_*.BIN`): header, table entries and decoded sequence blocks.
#[derive(Debug, Clone)]
pub struct MotnFile {
    /// Header 0x00: offset of the sequence table (0x20).
    pub table_offset: u32,
    /// Header 0x04: offset of the name table.
    pub name_table_offset: u32,
    /// Header 0x08: the base the table's data offsets are relative to.
    pub data_base: u32,
    /// Header 0x0C: attributes (the low 12 bits are the slot count).
    pub attributes: u32,
    /// Header 0x10: the file size the header declares.
    pub file_size: u32,
    /// One per table slot (name), in table order: `--anim #N` indexes this.
    pub entries: Vec<Entry>,
    /// The distinct data blocks, in file order.
    pub blocks: Vec<Block>,
    /// The ASCII build stamp at the end of the file, when present.
    pub timestamp: Option<String>,
    /// Bytes after a decoded sequence that no table entry references (the build stamp at
    /// the end of the file excepted), in file order.
    pub gaps: Vec<Gap>,
    /// Where action metadata may lie: from the table's terminating slot (whose zeros may
    /// begin a block's header) to the name table (absolute offsets).
    pub meta_region: (usize, usize),
}

/// Unreferenced bytes between two sequences.
#[derive(Debug, Clone, PartialEq)]
pub struct Gap {
    /// Absolute offset of the first unreferenced byte.
    pub offset: usize,
    /// Number of unreferenced bytes (up to the next sequence).
    pub len: usize,
    /// When the bytes read as a sequence of their own (an orphan no name points at):
    /// its frames, controller family, layout kind and channel count.
    pub orphan: Option<(u16, u16, &'static str, usize)>,
}

impl MotnFile {
    /// Per block, the names of the entries pointing at it in table order, for the listed
    /// (not decoded) blocks only (empty for decoded ones): one walk over the entries.
    pub fn listed_names(&self) -> Vec<Vec<&str>> {
        let mut out: Vec<Vec<&str>> = vec![Vec::new(); self.blocks.len()];
        for e in &self.entries {
            if let Some(names) = out.get_mut(e.block).filter(|_| self.blocks[e.block].motion().is_none()) {
                names.push(&e.name);
            }
        }
        out
    }

    /// Everything this reader lists but does not decode or skips, as (byte offset, message):
    /// one per listed sequence (its data offset, every name pointing at it, what its bytes
    /// show), one per gap of unreferenced bytes, one per table entry whose action metadata
    /// offset lies outside the metadata region (the field's own offset), one per action
    /// metadata block longer than `Limits::max_action_bytes` (where decoding stopped).
    pub fn warnings(&self) -> Vec<(u64, String)> {
        let mut out = Vec::new();
        let names_of = self.listed_names();
        for (b, names) in self.blocks.iter().zip(&names_of) {
            if b.motion().is_some() {
                continue;
            }
            let what = match (&b.layout, &b.shape) {
                (_, Some(shape)) => shape.describe(b.frames),
                (Layout::Undecodable(why), None) => why.clone(),
                _ => String::new(),
            };
            out.push((
                b.offset as u64,
                format!(
                    "sequence {} (flagHigh {:#06x}, {} layout) listed, not decoded: {what}",
                    names.join(", "),
                    b.flag_high,
                    b.layout.kind()
                ),
            ));
        }
        for g in &self.gaps {
            let what = match g.orphan {
                Some((frames, family, kind, channels)) => format!(
                    "; they hold a sequence of their own ({kind}, {frames} frames, family {family}, {channels} channels) that no name points at, so it is not listed"
                ),
                None => String::new(),
            };
            out.push((g.offset as u64, format!("{} bytes no table entry references (skipped){what}", g.len)));
        }
        let (lo, hi) = self.meta_region;
        let mut long_meta = std::collections::BTreeSet::new();
        for (i, e) in self.entries.iter().enumerate() {
            if let Some((offset, len, Some(cut))) = e.action_span() {
                if long_meta.insert(offset) {
                    out.push((
                        (offset + ACTION_HEADER).saturating_add(cut.as_usize()) as u64,
                        format!(
                            "entry #{i} {}: action metadata of {len} bytes; records past the first {} are not decoded (limit `{}`)",
                            e.name, cut.max, cut.name
                        ),
                    ));
                }
            }
            let m = e.meta_offset as usize;
            // 0 = no metadata (what this crate's encoder writes).
            if m != 0 && !(lo..hi).contains(&m) {
                let field = u64::from(self.table_offset) + (i * L::TABLE_ENTRY) as u64 + 4;
                out.push((
                    field,
                    format!(
                        "entry #{i} {}: action metadata offset {m:#x} lies outside the metadata region {lo:#x}..{hi:#x}; no action metadata read",
                        e.name
                    ),
                ));
            }
        }
        out
    }
}

/// One slot of the sequence table, with its name.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The sequence's name from the name table.
    pub name: Name,
    /// Data offset relative to the header's data base.
    pub data_offset: u32,
    /// Absolute offset of the action metadata.
    pub meta_offset: u32,
    /// Index into `MotnFile::blocks`.
    pub block: usize,
    /// The action metadata block, when the offset lies in the metadata region (between the
    /// sequence table and the name table): decoded on first use ([`Entry::action`]).
    action: Option<LazyAction>,
}

impl Entry {
    /// The decodable parts of the action metadata, when the offset lies in the metadata
    /// region (between the sequence table and the name table); decoded the first time it is
    /// asked for (MOTION.BIN's 1559 entries each have a block that only `list --json`,
    /// write-back and tests read).
    pub fn action(&self) -> Option<&ActionMeta> {
        let a = self.action.as_ref()?;
        // `LazyAction`s are only made where `parse_action` gives a block (see `LazyAction`),
        // so the default is never used.
        Some(a.decoded.get_or_init(|| Box::new(parse_action(&a.file[..], a.offset, a.end, a.max).unwrap_or_default())))
    }

    /// The action metadata block's offset, length and, when it is longer than the limit, the
    /// limit its decode stops at: what [`MotnFile::warnings`] names, without decoding it.
    fn action_span(&self) -> Option<(usize, usize, Option<boneyard_core::Limit>)> {
        let a = self.action.as_ref()?;
        let len = a.end - a.offset;
        Some((a.offset, len, (len - ACTION_HEADER > a.max.as_usize()).then_some(a.max)))
    }
}

/// An action metadata block at `offset..end` of `file`, decoded on first use. Made only where
/// the block is in the file and holds at least its header (where `parse_action` gives one).
#[derive(Clone)]
struct LazyAction {
    /// The whole file (shared, not copied).
    file: SharedFile,
    offset: usize,
    end: usize,
    /// `Limits::max_action_bytes`.
    max: boneyard_core::Limit,
    /// Boxed: an entry holds a pointer until it is asked for (not the whole record, which
    /// would make each of the 1559 entries the open writes twice as large).
    decoded: std::sync::OnceLock<Box<ActionMeta>>,
}

impl LazyAction {
    fn new(file: &SharedFile, offset: usize, end: usize, max: boneyard_core::Limit) -> Option<Self> {
        let len = file.get(offset..end)?.len();
        (len >= ACTION_HEADER).then(|| LazyAction { file: file.clone(), offset, end, max, decoded: Default::default() })
    }
}

impl std::fmt::Debug for LazyAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The decoded metadata, as the field was before it was lazy (not the file's bytes).
        f.debug_struct("LazyAction").field("offset", &self.offset).field("end", &self.end).finish()
    }
}

/// Action metadata (reference §1.1): a 12-byte header, then records. Only the forms the
/// reference documents are decoded; everything else stays raw (`len` bytes at `offset`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ActionMeta {
    /// Absolute offset of the metadata block.
    pub offset: usize,
    /// Up to the next metadata block (or the name table).
    pub len: usize,
    /// Opcode 0x02 right after the header: three hit-phase frames.
    pub hit_frames: Option<[u16; 3]>,
    /// Opcode 0x04 after it: attack class, proficiency selector, base damage.
    pub attack: Option<[u8; 3]>,
    /// `frame, 04 05 AB group track 00`: sound cues (frame, group, track).
    pub sound_cues: Vec<(u16, u8, u8)>,
    /// `frame, 04 05 kind 00 00 01`: footstep/surface cues (frame, contact kind 0-7).
    pub surface_cues: Vec<(u16, u8)>,
    /// The limit (`max_action_bytes`) past which the records were not decoded, when the
    /// block is longer than it (None: decoded whole).
    pub cut: Option<boneyard_core::Limit>,
}

fn parse_action(data: &[u8], offset: usize, end: usize, max: boneyard_core::Limit) -> Option<ActionMeta> {
    let block = data.get(offset..end)?;
    let rec = block.get(ACTION_HEADER..)?;
    let cut = (rec.len() > max.as_usize()).then_some(max);
    let rec = &rec[..rec.len().min(max.as_usize())];
    let u16_at = |b: &[u8], i: usize| b.get(i..i + 2).map(|x| u16::from_le_bytes([x[0], x[1]]));
    let mut m = ActionMeta { offset, len: block.len(), cut, ..Default::default() };
    if rec.len() >= 8 && rec[0] == 0x02 && rec[1] == 0 {
        m.hit_frames = Some([u16_at(rec, 2)?, u16_at(rec, 4)?, u16_at(rec, 6)?]);
        if let Some(a) = rec.get(8..12).filter(|a| a[0] == 0x04) {
            m.attack = Some([a[1], a[2], a[3]]);
        }
    }
    for r in rec.chunks_exact(4).enumerate().filter_map(|(i, _)| rec.get(4 * i..4 * i + 8)) {
        if r[2] == 0x04 && r[3] == 0x05 {
            let frame = u16::from_le_bytes([r[0], r[1]]);
            if r[4] == 0xAB && r[7] == 0 {
                m.sound_cues.push((frame, r[5], r[6]));
            } else if r[4] <= 7 && r[5] == 0 && r[6] == 0 && r[7] == 1 {
                m.surface_cues.push((frame, r[4]));
            }
        }
    }
    Some(m)
}

/// One sequence's bytes: its 12-byte header and how its data is laid out.
#[derive(Debug, Clone)]
pub struct Block {
    /// Absolute offset of the 12-byte sequence header.
    pub offset: usize,
    /// Where the next block (or the end of the file) starts.
    pub region_end: usize,
    /// Number of frames (header +0).
    pub frames: u16,
    /// flagHigh (header +2): layout bits and controller family.
    pub flag_high: u16,
    /// The raw header: `(frames, flagHigh, block2, block3, block4, block5)`.
    pub header: [u16; 6],
    /// How the data after the header is laid out.
    pub layout: Layout,
    /// For a listed (not decoded) layout, what its bytes show, when they show it.
    pub shape: Option<Shape>,
}

/// The structure the bytes of a listed sequence show (see the module docs). Only a shape
/// whose sizes add up exactly to the sequence's bytes is reported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape {
    /// One record of `stride` bytes per frame from +0x0E, driving `controls` (the 48-bit
    /// mask at +6): root position (3 halves) and 3 more root words (0 in the legacy records,
    /// so perhaps the root rotation), then 3 × i16 rotations a control, 1 for each of
    /// `hinges` (the human rig's class-3 controls among them).
    FrameRecords {
        /// Bytes per frame record.
        stride: usize,
        /// The controls the mask names, ascending.
        controls: Vec<u16>,
        /// Those of them stored with one rotation component (hinges).
        hinges: Vec<u16>,
    },
    /// `nodes` records of 32 bytes from +0x0C, then 3 arrays of `frames + 1` i16 a node.
    NodeArrays {
        /// Number of node records.
        nodes: usize,
    },
}

impl Shape {
    /// The shape in a user's words.
    pub fn describe(&self, frames: u16) -> String {
        match self {
            Shape::FrameRecords { stride, controls, hinges } => format!(
                "{frames} frame records of {stride} bytes from +0x0E driving controls {controls:?} (root position as 3 halves and 3 more root words, then 3 int16 turns a control, 1 for the hinges {hinges:?}): FK values for limbs the rig solves by IK; the engine's playback of such records is not published"
            ),
            Shape::NodeArrays { nodes } => format!(
                "{nodes} node records of 32 bytes from +0x0C, then 3 arrays of {} int16 a node: an object's node motion (no controller family); its node tree is not published",
                u32::from(frames) + 1
            ),
        }
    }
}

/// The shape of a listed sequence's bytes (`region` starts at its header), if its sizes add up.
fn shape_of(region: &[u8], header: [u16; 6]) -> Option<Shape> {
    let [frames, flag, ..] = header;
    let frames = usize::from(frames);
    let u16_at = |i: usize| region.get(i..i + 2).map(|b| u16::from_le_bytes([b[0], b[1]]));
    if flag == L::FLAG_NODE_ARRAYS {
        let nodes = usize::from(u16_at(L::NODE_COUNT)?);
        let arrays = nodes.checked_mul(L::NODE_ARRAYS * 2 * (frames + 1))?;
        let total = L::NODE_RECORDS.checked_add(nodes * L::NODE_RECORD)?.checked_add(arrays)?;
        return (nodes > 0 && total == region.len()).then_some(Shape::NodeArrays { nodes });
    }
    if flag & L::FLAG_LEGACY == 0 {
        return None;
    }
    let stride = usize::from(u16_at(L::RECORD_STRIDE)?);
    let mask = (0..3).try_fold(0u64, |m, k| Some(m | u64::from(u16_at(L::RECORD_MASK + 2 * k)?) << (16 * k)))?;
    let controls: Vec<u16> = (0..48u16).filter(|&b| mask >> b & 1 != 0).collect();
    let rig = &crate::rig::HUMAN_RIG;
    if controls.iter().any(|&c| usize::from(c) >= rig.len()) {
        return None;
    }
    let hinges: Vec<u16> = controls.iter().copied().filter(|&c| rig[usize::from(c)].class == 3).collect();
    let components = L::RECORD_ROOT_COMPONENTS + 3 * (controls.len() - hinges.len()) + hinges.len();
    let fits = stride == 2 * components && L::LEGACY_PAYLOAD.checked_add(frames.checked_mul(stride)?)? == region.len();
    (frames > 0 && fits).then_some(Shape::FrameRecords { stride, controls, hinges })
}

/// Record `frame` of a frame-record sequence as int16 (the root position's halves as their
/// bits), read from the file's bytes; `None` when the block has no such shape or frame.
pub fn frame_record(data: &[u8], block: &Block, frame: u16) -> Option<Vec<i16>> {
    let Some(Shape::FrameRecords { stride, .. }) = &block.shape else { return None };
    if frame >= block.frames {
        return None;
    }
    let at = block.offset.checked_add(L::LEGACY_PAYLOAD + usize::from(frame) * stride)?;
    let rec = data.get(at..at.checked_add(*stride)?)?;
    Some(rec.chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect())
}

impl Motion {
    /// The number of channels (curves), known without decoding the keys.
    pub fn channel_count(&self) -> usize {
        self.curves.count()
    }
    /// One past the highest control a channel drives (1 when none does), from the
    /// descriptors (without decoding the keys).
    pub fn control_span(&self) -> usize {
        let any = L::CHANNEL_BITS.iter().fold(0, |m, b| m | b);
        self.descriptors.iter().filter(|&v| v & any != 0).map(|v| usize::from(v >> L::ID_SHIFT) + 1).max().unwrap_or(1)
    }
}

impl Block {
    /// The controller family (`flagHigh & 0x7FFF`; 0 = the human rig).
    pub fn family(&self) -> u16 {
        self.flag_high & L::FAMILY_MASK
    }
    /// The decoded curves, for the standard five-block layout.
    pub fn motion(&self) -> Option<&Motion> {
        match &self.layout {
            Layout::Curves(m) => Some(m),
            _ => None,
        }
    }
}

/// How a sequence's data is laid out.
#[derive(Debug, Clone)]
pub enum Layout {
    /// The standard five-block layout, decoded.
    Curves(Motion),
    /// flagHigh 0x8000 with the frame32 signature: `frames × 16 × i16` from +0x0E. Listed,
    /// not interpreted (what the 16 components drive is not documented).
    LegacyFrame32 {
        /// Absolute offset of the first frame.
        payload: usize,
    },
    /// A layout no source documents; listed with the reason.
    Undecodable(String),
}

impl Layout {
    /// The layout as one token ("curves", "legacy-frame32", "undecodable").
    pub fn kind(&self) -> &'static str {
        match self {
            Layout::Curves(_) => "curves",
            Layout::LegacyFrame32 { .. } => "legacy-frame32",
            Layout::Undecodable(_) => "undecodable",
        }
    }
}

/// A decoded five-block sequence: its descriptors and curves.
#[derive(Debug, Clone)]
pub struct Motion {
    /// Block 1 descriptors (without the terminator).
    pub descriptors: Descriptors,
    /// One per channel, in block order (id ascending, then px, py, pz, rx, ry, rz): decoded
    /// from the file's bytes on first use (the open checked them), see [`Curves`].
    pub curves: Curves,
    /// Bytes of the region after block 5 that no block references (0 for almost all).
    pub trailing: usize,
    /// 1 when block 5 starts after a pad byte.
    pub block5_pad: usize,
}

/// Block 1's descriptors (without the terminator), little-endian u16s kept as the file's bytes
/// (a range of them: MOTION.BIN's 1319 sequences would otherwise allocate a list each at the
/// open).
#[derive(Clone)]
pub struct Descriptors {
    file: SharedFile,
    range: std::ops::Range<usize>,
}

/// A file's bytes, shared by what the open keeps of it (one reference count a file, counted
/// without the calls a `Bytes` clone and drop make).
type SharedFile = std::sync::Arc<bytes::Bytes>;

impl Descriptors {
    /// Descriptors from their little-endian bytes (a trailing odd byte is not one).
    pub fn copy_from(le: &[u8]) -> Self {
        Descriptors { file: SharedFile::new(bytes::Bytes::copy_from_slice(le)), range: 0..le.len() }
    }
    /// Their bytes (the range is made inside the file: `get` keeps that a fact of
    /// construction rather than a possible panic).
    fn bytes(&self) -> &[u8] {
        self.file.get(self.range.clone()).unwrap_or_default()
    }
    /// The descriptors, in block order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = u16> + '_ {
        self.bytes().chunks_exact(2).map(|b| u16::from_le_bytes([b[0], b[1]]))
    }
    /// The number of descriptors.
    pub fn len(&self) -> usize {
        self.bytes().len() / 2
    }
    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The descriptors as a list.
    pub fn to_vec(&self) -> Vec<u16> {
        self.iter().collect()
    }
}

impl PartialEq for Descriptors {
    fn eq(&self, other: &Descriptors) -> bool {
        self.bytes() == other.bytes()
    }
}

impl Eq for Descriptors {}

impl PartialEq<Vec<u16>> for Descriptors {
    fn eq(&self, other: &Vec<u16>) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter().copied())
    }
}

impl std::fmt::Debug for Descriptors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// A table entry's name: a `str` (`Deref`), held as a range of one buffer of all the file's
/// names (MOTION.BIN's 1559 names would otherwise be as many allocations at the open).
#[derive(Clone)]
pub struct Name {
    all: std::sync::Arc<str>,
    range: std::ops::Range<usize>,
}

impl Name {
    /// The name.
    pub fn as_str(&self) -> &str {
        // The ranges are made on character boundaries of `all` (see `NameBuffer`); `get`
        // keeps that a fact of construction rather than a possible panic.
        self.all.get(self.range.clone()).unwrap_or_default()
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Self {
        Name { all: s.into(), range: 0..s.len() }
    }
}

impl std::ops::Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl std::fmt::Display for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::fmt::Debug for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq for Name {
    fn eq(&self, other: &Name) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Name {}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Name {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<Name> for String {
    fn eq(&self, other: &Name) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<Name> for &str {
    fn eq(&self, other: &Name) -> bool {
        *self == other.as_str()
    }
}

/// The names of a file's entries as they are read, in one buffer.
struct NameBuffer(Vec<u8>);

impl NameBuffer {
    /// Append the name at `ptr`, whose pointer is stored at `ptr_at` (where a pointer past the
    /// end is reported: the bytes at fault are the pointer's, not those it names); its range.
    fn push(&mut self, data: &[u8], ptr: usize, ptr_at: u64) -> Result<std::ops::Range<usize>> {
        let tail = data.get(ptr..).ok_or_else(|| {
            Error::invalid(ptr_at, format!("name pointer {ptr:#x} is past the end ({:#x} bytes)", data.len()))
        })?;
        let s = &tail[..tail.len().min(MAX_NAME)];
        // The terminator, and whether every byte before it is printable: eight bytes at a time
        // up to the first byte that is not printable (the terminator, when it is 0), then
        // byte by byte from there.
        let mut from = 0;
        for w in s.chunks_exact(8) {
            // `chunks_exact(8)`: 8 bytes by construction.
            let w = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
            let low = w & 0x7F7F_7F7F_7F7F_7F7F;
            // A lane's top bit: set in `w` when the byte is 0x80 or more; in `low + 0x60`
            // when it is 0x20 or more; in `low + 0x01` when it is 0x7F or more (no lane
            // carries into the next: at most 0xDF and 0x80).
            let bad = (w | !(low + 0x6060_6060_6060_6060) | (low + 0x0101_0101_0101_0101)) & 0x8080_8080_8080_8080;
            if bad != 0 {
                from += (bad.trailing_zeros() / 8) as usize;
                break;
            }
            from += 8;
        }
        let (mut end, mut printable) = (None, true);
        for (i, &c) in s.iter().enumerate().skip(from) {
            if c == 0 {
                end = Some(i);
                break;
            }
            printable &= (0x20..0x7f).contains(&c);
        }
        let Some(end) = end else {
            return Err(Error::invalid(ptr as u64, "name is not NUL-terminated within 64 bytes"));
        };
        // Printable ASCII (every real name) is taken as it is; anything else as `cstr` gives
        // it. Either way the bytes appended are UTF-8 on their own, so every range is on
        // character boundaries of the whole.
        let name = &s[..end];
        let start = self.0.len();
        if printable {
            self.0.extend_from_slice(name);
        } else {
            self.0.extend_from_slice(cstr(s).as_bytes());
        }
        Ok(start..self.0.len())
    }

    /// The name at `range` (as `push` gave it), for an error message.
    fn get(&self, range: std::ops::Range<usize>) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(self.0.get(range).unwrap_or_default())
    }

    /// The buffer, shared by the names ([`Name`]) of its ranges.
    fn into_shared(self) -> std::sync::Arc<str> {
        // Every piece appended is UTF-8 (see `push`), so the whole is: the lossy branch is
        // never taken (it keeps that a fact of construction rather than a possible panic).
        match String::from_utf8(self.0) {
            Ok(s) => s.into(),
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into(),
        }
    }
}

/// Does `data` look like a MOTN file? (cheap: the header's own consistency)
pub fn looks_like_motn(data: &[u8]) -> bool {
    header_shape(data).is_some_and(|size| size as usize == data.len())
}

/// The MOTN header's shape without its size check: `Some(declared size)` when the table
/// offset is 0x20 and the name table can follow the slots. A `.bin` of this shape whose size
/// disagrees is still a MOTN file (truncated or lying), for `parse` to report.
pub fn header_shape(data: &[u8]) -> Option<u32> {
    let mut r = Reader::new(data, Endian::Little);
    let (Ok(tab), Ok(names), Ok(_base), Ok(attr), Ok(size)) = (r.u32(), r.u32(), r.u32(), r.u32(), r.u32()) else {
        return None;
    };
    let count = (attr & L::ATTR_COUNT_MASK) as usize;
    (tab == 0x20 && count > 1 && names as usize >= 0x20 + count * L::TABLE_ENTRY).then_some(size)
}

impl MotnFile {
    /// Read a MOTN file: header, table, names, and every distinct sequence block.
    pub fn parse(data: &[u8]) -> Result<MotnFile> {
        Self::parse_with(data, &boneyard_core::Limits::default())
    }

    /// [`MotnFile::parse`] within the caller's limits (`max_sequences`, `max_total_frames`,
    /// `max_action_bytes`). The file keeps a copy of `data` (see [`MotnFile::parse_shared`]).
    pub fn parse_with(data: &[u8], limits: &boneyard_core::Limits) -> Result<MotnFile> {
        Self::parse_shared(&bytes::Bytes::copy_from_slice(data), limits)
    }

    /// [`MotnFile::parse_with`] on bytes it can hold without copying: every sequence is checked
    /// now (the same checks, errors and offsets as a full decode), and its keys are decoded
    /// from `file` the first time its curves are looked at ([`Curves`]).
    pub fn parse_shared(file: &bytes::Bytes, limits: &boneyard_core::Limits) -> Result<MotnFile> {
        let data: &[u8] = file;
        let mut r = Reader::new(data, Endian::Little);
        let table_offset = r.u32()?;
        let name_table_offset = r.u32()?;
        let data_base = r.u32()?;
        let attributes = r.u32()?;
        let file_size = r.u32()?;
        if file_size as usize != data.len() {
            return Err(Error::invalid(
                L::FILE_SIZE as u64,
                format!("header says the file is {file_size} bytes; it is {}", data.len()),
            ));
        }
        let slots = (attributes & L::ATTR_COUNT_MASK) as usize;
        if slots < 1 {
            return Err(Error::invalid(L::ATTRIBUTES as u64, "attribute word declares no table slots"));
        }
        let count = slots - 1;
        // An error's offset is where the offending bytes are: a pointer past the end is the
        // header field holding it, a count that does not fit is the attribute word declaring
        // it (not the table it would overrun).
        let at_field = |field: usize| move |e: Error| Error { offset: Some(field as u64), ..e };
        let tab = Reader::at(data, table_offset as usize, Endian::Little).map_err(at_field(L::SEQ_TABLE))?;
        let count = tab
            .check_count(count as u64, L::TABLE_ENTRY, boneyard_core::limit!(limits, max_sequences), "sequences")
            .map_err(at_field(L::ATTRIBUTES))?;
        let names = Reader::at(data, name_table_offset as usize, Endian::Little).map_err(at_field(L::NAME_TABLE))?;
        names
            .check_count(count as u64, 4, boneyard_core::limit!(limits, max_sequences), "names")
            .map_err(at_field(L::ATTRIBUTES))?;
        let mut tab = tab;
        let mut names = names;
        let mut raw = Vec::with_capacity(count);
        let mut names_read = NameBuffer(Vec::with_capacity(count * 24));
        // The slots and name pointers as slices (their counts were checked to fit above).
        let (tab_at, names_at) = (tab.offset(), names.offset());
        let slots = tab.bytes(count * L::TABLE_ENTRY)?;
        let ptrs = names.bytes(count * 4)?;
        for (i, (slot, ptr)) in slots.chunks_exact(L::TABLE_ENTRY).zip(ptrs.chunks_exact(4)).enumerate() {
            let at = tab_at + (i * L::TABLE_ENTRY) as u64;
            // `chunks_exact`: 8 and 4 bytes by construction.
            let d = u32::from_le_bytes([slot[0], slot[1], slot[2], slot[3]]);
            let m = u32::from_le_bytes([slot[4], slot[5], slot[6], slot[7]]);
            let p = u32::from_le_bytes([ptr[0], ptr[1], ptr[2], ptr[3]]) as usize;
            let name = names_read.push(data, p, names_at + 4 * i as u64)?;
            let abs = (data_base as u64) + d as u64;
            if abs + L::SEQ_HEADER as u64 > data.len() as u64 {
                let name = names_read.get(name);
                return Err(Error::invalid(at, format!("sequence {i} ({name}) data offset {abs:#x} is past the end")));
            }
            raw.push((name, d, m, abs as usize));
        }
        // The terminating slot, when it fits, must be (0,0).
        if tab.remaining() >= 8 {
            let at = tab.offset();
            let (a, b) = (tab.u32()?, tab.u32()?);
            if (a, b) != (0, 0) {
                return Err(Error::invalid(at, format!("terminator slot is ({a:#x},{b:#x}), not (0,0)")));
            }
        }
        // Distinct blocks in file order; each owns the bytes up to the next one.
        // Each entry's block by one sort of (offset, entry) keys rather than a search per
        // entry: an offset is below the file's size, a u32 (checked against the header's),
        // and an entry index below 4096, so both fit a u64 key.
        let mut keys: Vec<u64> = raw.iter().enumerate().map(|(i, r)| (r.3 as u64) << 32 | i as u64).collect();
        let mut scratch = Vec::new();
        order::sort_by_offset(&mut keys, &mut scratch);
        let mut starts: Vec<usize> = Vec::with_capacity(keys.len());
        let mut block_of = vec![0usize; raw.len()];
        for &key in &keys {
            let abs = (key >> 32) as usize;
            if starts.last() != Some(&abs) {
                starts.push(abs);
            }
            if let Some(b) = block_of.get_mut((key & 0xFFFF_FFFF) as usize) {
                *b = starts.len() - 1;
            }
        }
        let timestamp = find_timestamp(data);
        let data_end = data.len();
        let shared = SharedFile::new(file.clone());
        // Blocks are independent: parsed on rayon's threads, then taken in file order (the
        // first error and the frame bound as a walk in order meets them). Each block's work is
        // bounded by its bytes. With one thread they are read on the caller's: handing them to
        // rayon's one worker and waiting for it cost a sixth of a one-thread open (futex wakes).
        use rayon::prelude::*;
        let read = |marks: &mut Vec<u8>, k: usize| {
            read_block(&shared, starts[k], starts.get(k + 1).copied().unwrap_or(data_end), marks)
        };
        let parsed: Vec<Result<Block>> = if rayon::current_num_threads() > 1 {
            (0..starts.len()).into_par_iter().map_init(Vec::new, read).collect()
        } else {
            let mut marks = Vec::new();
            (0..starts.len()).map(|k| read(&mut marks, k)).collect()
        };
        // Checked in place first (a block is a few hundred bytes, moved once below, not at
        // each step of a walk that moves it out).
        let mut total_frames = 0u64;
        for (k, (b, &s)) in parsed.iter().zip(&starts).enumerate() {
            let Ok(b) = b else {
                // The first error in file order, taken out of the list (element `k` is the
                // error just seen: the fallback is never made).
                return Err(parsed
                    .into_iter()
                    .nth(k)
                    .and_then(Result::err)
                    .unwrap_or_else(|| Error::invalid(s as u64, "")));
            };
            total_frames += u64::from(b.frames);
            boneyard_core::limit!(limits, max_total_frames).check(total_frames, s as u64, "frames in the sequences")?;
        }
        // Names may share a sequence, and each is an animation of its own (listed, checked and
        // exported): the frames are charged per name as well, or 256 names of one 4,000-frame
        // sequence (a file of 5 KB) took 13 s to export and wrote 1.2 GB. (MOTION.BIN's 1,559
        // names list 58,432 frames.)
        let mut listed_frames = 0u64;
        for (i, &k) in block_of.iter().enumerate() {
            listed_frames += parsed.get(k).and_then(|b| b.as_ref().ok()).map_or(0, |b| u64::from(b.frames));
            let at = table_offset as u64 + (i * L::TABLE_ENTRY) as u64;
            boneyard_core::limit!(limits, max_total_frames).check(listed_frames, at, "frames the names list")?;
        }
        let blocks: Vec<Block> = parsed.into_iter().filter_map(Result::ok).collect();
        // Action metadata blocks: each runs to the next one or to the name table. The region
        // starts at the table's terminating slot: a block may begin there, its 8 zero bytes the
        // first of the block's 12-byte header (MOTION.BIN's AKI_AKI_SLOW_RUN_LP and
        // AKI_AKI_RUN_SLOW_K_LP, whose footstep cues new-yokosuka reads so).
        let meta_lo = table_offset as usize + count * L::TABLE_ENTRY;
        let meta_hi = name_table_offset as usize;
        // Each entry's action metadata block, as for the sequences: one sort of (offset, entry)
        // keys (a u32 offset), each block running to the next distinct offset.
        keys.clear();
        keys.extend(
            raw.iter()
                .enumerate()
                .filter(|(_, r)| (meta_lo..meta_hi).contains(&(r.2 as usize)))
                .map(|(i, r)| u64::from(r.2) << 32 | i as u64),
        );
        order::sort_by_offset(&mut keys, &mut scratch);
        // Walked from the last: a block ends where the one after it starts (the name table for
        // the last).
        let mut meta_end = vec![0usize; raw.len()];
        let (mut end, mut this) = (meta_hi, None);
        for &key in keys.iter().rev() {
            let m = (key >> 32) as usize;
            if this != Some(m) {
                end = this.unwrap_or(meta_hi);
                this = Some(m);
            }
            if let Some(e) = meta_end.get_mut((key & 0xFFFF_FFFF) as usize) {
                *e = end;
            }
        }
        // Unreferenced bytes after decoded sequences (the file's closing build stamp aside),
        // and whether they read as a sequence of their own.
        let mut gaps = Vec::new();
        for b in &blocks {
            let Some(mo) = b.motion().filter(|m| m.trailing > 0) else { continue };
            let offset = b.region_end - mo.trailing;
            if b.region_end == data_end && timestamp.is_some() && mo.trailing <= STAMP_TAIL {
                continue;
            }
            let orphan = read_block(&shared, offset, b.region_end, &mut Vec::new())
                .ok()
                .map(|o| (o.frames, o.family(), o.layout.kind(), o.motion().map_or(0, Motion::channel_count)));
            gaps.push(Gap { offset, len: mo.trailing, orphan });
        }
        let all_names = names_read.into_shared();
        let entries = raw
            .into_iter()
            .zip(block_of.into_iter().zip(meta_end))
            .map(|((range, d, m, _), (block, end))| {
                let name = Name { all: all_names.clone(), range };
                // An end of 0: the offset is outside the metadata region.
                let action = (end != 0)
                    .then(|| LazyAction::new(&shared, m as usize, end, boneyard_core::limit!(limits, max_action_bytes)))
                    .flatten();
                Entry { name, data_offset: d, meta_offset: m, block, action }
            })
            .collect();
        Ok(MotnFile {
            table_offset,
            name_table_offset,
            data_base,
            attributes,
            file_size,
            entries,
            blocks,
            timestamp,
            gaps,
            meta_region: (meta_lo, meta_hi),
        })
    }
}

/// The trailing `Www Mmm dd hh:mm:ss yyyy\n` stamp, if the file ends with one (plus padding).
fn find_timestamp(data: &[u8]) -> Option<String> {
    let tail = &data[data.len().saturating_sub(64)..];
    let end = tail.iter().rposition(|&c| c == b'\n')?;
    let start = tail[..end].iter().rposition(|&c| !(0x20..0x7f).contains(&c)).map_or(0, |p| p + 1);
    let s = std::str::from_utf8(&tail[start..end]).ok()?;
    // Keep only the trailing 24-char `ctime` form.
    let s = &s[s.len().saturating_sub(24)..];
    (s.len() == 24 && s.as_bytes()[s.len() - 5] == b' ').then(|| s.to_string())
}

/// Read one sequence of `file` at absolute `start`, owning bytes up to `end`. The keys are
/// checked now by flat scans and decoded on first use (see [`Curves`]); any fault the scans
/// meet is reported by the full decode, so the errors are the same.
/// `marks` is the scan's scratch space.
fn read_block(file: &SharedFile, start: usize, end: usize, marks: &mut Vec<u8>) -> Result<Block> {
    let data: &[u8] = &file[..];
    let region = Reader::new(data, Endian::Little).sub(start, end.saturating_sub(start))?;
    let header: [u16; 6] = match region.data().get(..L::SEQ_HEADER) {
        // 12 bytes by construction.
        Some(h) => std::array::from_fn(|k| u16::from_le_bytes([h[2 * k], h[2 * k + 1]])),
        None => {
            // Fewer than 12 bytes: the reader names where they end, as it always has.
            let mut r = region.clone();
            let mut header = [0u16; 6];
            for h in header.iter_mut() {
                *h = r.u16()?;
            }
            header
        }
    };
    let [frames, flag_high, b2, b3, b4, b5] = header;
    let legacy = flag_high == L::FLAG_LEGACY && b2 == 0x20 && b3 == 0 && b4 == 0x8000 && b5 == 0x15;
    let layout = if legacy {
        let payload = usize::from(frames) * L::LEGACY_FRAME_BYTES;
        region.sub(L::LEGACY_PAYLOAD, payload)?;
        Layout::LegacyFrame32 { payload }
    } else if flag_high & L::FLAG_LEGACY != 0 {
        Layout::Undecodable(format!("flagHigh {flag_high:#06x}: a flag-family layout no source documents"))
    } else {
        let offs = [b2, b3, b4, b5];
        match scan::scan(region.data(), frames, offs, marks) {
            Some(s) => {
                // The scan passed block 1, so its descriptors are the region's bytes from the
                // header to the terminator before block 2.
                let block1 = start + L::SEQ_HEADER..start + usize::from(b2).saturating_sub(2);
                let source = lazy::Source { file: file.clone(), start, end: start + region.len(), frames, offs };
                Layout::Curves(Motion {
                    descriptors: Descriptors { file: file.clone(), range: block1 },
                    curves: Curves::lazy(s.channels, source),
                    trailing: s.trailing,
                    block5_pad: s.block5_pad,
                })
            }
            // The scan never says what is wrong: the full decode names the first fault.
            None => Layout::Curves(parse_curves(&region, frames, offs)?),
        }
    };
    let shape = match &layout {
        Layout::Curves(_) => None,
        _ => data.get(start..end).and_then(|b| shape_of(b, header)),
    };
    Ok(Block { offset: start, region_end: end, frames, flag_high, header, layout, shape })
}

/// Blocks 1-5 of a standard sequence. `region` starts at the sequence header.
fn parse_curves(region: &Reader, frames: u16, offs: [u16; 4]) -> Result<Motion> {
    let [b2, b3, b4, b5] = offs.map(usize::from);
    let err = |pos: usize, msg: String| Err(region.error_at(pos, msg));
    if frames == 0 {
        return err(0, "frame count is 0".into());
    }
    if !(L::SEQ_HEADER <= b2 && b2 <= b3 && b3 <= b4 && b4 <= b5) {
        return err(4, format!("block offsets {b2:#x}, {b3:#x}, {b4:#x}, {b5:#x} are not in order"));
    }
    if b5 > region.len() {
        return err(0xA, format!("block 5 offset {b5:#x} is past the sequence's {:#x} bytes", region.len()));
    }
    // Block 1: descriptors, ids strictly ascending, terminated by 0 exactly at block 2.
    let mut r = region.sub(L::SEQ_HEADER, b2 - L::SEQ_HEADER)?;
    let mut descriptors = Vec::new();
    let mut channels: Vec<(u16, Axis)> = Vec::new();
    let mut last_id: Option<u16> = None;
    loop {
        let at = r.pos();
        let v = r.u16()?;
        if v == 0 {
            if r.remaining() != 0 {
                return Err(r.error_at(at, format!("block 1 ends here but block 2 starts at +{b2:#x}")));
            }
            break;
        }
        let id = v >> L::ID_SHIFT;
        if v & L::RESERVED_BITS != 0 {
            return Err(r.error_at(at, format!("descriptor {v:#06x} sets reserved bits 0x07")));
        }
        if last_id.is_some_and(|p| id <= p) {
            return Err(r.error_at(at, format!("descriptor id {id} does not ascend (after {})", last_id.unwrap_or(0))));
        }
        last_id = Some(id);
        descriptors.extend_from_slice(&v.to_le_bytes());
        for (bit, axis) in L::CHANNEL_BITS.iter().zip(Axis::ALL) {
            if v & bit != 0 {
                channels.push((id, axis));
            }
        }
    }
    let n = channels.len();
    // Block 2: interior key counts, u8 (or u16 when the block is twice as long).
    let b2r = region.sub(b2, b3 - b2)?;
    // One zero pad byte may follow a u8 block (blocks are 2-byte aligned).
    let wide_counts = match b2r.len() {
        l if l == n || (l == n + 1 && n % 2 == 1) => false,
        l if l == 2 * n && n > 0 => true,
        l => return Err(region.error_at(b2, format!("block 2 has {l} bytes for {n} channels"))),
    };
    let mut counts = Vec::with_capacity(n);
    let mut r2 = b2r;
    for _ in 0..n {
        counts.push(if wide_counts { usize::from(r2.u16()?) } else { usize::from(r2.u8()?) });
    }
    // Block 3: interior key frames.
    let wide_frames = u32::from(frames) > L::U8_FRAMES_MAX;
    let fw = if wide_frames { 2 } else { 1 };
    let total: usize = counts.iter().sum();
    let mut r3 = region.sub(b3, b4 - b3)?;
    if r3.len() != total * fw && !(fw == 1 && r3.len() == total + 1 && total % 2 == 1) {
        return Err(
            region.error_at(b3, format!("block 3 has {} bytes for {total} key frames of {fw} byte(s)", r3.len()))
        );
    }
    // Block 4 then 5.
    let mut r4 = region.sub(b4, b5 - b4)?;
    let mut r5 = region.tail(b5)?;
    let last_frame = frames - 1;
    // Every curve's keys in one array (each curve a run of it): one allocation a sequence.
    let mut keys: Vec<Key> = Vec::with_capacity(total + 2 * n);
    let mut runs = Vec::with_capacity(n);
    for (&(id, axis), &c) in channels.iter().zip(&counts) {
        let nkeys = c + 2;
        let first = keys.len();
        // Block 3 first (frames in order), then blocks 4 and 5: the checks meet the bytes in
        // the order they always have, so a file with several faults names the same first one.
        // Block 3's length was checked against the counts above, so the interior frames fit.
        let frames_at = r3.offset();
        let fb = r3.bytes(c * fw)?;
        let mut prev = 0u16;
        for k in 0..nkeys {
            let (frame, at) = match k {
                0 => (0, frames_at),
                k if k == nkeys - 1 => (last_frame, frames_at + (c * fw) as u64),
                k => {
                    let i = (k - 1) * fw;
                    let f = if wide_frames { u16::from_le_bytes([fb[i], fb[i + 1]]) } else { u16::from(fb[i]) };
                    (f, frames_at + i as u64)
                }
            };
            if frame < prev {
                return Err(Error::invalid(
                    at,
                    format!("key frame {frame} of control {id} {} comes after frame {prev}", axis.path()),
                ));
            }
            prev = frame;
            keys.push(Key { frame, count: 0, tangent_in: 0.0, tangent_out: 0.0, value: 0.0 });
        }
        let cbytes = nkeys.div_ceil(4);
        let cat = r4.offset();
        let cb = r4.bytes(cbytes)?;
        let count_of = |k: usize| (cb[k / 4] >> (6 - 2 * (k % 4))) & 3;
        // The curve's halves taken from block 5 at once, as many as are there; a key whose
        // halves are not there reads past the block below (the same error as ever).
        let needed: usize = (0..nkeys).map(|k| usize::from(count_of(k))).sum();
        let halves_at = r5.offset();
        let hb = r5.bytes(2 * needed.min(r5.remaining() / 2))?;
        let mut j = 0;
        for (k, key) in keys[first..].iter_mut().enumerate() {
            let count = count_of(k);
            let mut h = [0f32; 3];
            for slot in h.iter_mut().take(usize::from(count)) {
                let Some(b) = hb.get(2 * j..2 * j + 2) else {
                    // Past the end of block 5 (fewer than 2 bytes are left): the reader's error.
                    return Err(match r5.u16() {
                        Err(e) => e,
                        Ok(_) => r5.error("block 5 ends inside this curve's halves"),
                    });
                };
                let bits = u16::from_le_bytes([b[0], b[1]]);
                // Exponent all ones: infinity or NaN.
                if bits & 0x7C00 == 0x7C00 {
                    return Err(Error::invalid(
                        halves_at + 2 * j as u64,
                        format!("half float {bits:#06x} is not finite"),
                    ));
                }
                *slot = finite_half_to_f32(bits);
                j += 1;
            }
            let (tin, tout, value) = match count {
                0 => (0.0, 0.0, 0.0),
                1 => (0.0, 0.0, h[0]),
                2 => (h[0], h[0], h[1]),
                _ => (h[0], h[1], h[2]),
            };
            *key = Key { frame: key.frame, count, tangent_in: tin, tangent_out: tout, value };
        }
        // Unused trailing bit pairs are zero in real data; anything else is a disagreement.
        let used = 2 * nkeys;
        let last = cb[cbytes - 1];
        let spare_bits = cbytes * 8 - used;
        if spare_bits > 0 && last & ((1u8 << spare_bits) - 1) != 0 {
            return Err(Error::invalid(
                cat + cbytes as u64 - 1,
                format!("block 4 byte {last:#04x} sets counts for keys that control {id} does not have"),
            ));
        }
        runs.push(first..keys.len());
    }
    let keys = std::sync::Arc::new(keys);
    let curves: Vec<Curve> = channels
        .iter()
        .zip(runs)
        .map(|(&(control, axis), run)| Curve { control, axis, keys: Keys::shared(keys.clone(), run) })
        .collect();
    let curves = Curves::ready(curves);
    if r4.remaining() > 1 || (r4.remaining() == 1 && r4.clone().u8()? != 0) {
        return Err(r4.error(format!("block 4 has {} byte(s) no channel uses", r4.remaining())));
    }
    let block5_pad = r4.remaining();
    let trailing = r5.remaining();
    Ok(Motion { descriptors: Descriptors::copy_from(&descriptors), curves, trailing, block5_pad })
}

/// A finite IEEE binary16 (exponent not all ones) as the f32 of the same value (exact: every
/// half is an f32), inlined where the reader converts hundreds of thousands of them.
#[inline]
pub fn finite_half_to_f32(bits: u16) -> f32 {
    let sign = u32::from(bits & 0x8000) << 16;
    let exp = u32::from(bits >> 10 & 0x1F);
    let mant = u32::from(bits & 0x3FF);
    if exp == 0 {
        // Zero or subnormal: mant × 2⁻²⁴, a normal f32 (or zero), exactly.
        f32::from_bits(sign | (mant as f32 * (1.0 / 16_777_216.0)).to_bits())
    } else {
        f32::from_bits(sign | (exp + 112) << 23 | mant << 13)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_finite_half_converts_as_the_half_crate_does() {
        for bits in 0..=u16::MAX {
            if bits & 0x7C00 == 0x7C00 {
                continue;
            }
            let want = half::f16::from_bits(bits).to_f32();
            assert_eq!(finite_half_to_f32(bits).to_bits(), want.to_bits(), "{bits:#06x}");
        }
    }

    #[test]
    fn action_blocks_are_decoded_up_to_the_limit() {
        // A 1 MB block of sound cues `frame, 04 05 AB group track 00` (one per 8 bytes)
        // after the 12-byte header: only the first `max_action_bytes` are decoded.
        let max = boneyard_core::limit!(boneyard_core::Limits::default(), max_action_bytes);
        let mut d = vec![0u8; 12];
        for k in 0..(1 << 17) {
            d.extend_from_slice(&(k as u16).to_le_bytes());
            d.extend_from_slice(&[0x04, 0x05, 0xAB, 7, 9, 0]);
        }
        let m = parse_action(&d, 0, d.len(), max).unwrap();
        assert_eq!(m.len, d.len());
        assert_eq!(m.cut, Some(max));
        assert_eq!(m.sound_cues.len(), 4096 / 8);
        assert_eq!(m.sound_cues[3], (3, 7, 9));
    }

    #[test]
    fn long_and_misplaced_action_metadata_are_warned() {
        let max = boneyard_core::limit!(boneyard_core::Limits::default(), max_action_bytes);
        let file = bytes::Bytes::from(vec![0u8; 0x100 + 12 + 4096 + 1]);
        let action = LazyAction::new(&SharedFile::new(file.clone()), 0x100, file.len(), max);
        let entry = |name: &str, meta_offset: u32, action: Option<LazyAction>| Entry {
            name: Name::from(name),
            data_offset: 0,
            meta_offset,
            block: 0,
            action,
        };
        let f = MotnFile {
            table_offset: 0x20,
            name_table_offset: 0x2000,
            data_base: 0,
            attributes: 4,
            file_size: 0,
            entries: vec![entry("LONG", 0x100, action), entry("ELSEWHERE", 0x30, None)],
            blocks: Vec::new(),
            timestamp: None,
            gaps: vec![Gap { offset: 0x3000, len: 6, orphan: None }],
            meta_region: (0x40, 0x2000),
        };
        let w = f.warnings();
        assert_eq!(w.len(), 3, "{w:?}");
        assert_eq!(w[0].0, 0x3000);
        assert!(w[0].1.starts_with("6 bytes no table entry references"), "{w:?}");
        assert_eq!(w[1].0, (0x100 + 12 + 4096) as u64);
        assert!(w[1].1.contains("LONG") && w[1].1.contains("not decoded (limit `max_action_bytes`)"), "{w:?}");
        // The second entry's metadata field: table + 8 × 1 + 4.
        assert_eq!(w[2].0, 0x20 + 8 + 4);
        assert!(w[2].1.contains("ELSEWHERE") && w[2].1.contains("outside the metadata region"), "{w:?}");
        // The warning was made without decoding the block; decoded, it says the same.
        assert!(f.entries[0].action.as_ref().is_some_and(|a| a.decoded.get().is_none()));
        let a = f.entries[0].action().unwrap();
        assert_eq!((a.offset, a.len, a.cut), (0x100, 12 + 4096 + 1, Some(max)));
    }

    #[test]
    fn names_share_one_buffer_and_read_as_before() {
        // A printable name, one with a byte `cstr` replaces, one with no terminator.
        let data = b"WALK\0RUN\xff\0ABC";
        let mut buf = NameBuffer(Vec::new());
        let walk = buf.push(data, 0, 0x10).unwrap();
        let odd = buf.push(data, 5, 0x14).unwrap();
        let e = buf.push(data, 10, 0x18).unwrap_err();
        assert_eq!((e.offset, e.to_string().contains("not NUL-terminated")), (Some(10), true), "{e}");
        let e = buf.push(data, 99, 0x18).unwrap_err();
        assert_eq!(e.offset, Some(0x18));
        let all = buf.into_shared();
        let name = |range| Name { all: all.clone(), range };
        assert_eq!(name(walk), "WALK");
        assert_eq!(name(odd).as_str(), cstr(&data[5..]));
    }

    /// Names of every length to 63, with every kind of byte at every position, read as a
    /// walk byte by byte reads them (printable as they are, else as `cstr` gives them).
    #[test]
    fn names_are_read_as_a_byte_walk_reads_them() {
        for len in 0..64usize {
            for at in 0..len.max(1) {
                for odd in [0x01u8, 0x1F, 0x20, 0x7E, 0x7F, 0x80, 0xFF] {
                    let mut data: Vec<u8> = (0..len).map(|i| b'A' + (i % 26) as u8).collect();
                    if at < len {
                        data[at] = odd;
                    }
                    data.extend_from_slice(&[0, b'Z', b'Z']);
                    data.resize(data.len().max(70), b'Q');
                    let mut buf = NameBuffer(Vec::new());
                    let got = buf.push(&data, 0, 0).map(|r| buf.get(r).into_owned());
                    let s = &data[..MAX_NAME];
                    let want = match s.iter().position(|&c| c == 0) {
                        None => None,
                        Some(end) if s[..end].iter().all(|c| (0x20..0x7f).contains(c)) => {
                            Some(String::from_utf8(s[..end].to_vec()).unwrap())
                        }
                        Some(_) => Some(cstr(s)),
                    };
                    assert_eq!(got.ok(), want, "{len} {at} {odd:#x}");
                }
            }
        }
    }

    #[test]
    fn timestamp_is_found() {
        let mut d = vec![1u8; 10];
        d.extend_from_slice(b"Fri Nov 12 16:10:23 1999\n\0\0\0");
        assert_eq!(find_timestamp(&d).as_deref(), Some("Fri Nov 12 16:10:23 1999"));
        assert_eq!(find_timestamp(b"no stamp here"), None);
    }
}
