//! On-disk layouts of the Oni files boneyard reads: offsets, sizes and constants only (no
//! reading). Struct offsets are relative to an instance's data, i.e. past its 8-byte pre-data
//! (the OniGalore wiki counts from the pre-data, so its offsets are these + 8).
//!
//! Sources: Bungie's structs (`BFW_Totoro_Private.h`, `BFW_Totoro.h`, `BFW_Motoko.h`,
//! `BFW_TM_Private.h`), cross-checked with OniSplit's metadata and the fixtures in
//! `shared/data/oni` (see `shared/reference/oni.md`).

/// Instance file header (`TMtInstanceFile_Header`), 64 bytes.
pub mod header {
    pub const SIZE: usize = 0x40;
    pub const CHECKSUM: usize = 0x00;
    pub const VERSION: usize = 0x08;
    /// The four descriptor sizes (64, 20, 16, 8) as u16s.
    pub const SIZES: usize = 0x0c;
    pub const NUM_INSTANCES: usize = 0x14;
    pub const NUM_NAMES: usize = 0x18;
    pub const NUM_TEMPLATES: usize = 0x1c;
    pub const DATA_OFFSET: usize = 0x20;
    pub const DATA_LENGTH: usize = 0x24;
    pub const NAME_OFFSET: usize = 0x28;
    pub const NAME_LENGTH: usize = 0x2c;
    /// VR32 (OniSplit `.oni`): the raw table inside the file.
    pub const RAW_OFFSET: usize = 0x30;
    pub const RAW_LENGTH: usize = 0x34;

    /// 'VR31' read as a little-endian u32 (bytes `31 33 52 56`): level `.dat` files.
    pub const VERSION_VR31: u32 = 0x5652_3331;
    /// 'VR32' (bytes `32 33 52 56`): OniSplit's single-instance `.oni` files.
    pub const VERSION_VR32: u32 = 0x5652_3332;

    pub const SIZE_INSTANCE_DESCRIPTOR: usize = 20;
    pub const SIZE_TEMPLATE_DESCRIPTOR: usize = 16;
    pub const SIZE_NAME_DESCRIPTOR: usize = 8;

    /// Template checksums (header 0x00) of the known builds.
    pub const CHECKSUM_PC_RETAIL: u64 = 0x0003_BCDF_33DC_271F;
    pub const CHECKSUM_PC_DEMO_MAC: u64 = 0x0003_BCDF_23C1_3061;
    pub const CHECKSUM_PS2: u64 = 0x0003_BA70_A8D8_AE11;
}

/// Instance descriptor, 20 bytes: tag, data offset (to the struct, past the pre-data,
/// relative to the data block), name offset (relative to the name block), size (the
/// pre-data included), flags.
pub mod descriptor {
    pub const TAG: usize = 0x00;
    pub const DATA_OFFSET: usize = 0x04;
    pub const NAME_OFFSET: usize = 0x08;
    pub const SIZE: usize = 0x0c;
    pub const FLAGS: usize = 0x10;
    /// Unnamed ("unique") instance.
    pub const FLAG_UNIQUE: u32 = 0x1;
    /// Defined in another file (looked up by name).
    pub const FLAG_PLACEHOLDER: u32 = 0x2;
    /// Bytes before every instance's struct: its own link, then the file id.
    pub const PRE_DATA: usize = 8;
}

/// Links (`TMmPlaceHolder_*`): `(descriptor index << 8) | 1`, 0 = none.
pub fn link_index(link: u32) -> Option<usize> {
    if link & 0xff == 1 {
        Some((link >> 8) as usize)
    } else {
        None
    }
}
pub fn make_link(index: usize) -> u32 {
    ((index as u32) << 8) | 1
}

/// Template tags, as the u32 stored in a descriptor (little-endian read of the reversed
/// four characters: "TRAM" is stored as the bytes `4D 41 52 54`).
pub const fn tag(s: &[u8; 4]) -> u32 {
    ((s[0] as u32) << 24) | ((s[1] as u32) << 16) | ((s[2] as u32) << 8) | (s[3] as u32)
}
pub const TRAM: u32 = tag(b"TRAM");
pub const TRAC: u32 = tag(b"TRAC");
pub const TRBS: u32 = tag(b"TRBS");
pub const TRCM: u32 = tag(b"TRCM");
pub const TRGA: u32 = tag(b"TRGA");
pub const TRTA: u32 = tag(b"TRTA");
pub const TRIA: u32 = tag(b"TRIA");
pub const ONCC: u32 = tag(b"ONCC");
pub const M3GM: u32 = tag(b"M3GM");
pub const PNTA: u32 = tag(b"PNTA");
pub const VCRA: u32 = tag(b"VCRA");
pub const TXCA: u32 = tag(b"TXCA");
pub const IDXA: u32 = tag(b"IDXA");

