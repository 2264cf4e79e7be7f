//! On-disk layouts (big-endian) of the structures the reader uses, from the decompilations'
//! headers (zeldaret/oot include/animation.h, animation_legacy.h, skin.h; dma.h).
//! Offsets are relative to the start of each structure. The records below ([`Record`]) name
//! every field the reader uses at its offset, as the headers define them.

use boneyard_core::{Endian, Reader, Result};

/// `SkeletonHeader`: u32 segmented pointer to the limb pointer array, u8 limbCount, 3 pad.
pub const SKELETON_HEADER_SIZE: usize = 0x08;
/// `FlexSkeletonHeader`: a `SkeletonHeader` then u8 dListCount, 3 pad.
pub const FLEX_SKELETON_HEADER_SIZE: usize = 0x0C;

/// `StandardLimb`: Vec3s jointPos, u8 child, u8 sibling, Gfx* dList.
pub const STANDARD_LIMB_SIZE: usize = 0x0C;
/// `LodLimb`: as Standard, then `Gfx* dLists[2]` (near, far).
pub const LOD_LIMB_SIZE: usize = 0x10;
/// `SkinLimb`: Vec3s jointPos, u8 child, u8 sibling, s32 segmentType, void* segment.
pub const SKIN_LIMB_SIZE: usize = 0x10;
/// `LegacyLimb`: Gfx* dList, Vec3f trans, Vec3s rot, pad, LegacyLimb* sibling, LegacyLimb* child.
pub const LEGACY_LIMB_SIZE: usize = 0x20;
/// Child/sibling value meaning "none".
pub const LIMB_DONE: u8 = 0xFF;
/// SkinLimb segmentType values (skin.h).
pub const SKIN_LIMB_TYPE_ANIMATED: i32 = 4;
/// SkinLimb segmentType of a plain display list (`Gfx*` in the segment field).
pub const SKIN_LIMB_TYPE_NORMAL: i32 = 11;
/// `SkinAnimatedLimbData` (segmentType 4): u16 totalVtxCount, u16 limbModifCount,
/// SkinLimbModif* limbModifications, Gfx* dlist.
pub const SKIN_ANIMATED_LIMB_DATA_SIZE: usize = 0x0C;
/// `SkinLimbModif`: u16 vtxCount, u16 transformCount, u16 unk_4 (the static transformation's
/// index, whose limb also turns the normals), pad, SkinVertex* skinVertices,
/// SkinTransformation* limbTransformations.
pub const SKIN_LIMB_MODIF_SIZE: usize = 0x10;
/// `SkinVertex`: u16 index (into the limb's Vtx buffer), s16 s, t, s8 normX, normY, normZ, u8 alpha.
pub const SKIN_VERTEX_SIZE: usize = 0x0A;
/// `SkinTransformation`: u8 limbIndex, pad, s16 x, y, z, u8 scale (the weight, in percent), pad.
pub const SKIN_TRANSFORMATION_SIZE: usize = 0x0A;
/// The segment `Skin_ApplyLimbModifications` binds to the animated limb's Vtx buffer.
pub const SEG_SKIN_VERTICES: u8 = 8;

/// `AnimationHeader`: s16 frameCount, pad, s16* frameData, JointIndex* jointIndices, u16 staticIndexMax, pad.
pub const ANIMATION_HEADER_SIZE: usize = 0x10;
/// `JointIndex`: u16 x, y, z.
pub const JOINT_INDEX_SIZE: usize = 6;
/// `LinkAnimationHeader`: s16 frameCount, pad, segmented pointer into `link_animetion`.
pub const LINK_ANIMATION_HEADER_SIZE: usize = 0x08;
/// Joints of a Link frame: root translation + 21 limb rotations.
pub const LINK_JOINTS: usize = 22;
/// Bytes of one Link frame: 22 Vec3s + the u16 face word = 134.
pub const LINK_FRAME_SIZE: usize = LINK_JOINTS * 6 + 2;
/// Where gameplay_keep's 573 Link animation headers start (OoT; decomp XML, ZSaten).
pub const GAMEPLAY_KEEP_LINK_HEADERS: usize = 0x2310;
/// `LegacyAnimationHeader`: s16 frameCount, s16 limbCount, s16* frameData, LegacyJointKey* jointKey.
pub const LEGACY_ANIMATION_HEADER_SIZE: usize = 0x0C;
/// `LegacyJointKey`: s16 xMax, x, yMax, y, zMax, z.
pub const LEGACY_JOINT_KEY_SIZE: usize = 0x0C;

