//! On-disk layouts: offsets, sizes, bit masks and magic numbers. Reading lives in
//! `motn.rs`, `mt5.rs` and `container.rs`; nothing here reads bytes.

/// MOTN file header (little-endian, 0x14 bytes used).
pub mod motn {
    /// u32: sequence table offset (0x20 in every known file).
    pub const SEQ_TABLE: usize = 0x00;
    /// u32: name-pointer table offset.
    pub const NAME_TABLE: usize = 0x04;
    /// u32: base that the table's data offsets are relative to.
    pub const DATA_BASE: usize = 0x08;
    /// u32: attributes; `(attr & 0x0FFF) - 1` = number of sequences (the table has one
    /// more, terminating `(0,0)` slot).
    pub const ATTRIBUTES: usize = 0x0C;
    /// u32: the file size.
    pub const FILE_SIZE: usize = 0x10;
    /// Size of the header.
    pub const HEADER_SIZE: usize = 0x14;
    /// The bits of the attributes that hold the slot count.
    pub const ATTR_COUNT_MASK: u32 = 0x0FFF;
    /// One sequence-table entry: `{u32 dataOfs (relative to DATA_BASE); u32 metaOfs (absolute)}`.
    pub const TABLE_ENTRY: usize = 8;

    /// Per-sequence header (12 bytes): frame count, flagHigh, then the offsets of blocks 2-5
    /// relative to the sequence start. Block 1 always starts right after it.
    pub const SEQ_HEADER: usize = 0x0C;
    /// flagHigh bit marking the legacy frame32 layout.
    pub const FLAG_LEGACY: u16 = 0x8000;
    /// flagHigh & 0x7FFF = controller family index (0 = the human rig).
    pub const FAMILY_MASK: u16 = 0x7FFF;
    /// The legacy frame32 payload: 16 × i16 per frame from sequence +0x0E.
    pub const LEGACY_PAYLOAD: usize = 0x0E;
    /// Bytes per legacy frame (16 × i16).
    pub const LEGACY_FRAME_BYTES: usize = 32;
    /// Frame-record layouts (`flagHigh & 0x8000` with a family): header +4 = record size in
    /// bytes, the three u16 at +6, +8, +0xA = a 48-bit mask of the controls each record drives.
    pub const RECORD_STRIDE: usize = 0x04;
    /// The 48-bit control mask: three u16 from header +6.
    pub const RECORD_MASK: usize = 0x06;
    /// Components of every record before the masked controls': root position (3 halves) and
    /// 3 more root words (0 in the legacy records; perhaps the root rotation).
    pub const RECORD_ROOT_COMPONENTS: usize = 6;
    /// flagHigh of the node-array layout (`TMN_*` sequences; no controller family).
    pub const FLAG_NODE_ARRAYS: u16 = 0xFFFF;
    /// Node-array layout: header +8 = node count, node records of 32 bytes from +0x0C.
    pub const NODE_COUNT: usize = 0x08;
    /// Node-array layout: the first node record.
    pub const NODE_RECORDS: usize = 0x0C;
    /// Node-array layout: bytes per node record.
    pub const NODE_RECORD: usize = 32;
    /// Arrays per node (each `frames + 1` i16).
    pub const NODE_ARRAYS: usize = 3;

    /// Block 1 descriptor: `id = v >> 9`; channel bits in expansion order
    /// (position x, y, z, rotation x, y, z).
    pub const ID_SHIFT: u16 = 9;
    /// The channel bits of a descriptor: position x, y, z, rotation x, y, z.
    pub const CHANNEL_BITS: [u16; 6] = [0x100, 0x80, 0x40, 0x20, 0x10, 0x08];
    /// Bits never set in known data (a guess at scale by one tool); a descriptor using them
    /// is reported as undecodable rather than misread.
    pub const RESERVED_BITS: u16 = 0x07;

    /// Block 2 entries are u8 unless the frame count needs u16 key frames (>= 0x8000 never
    /// occurs in standard sequences).
    pub const WIDE_COUNTS_FRAMES: u32 = 0x8000;
    /// Block 3 entries are u8 when `frames <= 0xFF`, else u16.
    pub const U8_FRAMES_MAX: u32 = 0xFF;

    /// The game's curve clock: tangents are per second at 30 Hz.
    pub const FPS: f32 = 30.0;
    /// One turn in int16 rotation units.
    pub const TURN: f32 = 65536.0;
}