/// The tag as text ("TRAM").
pub fn tag_name(t: u32) -> String {
    t.to_be_bytes().iter().map(|&c| if (0x20..0x7f).contains(&c) { c as char } else { '?' }).collect()
}

/// `TRtAnimation`, 0x180 bytes.
pub mod tram {
    pub const SIZE: usize = 0x180;
    // .raw offsets (absolute in the level's .raw; relative to the raw table in a VR32 .oni)
    pub const HEIGHTS: usize = 0x04;
    pub const POSITIONS: usize = 0x08;
    pub const ATTACKS: usize = 0x0c;
    pub const TAKE_DAMAGES: usize = 0x10;
    pub const BLURS: usize = 0x14;
    pub const SHORTCUTS: usize = 0x18;
    pub const THROW: usize = 0x1c;
    pub const FOOTSTEPS: usize = 0x20;
    pub const PARTICLES: usize = 0x24;
    pub const POSITION_POINTS: usize = 0x28;
    pub const ROTATIONS: usize = 0x2c;
    pub const SOUNDS: usize = 0x30;
    // in the struct
    pub const FLAGS: usize = 0x34;
    pub const DIRECT_ANIMATIONS: usize = 0x38;
    pub const USED_PARTS: usize = 0x40;
    pub const REPLACE_PARTS: usize = 0x44;
    pub const FINAL_ROTATION: usize = 0x48;
    pub const MOVE_DIRECTION: usize = 0x4c;
    pub const VOCALIZATION: usize = 0x4e;
    /// `TRtExtentInfo`: ring (max distance, min/max height, 36 distances).
    pub const EXTENT_RING: usize = 0x50;
    pub const EXTENT_RING_SAMPLES: usize = 36;
    pub const FIRST_ATTACK: usize = 0xec;
    pub const MAX_ATTACK: usize = 0x10c;
    pub const COMPUTED_DIRECTION: usize = 0x12c;
    pub const NUM_ATTACK_EXTENTS: usize = 0x130;
    /// .raw: the attack extents.
    pub const ATTACK_EXTENTS: usize = 0x134;
    pub const ATTACK_NAME: usize = 0x138;
    pub const ATTACK_NAME_LEN: usize = 16;
    pub const HARD_PAUSE: usize = 0x148;
    pub const SOFT_PAUSE: usize = 0x14a;
    pub const NUM_SOUNDS: usize = 0x14c;
    pub const FPS: usize = 0x156;
    pub const COMPRESSION: usize = 0x158;
    pub const TYPE: usize = 0x15a;
    pub const AIMING_TYPE: usize = 0x15c;
    pub const FROM_STATE: usize = 0x15e;
    pub const TO_STATE: usize = 0x160;
    pub const NUM_PARTS: usize = 0x162;
    pub const NUM_FRAMES: usize = 0x164;
    pub const DURATION: usize = 0x166;
    pub const VARIENT: usize = 0x168;
    pub const VARIENT_END: usize = 0x16a;
    pub const ATOMIC_START: usize = 0x16c;
    pub const ATOMIC_END: usize = 0x16e;
    pub const END_INTERPOLATION: usize = 0x170;
    pub const MAX_INTERPOLATION: usize = 0x172;
    pub const ACTION_FRAME: usize = 0x174;
    pub const FIRST_LEVEL: usize = 0x176;
    pub const INVULNERABLE_START: usize = 0x178;
    pub const INVULNERABLE_LENGTH: usize = 0x179;
    pub const NUM_ATTACKS: usize = 0x17a;
    pub const NUM_TAKE_DAMAGES: usize = 0x17b;
    pub const NUM_BLURS: usize = 0x17c;
    pub const NUM_SHORTCUTS: usize = 0x17d;
    pub const NUM_FOOTSTEPS: usize = 0x17e;
    pub const NUM_PARTICLES: usize = 0x17f;