/// Segments the game binds: gameplay_keep 4, field/dungeon keep 5, object 6, link_animetion 7,
/// the flex skeletons' matrix array 0x0D.
pub const SEG_GAMEPLAY_KEEP: u8 = 4;
/// Segment of the object file being read.
pub const SEG_OBJECT: u8 = 6;
/// Segment of `link_animetion`.
pub const SEG_LINK_ANIMETION: u8 = 7;
/// Segment the flex skeletons' per-limb matrices are bound to.
pub const SEG_FLEX_MATRICES: u8 = 0x0D;
/// Size of one `Mtx` in the flex matrix array.
pub const MTX_SIZE: u32 = 0x40;

/// `DmaEntry`: u32 vromStart, vromEnd, romStart, romEnd.
pub const DMA_ENTRY_SIZE: usize = 0x10;
/// F3DEX2 vertex: s16 x, y, z, u16 flag, s16 s, t, `u8 rgba_or_normal[4]`.
pub const VTX_SIZE: usize = 0x10;

/// Largest limb count a skeleton header can hold (u8), and what we accept. A fact of the format, not a `Limits` field.
pub const MAX_LIMBS: usize = 255;

/// Split a segmented address into (segment, offset) (`SEGMENT_NUMBER`, `SEGMENT_OFFSET`).
pub fn split_segmented(addr: u32) -> (u8, u32) {
    (((addr << 4) >> 28) as u8, addr & 0x00FF_FFFF)
}

/// MM `KeyFrameSkeleton` / `KeyFrameFlexSkeleton` (z64keyframe.h): u8 limbCount, u8 dListCount,
/// 2 pad, limb array pointer.
pub const KF_SKELETON_SIZE: usize = 0x08;
/// `KeyFrameStandardLimb`: Gfx* dList, u8 numChildren, u8 drawFlags, Vec3s jointPos.
pub const KF_STANDARD_LIMB_SIZE: usize = 0x0C;
/// `KeyFrameFlexLimb`: Gfx* dList, u8 numChildren, u8 drawFlags, u8 callbackIndex, pad.
pub const KF_FLEX_LIMB_SIZE: usize = 0x08;
/// `KeyFrame`: s16 frame, s16 value, s16 velocity.
pub const KEYFRAME_SIZE: usize = 0x06;
/// `KeyFrameAnimation`: bitFlags*, KeyFrame* keyFrames, s16* kfNums, s16* fixedValues,
/// s16 unk_10, s16 frameCount.
pub const KF_ANIMATION_SIZE: usize = 0x14;

/// OoT/MM curve skeletons (curve.h, z_fcurve_data_skelanime.c): `CurveSkeletonHeader`
/// {SkelCurveLimb** limbs; u8 limbCount; pad} (as `SkeletonHeader`).
pub const CURVE_SKELETON_HEADER_SIZE: usize = 0x08;
/// `SkelCurveLimb`: u8 child, u8 sibling, 2 pad, `Gfx* dList[2]`.
pub const CURVE_LIMB_SIZE: usize = 0x0C;
/// `CurveInterpKnot`: u16 flags, s16 abscissa, s16 leftGradient, s16 rightGradient, f32 ordinate.
pub const CURVE_KNOT_SIZE: usize = 0x0C;
/// `CurveAnimationHeader`: u8* knotCounts, CurveInterpKnot* interpolationData, s16* constantData,
/// s16 unk_0C (1 in every object), s16 frameCount.
pub const CURVE_ANIMATION_HEADER_SIZE: usize = 0x10;