/// MT5 ("HRCM") model layout.
pub mod mt5 {
    /// The four bytes an MT5 file starts with.
    pub const MAGIC: &[u8; 4] = b"HRCM";
    /// u32 texture-data (TEXD) offset at +4, u32 first-node offset at +8.
    pub const HEADER_SIZE: usize = 12;
    /// Bytes per node record.
    pub const NODE_SIZE: usize = 64;
    /// Node: u32 flags (the low 16 bits are the render key).
    pub const NODE_FLAGS: usize = 0x00;
    /// Node: u32 offset of its mesh (0: none).
    pub const NODE_MESH: usize = 0x04;
    /// 3 × i32 rotation (turns × 65536).
    pub const NODE_ROTATION: usize = 0x08;
    /// Node: 3 × f32 scale.
    pub const NODE_SCALE: usize = 0x14;
    /// Node: 3 × f32 position.
    pub const NODE_POSITION: usize = 0x20;
    /// Node: u32 offset of its first child (0: none).
    pub const NODE_CHILD: usize = 0x2C;
    /// Node: u32 offset of its next sibling (0: none).
    pub const NODE_SIBLING: usize = 0x30;
    /// Node: u32 offset of its parent (0: none).
    pub const NODE_PARENT: usize = 0x34;
    /// Node: u32 name id.
    pub const NODE_NAME: usize = 0x38;
    /// Mesh header: u32 polyType, u32 vertOfs, i32 vertCount, u32 stripOfs, `f32 center[3]`, f32 radius.
    pub const MESH_HEADER: usize = 32;
    /// Bytes per vertex: position and normal, 3 × f32 each.
    pub const VERTEX_SIZE: usize = 24;
    /// The opcode that ends a mesh's strip stream.
    pub const STRIP_END: u16 = 0x8000;
    /// Opcodes 0x10..=0x1C are strip groups.
    pub const STRIP_FIRST: u16 = 0x10;
    /// The last strip-group opcode.
    pub const STRIP_LAST: u16 = 0x1C;
    /// Strip-group opcodes whose vertices carry UVs.
    pub const STRIP_UV: [u16; 4] = [0x11, 0x14, 0x19, 0x1C];
    /// Strip-group opcodes whose vertices carry colours.
    pub const STRIP_COLOR: [u16; 4] = [0x12, 0x14, 0x1A, 0x1C];
    /// UV scale when no UV-size opcode set one (uv = stored / 1024).
    pub const DEFAULT_UV_SIZE: u16 = 1024;
    /// A root node whose signed low-16 render key is above this selects a controller family.
    pub const FAMILY_KEY_BASE: i32 = 0x7001;
}

/// Container layouts.
pub mod container {
    /// The two bytes a gzip stream starts with.
    pub const GZIP: [u8; 2] = [0x1F, 0x8B];
    /// PAKF magic.
    pub const PAKF: &[u8; 4] = b"PAKF";
    /// PAKS magic.
    pub const PAKS: &[u8; 4] = b"PAKS";
    /// IPAC magic.
    pub const IPAC: &[u8; 4] = b"IPAC";
    /// AFS magic.
    pub const AFS: &[u8; 4] = b"AFS\0";
    /// PAKF header: magic, content size, unknown, file count.
    pub const PKF_HEADER: usize = 16;
    /// PKF chunks: `{fourcc, u32 size including this 8-byte header}`.
    pub const CHUNK_HEADER: usize = 8;
    /// PAKS header: magic, IPAC offset (0x10), two unknown words.
    pub const PKS_HEADER: usize = 16;
    /// IPAC header: magic, dictionary offset, count, size.
    pub const IPAC_HEADER: usize = 16;
    /// IPAC dictionary entry: `char name[8], char ext[4], u32 ofs, u32 size` (offsets from IPAC).
    pub const IPAC_ENTRY: usize = 20;
    /// AFS: `u32 count`, then `count × {ofs, size}`; the name table pointer sits at the end of
    /// the first 2048-byte sector, or at 0x8000 - 8 when count > 1016.
    pub const AFS_SECTOR: usize = 2048;
    /// AFS counts above which the name table pointer moves to 0x8000 - 8.
    pub const AFS_BIG_COUNT: usize = 1016;
    /// Bytes per AFS name record (32-byte name, date, size).
    pub const AFS_NAME_RECORD: usize = 48;
}
