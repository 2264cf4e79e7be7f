//! On-disk layouts of the Oni files boneyard reads: offsets, sizes and constants only (no
//! reading). Struct offsets are relative to an instance's data, i.e. past its 8-byte pre-data
//! (the OniGalore wiki counts from the pre-data, so its offsets are these + 8).
//!
//! Sources: Bungie's structs (`BFW_Totoro_Private.h`, `BFW_Totoro.h`, `BFW_Motoko.h`,
//! `BFW_TM_Private.h`), cross-checked with OniSplit's metadata and the fixtures in
//! `shared/data/oni` (see `shared/reference/oni.md`).

/// Instance file header (`TMtInstanceFile_Header`), 64 bytes.
pub mod header {
    /// Size of the header; the instance descriptors follow it.
    pub const SIZE: usize = 0x40;
    /// u64 template checksum (which build wrote the file).
    pub const CHECKSUM: usize = 0x00;
    /// u32 version, 'VR31' or 'VR32'.
    pub const VERSION: usize = 0x08;
    /// The four descriptor sizes (64, 20, 16, 8) as u16s.
    pub const SIZES: usize = 0x0c;
    /// u32 number of instance descriptors.
    pub const NUM_INSTANCES: usize = 0x14;
    /// u32 number of name descriptors.
    pub const NUM_NAMES: usize = 0x18;
    /// u32 number of template descriptors.
    pub const NUM_TEMPLATES: usize = 0x1c;
    /// u32 file offset of the data block (the instances' structs).
    pub const DATA_OFFSET: usize = 0x20;
    /// u32 length of the data block.
    pub const DATA_LENGTH: usize = 0x24;
    /// u32 file offset of the name block.
    pub const NAME_OFFSET: usize = 0x28;
    /// u32 length of the name block.
    pub const NAME_LENGTH: usize = 0x2c;
    /// VR32 (OniSplit `.oni`): the raw table inside the file.
    pub const RAW_OFFSET: usize = 0x30;
    /// VR32: u32 length of the raw table.
    pub const RAW_LENGTH: usize = 0x34;

    /// 'VR31' read as a little-endian u32 (bytes `31 33 52 56`): level `.dat` files.
    pub const VERSION_VR31: u32 = 0x5652_3331;
    /// 'VR32' (bytes `32 33 52 56`): OniSplit's single-instance `.oni` files.
    pub const VERSION_VR32: u32 = 0x5652_3332;

    /// Bytes per instance descriptor.
    pub const SIZE_INSTANCE_DESCRIPTOR: usize = 20;
    /// Bytes per template descriptor.
    pub const SIZE_TEMPLATE_DESCRIPTOR: usize = 16;
    /// Bytes per name descriptor.
    pub const SIZE_NAME_DESCRIPTOR: usize = 8;

    /// Template checksums (header 0x00) of the known builds.
    pub const CHECKSUM_PC_RETAIL: u64 = 0x0003_BCDF_33DC_271F;
    /// The Mac demo's template checksum.
    pub const CHECKSUM_PC_DEMO_MAC: u64 = 0x0003_BCDF_23C1_3061;
    /// The PlayStation 2 build's template checksum.
    pub const CHECKSUM_PS2: u64 = 0x0003_BA70_A8D8_AE11;
}