// ---------------------------------------------------------------------------------------------
// The records themselves: each field at the offset the decompilation's struct gives it, read
// through core's `Reader` (big-endian), so a record cut short is an error naming the offset of
// the bytes that are missing, never a zero.

/// An on-disk record of a fixed size, read field by field at its named offsets.
pub trait Record: Sized {
    /// Bytes the record takes.
    const SIZE: usize;
    /// Read the record at the reader's position and step past it. Fewer than [`Self::SIZE`]
    /// bytes left is an error at the offset where the record starts.
    fn read(r: &mut Reader<'_>) -> Result<Self>;

    /// The record from its first [`Self::SIZE`] bytes (`b` holds at least that many), each
    /// field in byte order `e`: what [`Self::read`] reads once the bytes are known to be there.
    fn decode(b: &[u8], e: Endian) -> Self;

    /// The record at byte `off` of `data` (big-endian; an error names the offset in `data`).
    /// The structural scans call this at every word of a file, so the record's bytes are taken
    /// as one checked slice; only when they are not all there does a reader produce the error.
    #[inline]
    fn parse_at(data: &[u8], off: usize) -> Result<Self> {
        match off.checked_add(Self::SIZE).and_then(|end| data.get(off..end)) {
            Some(b) => Ok(Self::decode(b, Endian::Big)),
            None => parse_at_short(data, off),
        }
    }
}

/// [`Record::parse_at`] where the record's bytes are not all there: the reader's error (the
/// offset past the end, or the record cut short).
#[cold]
fn parse_at_short<R: Record>(data: &[u8], off: usize) -> Result<R> {
    let mut r = Reader::new(data, Endian::Big);
    r.seek(off)?;
    R::read(&mut r)
}

/// A field value of a record: the integers and floats `Reader` reads, and fixed arrays of them
/// (`Vec3s` is `[i16; 3]`).
pub trait Field: Sized + Copy {
    /// Bytes the field takes.
    const SIZE: usize;
    /// Read the field at the reader's position.
    fn read_field(r: &mut Reader<'_>) -> Result<Self>;
    /// The field from the first [`Self::SIZE`] bytes of `b` in byte order `e`. `b` must hold
    /// them: the records' fields are checked to lie inside the record when it is compiled.
    fn decode(b: &[u8], e: Endian) -> Self;
}

macro_rules! field {
    ($($t:ident $n:literal),*) => {$(
        impl Field for $t {
            const SIZE: usize = $n;
            #[inline]
            fn read_field(r: &mut Reader<'_>) -> Result<Self> {
                r.$t()
            }
            #[inline]
            fn decode(b: &[u8], e: Endian) -> Self {
                let mut a = [0u8; $n];
                a.copy_from_slice(&b[..$n]);
                match e {
                    Endian::Big => <$t>::from_be_bytes(a),
                    Endian::Little => <$t>::from_le_bytes(a),
                }
            }
        }
    )*};
}
field!(u8 1, i8 1, u16 2, i16 2, u32 4, i32 4, f32 4);

impl<T: Field + Default, const N: usize> Field for [T; N] {
    const SIZE: usize = T::SIZE * N;
    #[inline]
    fn read_field(r: &mut Reader<'_>) -> Result<Self> {
        let mut out = [T::default(); N];
        for v in &mut out {
            *v = T::read_field(r)?;
        }
        Ok(out)
    }
    #[inline]
    fn decode(b: &[u8], e: Endian) -> Self {
        let mut out = [T::default(); N];
        for (i, v) in out.iter_mut().enumerate() {
            *v = T::decode(&b[i * T::SIZE..], e);
        }
        out
    }
}

/// Whether a field of `size` bytes at offset `off` lies inside a record of `record` bytes
/// (asserted for every field when the records are compiled).
const fn field_fits(off: usize, size: usize, record: usize) -> bool {
    off <= record && size <= record - off
}

/// A record: the struct with its fields, an associated constant naming each field's offset,
/// and its [`Record`] reading (every field at its offset; padding is never read).
macro_rules! record {
    (
        $(#[$meta:meta])*
        pub struct $name:ident [$size:expr] {
            $( $(#[$fmeta:meta])* $off:literal $konst:ident $field:ident : $ty:ty ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $( $(#[$fmeta])* pub $field: $ty, )*
        }
        impl $name {
            $(
                #[doc = concat!("Offset of `", stringify!($field), "` in the record.")]
                pub const $konst: usize = $off;
            )*
        }
        // Every field lies inside the record (what lets `decode` index without a check).
        const _: () = { $( assert!(field_fits($off, <$ty as Field>::SIZE, $size)); )* };
        impl Record for $name {
            const SIZE: usize = $size;
            #[inline]
            fn read(r: &mut Reader<'_>) -> Result<Self> {
                let e = r.endian();
                // A record cut short is an error at its first byte (what is missing, what is left).
                let b = r.bytes($size)?;
                Ok(Self::decode(b, e))
            }
            #[inline]
            fn decode(b: &[u8], e: Endian) -> Self {
                let b = &b[..$size];
                $name {
                    $( $field: <$ty as Field>::decode(&b[$off..], e), )*
                }
            }
        }
    };
}

record! {
    /// `SkeletonHeader` (animation.h).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct SkeletonHeader[SKELETON_HEADER_SIZE] {
        /// `void** segment`: segmented pointer to the limb pointer array.
        0x00 SEGMENT segment: u32,
        /// `u8 limbCount`.
        0x04 LIMB_COUNT limb_count: u8,
        /// The three bytes of padding after it (zero in every object; the scan tests them).
        0x05 PAD pad: [u8; 3],
    }
}

record! {
    /// `FlexSkeletonHeader` (animation.h): a `SkeletonHeader`, then the display list count.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct FlexSkeletonHeader[FLEX_SKELETON_HEADER_SIZE] {
        /// `sh.segment`: the limb pointer array.
        0x00 SEGMENT segment: u32,
        /// `sh.limbCount`.
        0x04 LIMB_COUNT limb_count: u8,
        /// `u8 dListCount`: limbs with a display list.
        0x08 DLIST_COUNT dlist_count: u8,
        /// The three bytes of padding after it (zero in every object).
        0x09 PAD pad: [u8; 3],
    }
}

record! {
    /// `StandardLimb` (animation.h).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct StandardLimb[STANDARD_LIMB_SIZE] {
        /// `Vec3s jointPos`.
        0x00 JOINT_POS joint_pos: [i16; 3],
        /// `u8 child` ([`LIMB_DONE`]: none).
        0x06 CHILD child: u8,
        /// `u8 sibling` ([`LIMB_DONE`]: none).
        0x07 SIBLING sibling: u8,
        /// `Gfx* dList`.
        0x08 DLIST dlist: u32,
    }
}

record! {
    /// `LodLimb` (animation.h): as `StandardLimb` with a near and a far display list.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct LodLimb[LOD_LIMB_SIZE] {
        /// `Vec3s jointPos`.
        0x00 JOINT_POS joint_pos: [i16; 3],
        /// `u8 child`.
        0x06 CHILD child: u8,
        /// `u8 sibling`.
        0x07 SIBLING sibling: u8,
        /// `Gfx* dLists[2]` (near, far).
        0x08 DLISTS dlists: [u32; 2],
    }
}

record! {
    /// `SkinLimb` (skin.h).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct SkinLimb[SKIN_LIMB_SIZE] {
        /// `Vec3s jointPos`.
        0x00 JOINT_POS joint_pos: [i16; 3],
        /// `u8 child`.
        0x06 CHILD child: u8,
        /// `u8 sibling`.
        0x07 SIBLING sibling: u8,
        /// `s32 segmentType` ([`SKIN_LIMB_TYPE_ANIMATED`], [`SKIN_LIMB_TYPE_NORMAL`]).
        0x08 SEGMENT_TYPE segment_type: i32,
        /// `void* segment`: `SkinAnimatedLimbData*` or `Gfx*`, by the type.
        0x0C SEGMENT segment: u32,
    }
}

