//! On-disk layouts (big-endian) of the structures the reader uses, from the decompilations'
//! headers (zeldaret/oot include/animation.h, animation_legacy.h, skin.h; dma.h).
//! Offsets are relative to the start of each structure.

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