/// Instance descriptor, 20 bytes: tag, data offset (to the struct, past the pre-data,
/// relative to the data block), name offset (relative to the name block), size (the
/// pre-data included), flags.
pub mod descriptor {
    /// u32 template tag.
    pub const TAG: usize = 0x00;
    /// u32 offset of the struct in the data block (past its pre-data).
    pub const DATA_OFFSET: usize = 0x04;
    /// u32 offset of the name in the name block.
    pub const NAME_OFFSET: usize = 0x08;
    /// u32 size of the instance, pre-data included.
    pub const SIZE: usize = 0x0c;
    /// u32 flags ([`FLAG_UNIQUE`], [`FLAG_PLACEHOLDER`]).
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
/// The link to descriptor `index` (the inverse of [`link_index`]).
pub fn make_link(index: usize) -> u32 {
    ((index as u32) << 8) | 1
}

/// Template tags, as the u32 stored in a descriptor (little-endian read of the reversed
/// four characters: "TRAM" is stored as the bytes `4D 41 52 54`).
pub const fn tag(s: &[u8; 4]) -> u32 {
    ((s[0] as u32) << 24) | ((s[1] as u32) << 16) | ((s[2] as u32) << 8) | (s[3] as u32)
}
/// Animation (`TRtAnimation`).
pub const TRAM: u32 = tag(b"TRAM");
/// Animation collection (a character class's list of TRAMs).
pub const TRAC: u32 = tag(b"TRAC");
/// Body set: five TRCM levels of detail.
pub const TRBS: u32 = tag(b"TRBS");
/// Body (`TRtBody`): geometries, translations, hierarchy.
pub const TRCM: u32 = tag(b"TRCM");
/// Array of M3GM geometry links, one per part.
pub const TRGA: u32 = tag(b"TRGA");
/// Array of part translations.
pub const TRTA: u32 = tag(b"TRTA");
/// Array of hierarchy index blocks.
pub const TRIA: u32 = tag(b"TRIA");
/// Character class.
pub const ONCC: u32 = tag(b"ONCC");
/// Geometry (one part's mesh).
pub const M3GM: u32 = tag(b"M3GM");
/// Point array (vertex positions).
pub const PNTA: u32 = tag(b"PNTA");
/// Vector array (normals).
pub const VCRA: u32 = tag(b"VCRA");
/// Texture coordinate array.
pub const TXCA: u32 = tag(b"TXCA");
/// Index array (triangle strips, normal indices).
pub const IDXA: u32 = tag(b"IDXA");

/// The tag as text ("TRAM").
pub fn tag_name(t: u32) -> String {
    t.to_be_bytes().iter().map(|&c| if (0x20..0x7f).contains(&c) { c as char } else { '?' }).collect()
}

/// `TRtAnimation`, 0x180 bytes.
pub mod tram {
    /// Size of the struct.
    pub const SIZE: usize = 0x180;
    // .raw offsets (absolute in the level's .raw; relative to the raw table in a VR32 .oni)
    /// Raw offset of the per-frame root heights (f32).
    pub const HEIGHTS: usize = 0x04;
    /// Raw offset of the per-frame root velocities (two f32).
    pub const POSITIONS: usize = 0x08;
    /// Raw offset of the attacks.
    pub const ATTACKS: usize = 0x0c;
    /// Raw offset of the take-damage entries.
    pub const TAKE_DAMAGES: usize = 0x10;
    /// Raw offset of the motion blurs.
    pub const BLURS: usize = 0x14;
    /// Raw offset of the shortcuts.
    pub const SHORTCUTS: usize = 0x18;
    /// Raw offset of the throw (0: none).
    pub const THROW: usize = 0x1c;
    /// Raw offset of the footsteps.
    pub const FOOTSTEPS: usize = 0x20;
    /// Raw offset of the particles.
    pub const PARTICLES: usize = 0x24;
    /// Raw offset of the per-frame `TRtPosition`s.
    pub const POSITION_POINTS: usize = 0x28;
    /// Raw offset of the rotation block (stream offset table, then the streams).
    pub const ROTATIONS: usize = 0x2c;
    /// Raw offset of the sounds.
    pub const SOUNDS: usize = 0x30;
    // in the struct
    /// u32 animation flags.
    pub const FLAGS: usize = 0x34;
    /// The flag (`ONrAnimFlag_Overlay`) of an animation played over another one, on its used
    /// parts.
    pub const FLAG_OVERLAY: u32 = 0x2000;
    /// Two TRAM links: the animations played directly after this one.
    pub const DIRECT_ANIMATIONS: usize = 0x38;
    /// u32 mask of the parts driven.
    pub const USED_PARTS: usize = 0x40;
    /// u32 mask of the parts replaced in an overlay.
    pub const REPLACE_PARTS: usize = 0x44;
    /// f32 final rotation about the vertical axis (radians).
    pub const FINAL_ROTATION: usize = 0x48;
    /// u16 direction of movement.
    pub const MOVE_DIRECTION: usize = 0x4c;
    /// u16 vocalization type.
    pub const VOCALIZATION: usize = 0x4e;
    /// `TRtExtentInfo`: ring (max distance, min/max height, 36 distances).
    pub const EXTENT_RING: usize = 0x50;
    /// Number of distances in the extent ring (one per 10°).
    pub const EXTENT_RING_SAMPLES: usize = 36;
    /// `TRtAttackBound` of the first attack frame.
    pub const FIRST_ATTACK: usize = 0xec;
    /// `TRtAttackBound` of the largest reach.
    pub const MAX_ATTACK: usize = 0x10c;
    /// u32 computed attack direction.
    pub const COMPUTED_DIRECTION: usize = 0x12c;
    /// u32 number of attack extents.
    pub const NUM_ATTACK_EXTENTS: usize = 0x130;
    /// .raw: the attack extents.
    pub const ATTACK_EXTENTS: usize = 0x134;
    /// The attack's name (16 bytes, NUL-padded).
    pub const ATTACK_NAME: usize = 0x138;
    /// Length of the attack name field.
    pub const ATTACK_NAME_LEN: usize = 16;
    /// u16 hard pause frames.
    pub const HARD_PAUSE: usize = 0x148;
    /// u16 soft pause frames.
    pub const SOFT_PAUSE: usize = 0x14a;
    /// u32 number of sounds.
    pub const NUM_SOUNDS: usize = 0x14c;
    /// u16 frames per second.
    pub const FPS: usize = 0x156;
    /// u16 key size in bytes (the "compression": 3, 4, 6, 8 or 16).
    pub const COMPRESSION: usize = 0x158;
    /// u16 animation type.
    pub const TYPE: usize = 0x15a;
    /// u16 aiming type.
    pub const AIMING_TYPE: usize = 0x15c;
    /// u16 state the animation starts from.
    pub const FROM_STATE: usize = 0x15e;
    /// u16 state it ends in.
    pub const TO_STATE: usize = 0x160;
    /// u16 number of parts.
    pub const NUM_PARTS: usize = 0x162;
    /// u16 number of frames.
    pub const NUM_FRAMES: usize = 0x164;
    /// u16 duration in frames.
    pub const DURATION: usize = 0x166;
    /// u16 variant bits.
    pub const VARIENT: usize = 0x168;
    /// u16 variant bits at the end.
    pub const VARIENT_END: usize = 0x16a;
    /// u16 first frame that cannot be interrupted.
    pub const ATOMIC_START: usize = 0x16c;
    /// u16 last frame that cannot be interrupted.
    pub const ATOMIC_END: usize = 0x16e;
    /// u16 blend-out length in frames.
    pub const END_INTERPOLATION: usize = 0x170;
    /// u16 blend-in length in frames.
    pub const MAX_INTERPOLATION: usize = 0x172;
    /// i16 action frame.
    pub const ACTION_FRAME: usize = 0x174;
    /// u16 first level in which it is used.
    pub const FIRST_LEVEL: usize = 0x176;
    /// u8 first invulnerable frame.
    pub const INVULNERABLE_START: usize = 0x178;
    /// u8 number of invulnerable frames.
    pub const INVULNERABLE_LENGTH: usize = 0x179;
    /// u8 number of attacks.
    pub const NUM_ATTACKS: usize = 0x17a;
    /// u8 number of take-damage entries.
    pub const NUM_TAKE_DAMAGES: usize = 0x17b;
    /// u8 number of motion blurs.
    pub const NUM_BLURS: usize = 0x17c;
    /// u8 number of shortcuts.
    pub const NUM_SHORTCUTS: usize = 0x17d;
    /// u8 number of footsteps.
    pub const NUM_FOOTSTEPS: usize = 0x17e;
    /// u8 number of particles.
    pub const NUM_PARTICLES: usize = 0x17f;