record! {
    /// `LegacyLimb` (animation_legacy.h, object_human's beta format).
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct LegacyLimb[LEGACY_LIMB_SIZE] {
        /// `Gfx* dList`.
        0x00 DLIST dlist: u32,
        /// `Vec3f trans`.
        0x04 TRANS trans: [f32; 3],
        /// `Vec3s rot`.
        0x10 ROT rot: [i16; 3],
        /// `LegacyLimb* sibling`.
        0x18 SIBLING sibling: u32,
        /// `LegacyLimb* child`.
        0x1C CHILD child: u32,
    }
}

record! {
    /// `SkinAnimatedLimbData` (skin.h, segmentType 4).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct SkinAnimatedLimbData[SKIN_ANIMATED_LIMB_DATA_SIZE] {
        /// `u16 totalVtxCount`: the limb's Vtx buffer.
        0x00 TOTAL_VTX_COUNT total_vtx_count: u16,
        /// `u16 limbModifCount`.
        0x02 LIMB_MODIF_COUNT limb_modif_count: u16,
        /// `SkinLimbModif* limbModifications`.
        0x04 LIMB_MODIFICATIONS limb_modifications: u32,
        /// `Gfx* dlist`.
        0x08 DLIST dlist: u32,
    }
}

record! {
    /// `SkinLimbModif` (skin.h).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct SkinLimbModif[SKIN_LIMB_MODIF_SIZE] {
        /// `u16 vtxCount`.
        0x00 VTX_COUNT vtx_count: u16,
        /// `u16 transformCount`.
        0x02 TRANSFORM_COUNT transform_count: u16,
        /// `u16 unk_4`: the static transformation's index (its limb also turns the normals).
        0x04 UNK_4 unk_4: u16,
        /// `SkinVertex* skinVertices`.
        0x08 SKIN_VERTICES skin_vertices: u32,
        /// `SkinTransformation* limbTransformations`.
        0x0C LIMB_TRANSFORMATIONS limb_transformations: u32,
    }
}