    /// Element sizes of the raw arrays.
    pub const ATTACK_SIZE: usize = 32;
    pub const TAKE_DAMAGE_SIZE: usize = 4;
    pub const BLUR_SIZE: usize = 12;
    pub const SHORTCUT_SIZE: usize = 8;
    pub const THROW_SIZE: usize = 22;
    pub const FOOTSTEP_SIZE: usize = 4;
    pub const PARTICLE_SIZE: usize = 24;
    pub const PARTICLE_NAME_LEN: usize = 16;
    pub const POSITION_POINT_SIZE: usize = 8;
    pub const SOUND_SIZE: usize = 34;
    pub const SOUND_NAME_LEN: usize = 32;
    pub const ATTACK_EXTENT_SIZE: usize = 12;
    pub const ATTACK_BOUND_SIZE: usize = 32;

    /// Key sizes the engine's switch in 0x427820 knows.
    pub const KEY_SIZES: [u16; 5] = [3, 4, 6, 8, 16];
    /// The engine's rate (every TRAM of the CD says 60).
    pub const ENGINE_FPS: u16 = 60;
    /// `TRcMaxParts`: the engine's per-part arrays hold 32 parts (a u32 mask).
    pub const MAX_PARTS: usize = 32;
}

/// `TRtBody` (TRCM), 0x60 bytes.
pub mod trcm {
    pub const SIZE: usize = 0x60;
    pub const POLYGON_COUNT: usize = 0x00;
    pub const NUM_PARTS: usize = 0x04;
    pub const DEBUG_NAME: usize = 0x08;
    pub const DEBUG_NAME_LEN: usize = 64;
    pub const GEOMETRIES: usize = 0x54;
    pub const TRANSLATIONS: usize = 0x58;
    pub const INDEX_BLOCKS: usize = 0x5c;
}

/// `TRtBodySet` (TRBS): five TRCM links, lowest detail first.
pub mod trbs {
    pub const SIZE: usize = 0x14;
    pub const LODS: usize = 5;
    /// The engine poses with `TRcBody_SuperHigh`.
    pub const SUPER_HIGH: usize = 4;
}

/// TRGA / TRTA / TRIA / TRMA / TRAC: 22 bytes of padding, a u16 count, the elements.
pub mod array {
    pub const COUNT: usize = 0x16;
    pub const ELEMENTS: usize = 0x18;
    /// TRIA element: parent, first child, next sibling, zero.
    pub const INDEX_BLOCK_SIZE: usize = 4;
    /// TRAC element: u16 weight, u16 virtual from-state, u32 lookup value, TRAM link.
    pub const TRAC_ENTRY_SIZE: usize = 12;
    pub const TRAC_ENTRY_TRAM: usize = 8;
    pub const TRAC_PARENT: usize = 0x10;
}

/// `ONtCharacterClass` (ONCC): the links the body needs.
pub mod oncc {
    pub const SIZE: usize = 0xc90;
    pub const BODY_SET: usize = 0xc34;
    pub const TEXTURES: usize = 0xc38;
    pub const ANIMATIONS: usize = 0xc80;
    pub const AIMING_SCREENS: usize = 0xc84;
}

/// `M3tGeometry` (M3GM), 0x24 bytes, and its arrays.
pub mod m3gm {
    pub const SIZE: usize = 0x24;
    pub const FLAGS: usize = 0x00;
    pub const POINTS: usize = 0x04;
    pub const VERTEX_NORMALS: usize = 0x08;
    pub const TRIANGLE_NORMALS: usize = 0x0c;
    pub const TEXCOORDS: usize = 0x10;
    pub const STRIPS: usize = 0x14;
    pub const TRIANGLE_NORMAL_INDICES: usize = 0x18;
    pub const BASE_MAP: usize = 0x1c;
    /// PNTA: bbox (6 f32) at 0x0c, sphere (4 f32) at 0x24, count at 0x34, points at 0x38.
    pub const PNTA_BBOX: usize = 0x0c;
    pub const PNTA_SPHERE: usize = 0x24;
    pub const PNTA_COUNT: usize = 0x34;
    pub const PNTA_ELEMENTS: usize = 0x38;
    /// VCRA / TXCA / IDXA: count at 0x14, elements at 0x18.
    pub const LIST_COUNT: usize = 0x14;
    pub const LIST_ELEMENTS: usize = 0x18;
    /// Strip start marker in IDXA.
    pub const STRIP_START: u32 = 0x8000_0000;
}