    /// Element sizes of the raw arrays.
    pub const ATTACK_SIZE: usize = 32;
    /// Bytes per take-damage entry.
    pub const TAKE_DAMAGE_SIZE: usize = 4;
    /// Bytes per motion blur.
    pub const BLUR_SIZE: usize = 12;
    /// Bytes per shortcut.
    pub const SHORTCUT_SIZE: usize = 8;
    /// Bytes of the throw.
    pub const THROW_SIZE: usize = 22;
    /// Bytes per footstep.
    pub const FOOTSTEP_SIZE: usize = 4;
    /// Bytes per particle.
    pub const PARTICLE_SIZE: usize = 24;
    /// Length of a particle's name field.
    pub const PARTICLE_NAME_LEN: usize = 16;
    /// Bytes per `TRtPosition`.
    pub const POSITION_POINT_SIZE: usize = 8;
    /// Bytes per sound.
    pub const SOUND_SIZE: usize = 34;
    /// Length of a sound's name field.
    pub const SOUND_NAME_LEN: usize = 32;
    /// Bytes per attack extent.
    pub const ATTACK_EXTENT_SIZE: usize = 12;
    /// Bytes per attack bound.
    pub const ATTACK_BOUND_SIZE: usize = 32;

    /// Key sizes the engine's switch in 0x427820 knows.
    pub const KEY_SIZES: [u16; 5] = [3, 4, 6, 8, 16];
    /// The engine's rate (every TRAM of the CD says 60).
    pub const ENGINE_FPS: u16 = 60;
    /// `TRcMaxParts`: the engine's per-part arrays hold 32 parts (a u32 mask). A fact of the format, not a `Limits` field.
    pub const MAX_PARTS: usize = 32;
}

/// `TRtBody` (TRCM), 0x60 bytes.
pub mod trcm {
    /// Size of the struct.
    pub const SIZE: usize = 0x60;
    /// i32 polygon count.
    pub const POLYGON_COUNT: usize = 0x00;
    /// u16 number of parts.
    pub const NUM_PARTS: usize = 0x04;
    /// Debug name (64 bytes).
    pub const DEBUG_NAME: usize = 0x08;
    /// Length of the debug name field.
    pub const DEBUG_NAME_LEN: usize = 64;
    /// TRGA link (the parts' geometries).
    pub const GEOMETRIES: usize = 0x54;
    /// TRTA link (the parts' translations).
    pub const TRANSLATIONS: usize = 0x58;
    /// TRIA link (the hierarchy).
    pub const INDEX_BLOCKS: usize = 0x5c;
}

/// `TRtBodySet` (TRBS): five TRCM links, lowest detail first.
pub mod trbs {
    /// Size of the struct.
    pub const SIZE: usize = 0x14;
    /// Number of TRCM links (levels of detail).
    pub const LODS: usize = 5;
    /// The engine poses with `TRcBody_SuperHigh`.
    pub const SUPER_HIGH: usize = 4;
}

/// TRGA / TRTA / TRIA / TRMA / TRAC: 22 bytes of padding, a u16 count, the elements.
pub mod array {
    /// u16 element count.
    pub const COUNT: usize = 0x16;
    /// First element.
    pub const ELEMENTS: usize = 0x18;
    /// TRIA element: parent, first child, next sibling, zero.
    pub const INDEX_BLOCK_SIZE: usize = 4;
    /// TRAC element: u16 weight, u16 virtual from-state, u32 lookup value, TRAM link.
    pub const TRAC_ENTRY_SIZE: usize = 12;
    /// Offset of the TRAM link in a TRAC element.
    pub const TRAC_ENTRY_TRAM: usize = 8;
    /// TRAC: link to the parent collection (searched after this one).
    pub const TRAC_PARENT: usize = 0x10;
}

/// `ONtCharacterClass` (ONCC): the links the body needs.
pub mod oncc {
    /// Size of the struct.
    pub const SIZE: usize = 0xc90;
    /// TRBS link (the body set).
    pub const BODY_SET: usize = 0xc34;
    /// Link to the body's textures.
    pub const TEXTURES: usize = 0xc38;
    /// TRAC link (the animations).
    pub const ANIMATIONS: usize = 0xc80;
    /// Link to the aiming screens.
    pub const AIMING_SCREENS: usize = 0xc84;
}

/// `M3tGeometry` (M3GM), 0x24 bytes, and its arrays.
pub mod m3gm {
    /// Size of the struct.
    pub const SIZE: usize = 0x24;
    /// u32 geometry flags.
    pub const FLAGS: usize = 0x00;
    /// PNTA link (positions).
    pub const POINTS: usize = 0x04;
    /// VCRA link (vertex normals).
    pub const VERTEX_NORMALS: usize = 0x08;
    /// VCRA link (triangle normals).
    pub const TRIANGLE_NORMALS: usize = 0x0c;
    /// TXCA link (texture coordinates).
    pub const TEXCOORDS: usize = 0x10;
    /// IDXA link (triangle strips).
    pub const STRIPS: usize = 0x14;
    /// IDXA link (a triangle normal index per triangle).
    pub const TRIANGLE_NORMAL_INDICES: usize = 0x18;
    /// TXMP link (the base texture).
    pub const BASE_MAP: usize = 0x1c;
    /// PNTA: bbox (6 f32) at 0x0c, sphere (4 f32) at 0x24, count at 0x34, points at 0x38.
    pub const PNTA_BBOX: usize = 0x0c;
    /// PNTA: the bounding sphere (centre, radius).
    pub const PNTA_SPHERE: usize = 0x24;
    /// PNTA: u32 point count.
    pub const PNTA_COUNT: usize = 0x34;
    /// PNTA: the first point.
    pub const PNTA_ELEMENTS: usize = 0x38;
    /// VCRA / TXCA / IDXA: count at 0x14, elements at 0x18.
    pub const LIST_COUNT: usize = 0x14;
    /// VCRA / TXCA / IDXA: the first element.
    pub const LIST_ELEMENTS: usize = 0x18;
    /// Strip start marker in IDXA.
    pub const STRIP_START: u32 = 0x8000_0000;
}