record! {
    /// `SkinVertex` (skin.h).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct SkinVertex[SKIN_VERTEX_SIZE] {
        /// `u16 index` into the limb's Vtx buffer.
        0x00 INDEX index: u16,
        /// `s16 s, t`: texture coordinates.
        0x02 ST st: [i16; 2],
        /// `s8 normX, normY, normZ`.
        0x06 NORMAL normal: [i8; 3],
        /// `u8 alpha`.
        0x09 ALPHA alpha: u8,
    }
}

record! {
    /// `SkinTransformation` (skin.h).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct SkinTransformation[SKIN_TRANSFORMATION_SIZE] {
        /// `u8 limbIndex`.
        0x00 LIMB_INDEX limb_index: u8,
        /// `s16 x, y, z`: the position in that limb's space.
        0x02 POS pos: [i16; 3],
        /// `u8 scale`: the weight, in percent.
        0x08 SCALE scale: u8,
    }
}

record! {
    /// `AnimationHeader` (animation.h).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct AnimationHeader[ANIMATION_HEADER_SIZE] {
        /// `s16 common.frameCount`, read as u16 as `Animation_GetLastFrame` does.
        0x00 FRAME_COUNT frame_count: u16,
        /// The padding after it (zero in real headers; the scan tests it).
        0x02 PAD0 pad0: u16,
        /// `s16* frameData`.
        0x04 FRAME_DATA frame_data: u32,
        /// `JointIndex* jointIndices`.
        0x08 JOINT_INDICES joint_indices: u32,
        /// `u16 staticIndexMax`.
        0x0C STATIC_INDEX_MAX static_index_max: u16,
        /// The padding at the end (zero in real headers).
        0x0E PAD1 pad1: u16,
    }
}

record! {
    /// `JointIndex` (animation.h): the value indices of a joint's x, y, z.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct JointIndex[JOINT_INDEX_SIZE] {
        /// `u16 x, y, z`.
        0x00 XYZ xyz: [u16; 3],
    }
}

record! {
    /// `LinkAnimationHeader` (animation.h).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct LinkAnimationHeader[LINK_ANIMATION_HEADER_SIZE] {
        /// `s16 common.frameCount`, read as u16.
        0x00 FRAME_COUNT frame_count: u16,
        /// The padding after it (zero in real headers).
        0x02 PAD pad: u16,
        /// `void* segment`: the frames in link_animetion (segment 7).
        0x04 SEGMENT segment: u32,
    }
}

record! {
    /// One frame of a Link animation in link_animetion: the root translation and 21 limb
    /// rotations (Vec3s), then the face word (eyes and mouth indices).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct LinkAnimationFrame[LINK_FRAME_SIZE] {
        /// The joint table.
        0x00 JOINTS joints: [[i16; 3]; LINK_JOINTS],
        /// The face word.
        0x84 FACE face: u16,
    }
}

record! {
    /// `LegacyAnimationHeader` (animation_legacy.h).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct LegacyAnimationHeader[LEGACY_ANIMATION_HEADER_SIZE] {
        /// `s16 frameCount`, read as u16 (the reader rejects values past 0x7FFF).
        0x00 FRAME_COUNT frame_count: u16,
        /// `s16 limbCount`, read as u16.
        0x02 LIMB_COUNT limb_count: u16,
        /// `s16* frameData`.
        0x04 FRAME_DATA frame_data: u32,
        /// `LegacyJointKey* jointKey`.
        0x08 JOINT_KEY joint_key: u32,
    }
}

record! {
    /// `LegacyJointKey` (animation_legacy.h): per axis (max, index).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct LegacyJointKey[LEGACY_JOINT_KEY_SIZE] {
        /// `s16 xMax, x, yMax, y, zMax, z`: per axis (frames that advance, first value index).
        0x00 AXES axes: [[i16; 2]; 3],
    }
}

record! {
    /// MM `KeyFrameSkeleton` / `KeyFrameFlexSkeleton` (z64keyframe.h).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct KeyFrameSkeleton[KF_SKELETON_SIZE] {
        /// `u8 limbCount`.
        0x00 LIMB_COUNT limb_count: u8,
        /// `u8 dListCount`.
        0x01 DLIST_COUNT dlist_count: u8,
        /// The padding after it (zero in real headers; the scan tests it).
        0x02 PAD pad: u16,
        /// The limb array.
        0x04 LIMBS limbs: u32,
    }
}

record! {
    /// MM `KeyFrameStandardLimb` (z64keyframe.h).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct KeyFrameStandardLimb[KF_STANDARD_LIMB_SIZE] {
        /// `Gfx* dList`.
        0x00 DLIST dlist: u32,
        /// `u8 numChildren`: the subtrees that follow it in the array.
        0x04 NUM_CHILDREN num_children: u8,
        /// `u8 drawFlags` (0 opaque, 1 translucent).
        0x05 DRAW_FLAGS draw_flags: u8,
        /// `Vec3s jointPos`.
        0x06 JOINT_POS joint_pos: [i16; 3],
    }
}

record! {
    /// MM `KeyFrameFlexLimb` (z64keyframe.h).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct KeyFrameFlexLimb[KF_FLEX_LIMB_SIZE] {
        /// `Gfx* dList`.
        0x00 DLIST dlist: u32,
        /// `u8 numChildren`.
        0x04 NUM_CHILDREN num_children: u8,
        /// `u8 drawFlags` (0 opaque, 1 translucent).
        0x05 DRAW_FLAGS draw_flags: u8,
        /// `u8 callbackIndex`.
        0x06 CALLBACK_INDEX callback_index: u8,
    }
}

record! {
    /// MM `KeyFrame` (z64keyframe.h).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct KeyFrame[KEYFRAME_SIZE] {
        /// The key's frame.
        0x00 FRAME frame: i16,
        /// The value at the key.
        0x02 VALUE value: i16,
        /// The slope at the key (per second; the sampler divides by 30).
        0x04 VELOCITY velocity: i16,
    }
}

record! {
    /// MM `KeyFrameAnimation` (z64keyframe.h).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct KeyFrameAnimation[KF_ANIMATION_SIZE] {
        /// `u8*`/`u16* bitFlags`: per limb, which channels are animated.
        0x00 BIT_FLAGS bit_flags: u32,
        /// `KeyFrame* keyFrames`.
        0x04 KEY_FRAMES key_frames: u32,
        /// `s16* kfNums`: keys per animated channel.
        0x08 KF_NUMS kf_nums: u32,
        /// `s16* fixedValues`: the values of the channels without keys.
        0x0C FIXED_VALUES fixed_values: u32,
        /// `s16 unk_10`.
        0x10 UNK_10 unk_10: u16,
        /// `s16 frameCount`.
        0x12 FRAME_COUNT frame_count: i16,
    }
}

record! {
    /// `CurveSkeletonHeader` (curve.h).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct CurveSkeletonHeader[CURVE_SKELETON_HEADER_SIZE] {
        /// `SkelCurveLimb** limbs`.
        0x00 LIMBS limbs: u32,
        /// `u8 limbCount`.
        0x04 LIMB_COUNT limb_count: u8,
    }
}

record! {
    /// `SkelCurveLimb` (curve.h).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct SkelCurveLimb[CURVE_LIMB_SIZE] {
        /// `u8 child`.
        0x00 CHILD child: u8,
        /// `u8 sibling`.
        0x01 SIBLING sibling: u8,
        /// `Gfx* dList[2]`.
        0x04 DLISTS dlists: [u32; 2],
    }
}

record! {
    /// `CurveInterpKnot` (curve.h).
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct CurveInterpKnot[CURVE_KNOT_SIZE] {
        /// Knot flags (unused by the sampler).
        0x00 FLAGS flags: u16,
        /// The knot's frame.
        0x02 ABSCISSA abscissa: i16,
        /// Slope arriving at the knot.
        0x04 LEFT_GRADIENT left_gradient: i16,
        /// Slope leaving the knot.
        0x06 RIGHT_GRADIENT right_gradient: i16,
        /// The value at the knot.
        0x08 ORDINATE ordinate: f32,
    }
}

record! {
    /// `CurveAnimationHeader` (curve.h).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct CurveAnimationHeader[CURVE_ANIMATION_HEADER_SIZE] {
        /// `u8* knotCounts`: per property.
        0x00 KNOT_COUNTS knot_counts: u32,
        /// `CurveInterpKnot* interpolationData`.
        0x04 INTERPOLATION_DATA interpolation_data: u32,
        /// `s16* constantData`.
        0x08 CONSTANT_DATA constant_data: u32,
        /// `s16 unk_0C` (1 in every object).
        0x0C UNK_0C unk_0c: i16,
        /// `s16 frameCount`.
        0x0E FRAME_COUNT frame_count: i16,
    }
}

record! {
    /// `DmaEntry` (dma.h).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct DmaEntry[DMA_ENTRY_SIZE] {
        /// `u32 vromStart`.
        0x00 VROM_START vrom_start: u32,
        /// `u32 vromEnd` (0 ends the table).
        0x04 VROM_END vrom_end: u32,
        /// `u32 romStart`.
        0x08 ROM_START rom_start: u32,
        /// `u32 romEnd` (0: stored uncompressed; 0xFFFFFFFF: deleted).
        0x0C ROM_END rom_end: u32,
    }
}

record! {
    /// One F3DEX2 display-list command (`Gfx`): two words, the opcode in w0's top byte.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct Gfx[GFX_SIZE] {
        /// The first word (opcode and its operands).
        0x00 W0 w0: u32,
        /// The second word.
        0x04 W1 w1: u32,
    }
}

/// `Gfx`: one 8-byte display-list command.
pub const GFX_SIZE: usize = 8;

/// A big-endian table of `count` records of type `R` at the reader's position, each read in
/// turn (an error names the offset of the first record cut short).
pub fn read_table<R: Record>(r: &mut Reader<'_>, count: usize) -> Result<Vec<R>> {
    let mut out = Vec::with_capacity(count.min(r.remaining() / R::SIZE.max(1)));
    for _ in 0..count {
        out.push(R::read(r)?);
    }
    Ok(out)
}

record! {
    /// F3DEX2 `Vtx_t` (gbi.h): one vertex of a display list's vertex buffer.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct VtxT[VTX_SIZE] {
        /// `short ob[3]`: the position, in model units.
        0x00 OB ob: [i16; 3],
        /// `unsigned short flag`.
        0x06 FLAG flag: u16,
        /// `short tc[2]`: texture coordinates (s, t), 10.5 fixed point.
        0x08 TC tc: [i16; 2],
        /// `unsigned char cn[4]`: the colour and alpha, or with lighting the normal and alpha.
        0x0C CN cn: [u8; 4],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boneyard_core::ErrorKind;

    /// Fields at the offsets animation.h gives them, big-endian: an `AnimationHeader` of 12
    /// frames, frame data at 0x06000100, joint indices at 0x06000200, staticIndexMax 7.
    #[test]
    fn fields_are_read_at_their_offsets() {
        let mut b = vec![0xEEu8; 4];
        b.extend([0x00, 0x0C, 0x00, 0x00, 0x06, 0x00, 0x01, 0x00, 0x06, 0x00, 0x02, 0x00, 0x00, 0x07, 0x00, 0x00]);
        let h = AnimationHeader::parse_at(&b, 4).unwrap();
        assert_eq!(
            h,
            AnimationHeader {
                frame_count: 12,
                pad0: 0,
                frame_data: 0x0600_0100,
                joint_indices: 0x0600_0200,
                static_index_max: 7,
                pad1: 0
            }
        );
        assert_eq!((AnimationHeader::FRAME_DATA, AnimationHeader::STATIC_INDEX_MAX), (4, 0x0C));
        // Arrays of arrays: a Link frame's 22 Vec3s, then the face word at 0x84.
        let mut f = vec![0u8; LINK_FRAME_SIZE];
        f[6..8].copy_from_slice(&(-2i16).to_be_bytes());
        f[0x84..0x86].copy_from_slice(&0x1234u16.to_be_bytes());
        let lf = LinkAnimationFrame::parse_at(&f, 0).unwrap();
        assert_eq!((lf.joints[1], lf.face), ([-2, 0, 0], 0x1234));
    }

    /// A record cut short is an error at the offset where it starts, saying how many bytes it
    /// needs and how many are there (before, a read past the end gave 0).
    #[test]
    fn a_truncated_record_is_an_error_naming_its_offset() {
        let b = [0u8; 0x20];
        let e = AnimationHeader::parse_at(&b, 0x18).unwrap_err();
        assert_eq!(e.offset, Some(0x18));
        assert_eq!(e.kind, ErrorKind::Truncated { need: 0x10, have: 8 });
        let mut r = Reader::new(&b, Endian::Big);
        r.seek(0x0C).unwrap();
        // Three 6-byte KeyFrames fit at 0x0C..0x1E; the fourth, at 0x1E, does not.
        let e = read_table::<KeyFrame>(&mut r, 4).unwrap_err();
        assert_eq!(e.offset, Some(0x1E));
    }
}
