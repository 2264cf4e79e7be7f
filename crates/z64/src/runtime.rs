//! What the game sets before it draws a skeleton, which the object's own display lists leave
//! to the actor: Link's tunic colour (the environment colour) and face textures (segments 8
//! and 9), from the decomp's `z_player_lib.c` (`sTunicColors`, `sEyeTextures`,
//! `sMouthTextures`, `sEyeMouthIndexes`, `Player_DrawImpl`).
//!
//! `Player_DrawImpl` reads the face from joint 22's x (Link's animations' last word of each
//! frame): eye index `(x & 0xF) - 1`, mouth index `(x >> 4) - 1`, each replaced by the
//! player's default face (`sEyeMouthIndexes[face]`, face 0: eyes 0, mouth 0) when negative;
//! binds segment 8 to the eye texture and segment 9 to the mouth texture; and sets the
//! environment colour to the tunic's, alpha 0. `Player_DrawGameplay` binds `gCullBackDList`
//! to segment 0xC, which Link's limbs call.
//!
//! Other actors' draw functions set an environment colour before the skeleton is drawn, bind
//! their object's eye and mouth textures to segments 8-0xA, and bind display lists to
//! segments 8-0xC that the limbs call: a colour per part (the Hylians' clothes, the Kokiri
//! girls' tunics and boots), a render mode or an empty list (actors that fade), a texture
//! scroll, a combiner ([`actor_default`], from the decomp's `ovl_*` draw functions, for the
//! actor's first variant as first drawn, each said in a warning). A list is run as the RSP
//! runs it: its commands where the segment points ([`DrawState::list_command`]). Colours no
//! actor is known to set stay white, with a warning (dlist.rs).

use crate::layout::Gfx;
use boneyard_core::{Error, Result};

/// Link's tunics, in the game's order (`PLAYER_TUNIC_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tunic {
    /// Green, what Link starts with.
    #[default]
    Kokiri,
    /// Red (heat).
    Goron,
    /// Blue (water).
    Zora,
}

impl Tunic {
    /// Every tunic, in the game's order.
    pub const ALL: [Tunic; 3] = [Tunic::Kokiri, Tunic::Goron, Tunic::Zora];

    /// The name `--tunic` takes.
    pub fn name(self) -> &'static str {
        match self {
            Tunic::Kokiri => "kokiri",
            Tunic::Goron => "goron",
            Tunic::Zora => "zora",
        }
    }

    /// `sTunicColors[tunic]` (RGB8).
    pub fn rgb(self) -> [u8; 3] {
        match self {
            Tunic::Kokiri => [30, 105, 27],
            Tunic::Goron => [100, 20, 0],
            Tunic::Zora => [0, 60, 100],
        }
    }

    /// The environment colour `Player_DrawImpl` sets (alpha 0), 0..1.
    pub fn env(self) -> [f32; 4] {
        let [r, g, b] = self.rgb();
        [r as f32 / 255.0, g as f32 / 255.0, b as f32 / 255.0, 0.0]
    }

    /// The tunic of a `--tunic` name (any case).
    pub fn parse(s: &str) -> Option<Tunic> {
        Tunic::ALL.into_iter().find(|t| t.name().eq_ignore_ascii_case(s))
    }
}

/// Link's shields, in the game's order (`PLAYER_SHIELD_*`), as he carries them on his back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shield {
    /// No shield.
    None,
    /// The Deku Shield (child Link's; adult Link's sheath shows none).
    Deku,
    /// The Hylian Shield.
    Hylian,
    /// The Mirror Shield (adult Link's; child Link's sheath shows none).
    Mirror,
}

impl Shield {
    /// Every shield, in the game's order.
    pub const ALL: [Shield; 4] = [Shield::None, Shield::Deku, Shield::Hylian, Shield::Mirror];

    /// The name `--shield` takes.
    pub fn name(self) -> &'static str {
        match self {
            Shield::None => "none",
            Shield::Deku => "deku",
            Shield::Hylian => "hylian",
            Shield::Mirror => "mirror",
        }
    }

    /// The shield of a `--shield` name (any case).
    pub fn parse(s: &str) -> Option<Shield> {
        Shield::ALL.into_iter().find(|t| t.name().eq_ignore_ascii_case(s))
    }

    /// The shield Link first carries at his age: the Deku Shield as a child, the Hylian Shield
    /// as an adult (what he is drawn with unless `--shield` says otherwise).
    pub fn first(child: bool) -> Shield {
        if child {
            Shield::Deku
        } else {
            Shield::Hylian
        }
    }

    /// `sSheathWithSwordDLs[shield * 4 + age]` (the near lists): what
    /// `Player_OverrideLimbDrawGameplayDefault` draws for the sheath limb of Link carrying his
    /// sword sheathed and this shield, as (offset in his object, the decomp's name). Adult Link
    /// has no Deku Shield and child Link no Mirror Shield: the sheath alone.
    pub fn sheath_list(self, child: bool) -> (u32, &'static str) {
        match (self, child) {
            (Shield::Hylian, false) => (0x20A78, "gLinkAdultHylianShieldSwordAndSheathNearDL"),
            (Shield::Mirror, false) => (0x211B8, "gLinkAdultMirrorShieldSwordAndSheathNearDL"),
            (_, false) => (0x23160, "gLinkAdultMasterSwordAndSheathNearDL"),
            (Shield::Deku, true) => (0x14D68, "gLinkChildDekuShieldSwordAndSheathNearDL"),
            (Shield::Hylian, true) => (0x148A8, "gLinkChildHylianShieldSwordAndSheathNearDL"),
            (_, true) => (0x15248, "gLinkChildSwordAndSheathNearDL"),
        }
    }
}

/// `PLAYER_LIMB_SHEATH` (20, counted from 1): the limb the sheath, sword and shield hang on.
pub const LINK_SHEATH_LIMB: u8 = 19;

/// Run-time state asked for by the caller (`OpenOptions::runtime`: key/value pairs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RuntimeState {
    /// The tunic Link is drawn in.
    pub tunic: Tunic,
    /// The shield on his back; None: the one he first carries at his age ([`Shield::first`]).
    pub shield: Option<Shield>,
}

impl RuntimeState {
    /// From the caller's key/value pairs: `tunic` = kokiri|goron|zora. Keys other families
    /// interpret are not ours and are left alone; a bad value of ours is an error.
    pub fn from_pairs(pairs: &[(String, String)]) -> Result<RuntimeState> {
        let mut s = RuntimeState::default();
        for (k, v) in pairs {
            if k == "tunic" {
                s.tunic = Tunic::parse(v).ok_or_else(|| {
                    let close = boneyard_core::document::did_you_mean(v, Tunic::ALL.map(Tunic::name).into_iter());
                    Error::not_found(format!("--tunic {v:?}: Link's tunics are kokiri, goron and zora{close}"))
                })?;
            }
            if k == "shield" {
                s.shield = Some(Shield::parse(v).ok_or_else(|| {
                    let close = boneyard_core::document::did_you_mean(v, Shield::ALL.map(Shield::name).into_iter());
                    Error::not_found(format!("--shield {v:?}: Link's shields are none, deku, hylian and mirror{close}"))
                })?);
            }
        }
        Ok(s)
    }
}

/// Offsets in Link's object (adult and child alike: the decomp notes both keep them at the
/// same place) of the eye textures `sEyeTextures` lists, in its order: 64x32 CI8 each.
pub const EYE_TEXTURES: [u32; 8] = [0x0000, 0x0800, 0x1000, 0x1800, 0x2000, 0x2800, 0x3000, 0x3800];
/// The mouth textures `sMouthTextures` lists: 32x32 CI8 each.
pub const MOUTH_TEXTURES: [u32; 4] = [0x4000, 0x4400, 0x4800, 0x4C00];
/// `sEyeMouthIndexes[0]`: the face the player draws when the animation's face word says none.
pub const DEFAULT_FACE: (usize, usize) = (0, 0);

/// The (eye, mouth) texture indices `Player_DrawImpl` uses for face word `word` (None: the
/// animation has none, the default face).
pub fn face_indices(word: Option<u16>) -> (usize, usize) {
    let Some(w) = word else { return DEFAULT_FACE };
    let eye = (w & 0xF) as i32 - 1;
    let mouth = (w >> 4) as i32 - 1;
    let eye = if eye < 0 { DEFAULT_FACE.0 } else { eye as usize };
    let mouth = if mouth < 0 { DEFAULT_FACE.1 } else { mouth as usize };
    // `sEyeTextures` has 8 entries, `sMouthTextures` 4; the game would read past them for a
    // larger index (garbage): we keep the default rather than guess.
    (
        if eye < EYE_TEXTURES.len() { eye } else { DEFAULT_FACE.0 },
        if mouth < MOUTH_TEXTURES.len() { mouth } else { DEFAULT_FACE.1 },
    )
}

/// What a skeleton's draw starts with: the environment colour, and textures bound to
/// segments the actor binds (address in the skeleton's own segment).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct DrawState {
    /// The environment colour set before the draw (RGBA, 0..1), if the actor sets one.
    pub env: Option<[f32; 4]>,
    /// The primitive colour set before the draw, if the actor sets one.
    pub prim: Option<[f32; 4]>,
    /// Texture addresses for segments 8 and 9 (eyes, mouth).
    pub segments: [Option<u32>; 16],
    /// Display lists the actor builds or points at and binds to a segment (colours it sets
    /// per limb, a render mode, an empty list): the limbs' calls into the segment run them.
    pub lists: [Option<&'static [Gfx]>; 16],
    /// Display lists of the object the actor draws after a limb from its PostLimbDraw, with
    /// that limb's matrix: (limb, by its place in the limb table from 0; offset in the object;
    /// the decomp's name).
    pub post_limb: &'static [(u8, u32, &'static str)],
    /// A display list of the object the actor draws in place of a limb's own, from its
    /// OverrideLimbDraw (Link's sheath with his shield): (limb, offset, the decomp's name).
    pub in_place_of: Option<(u8, u32, &'static str)>,
    /// Who set it, for notes ("Link's Kokiri tunic").
    pub origin: Option<&'static str>,
}

impl DrawState {
    /// Link's draw with `state` and the face of `(eye, mouth)`, for his object bound to `seg`
    /// (`child`: `object_link_child`'s skeleton).
    pub fn link(state: RuntimeState, seg: u8, (eye, mouth): (usize, usize), child: bool) -> DrawState {
        let mut segments = [None; 16];
        let base = (seg as u32) << 24;
        segments[8] = EYE_TEXTURES.get(eye).map(|o| base | o);
        segments[9] = MOUTH_TEXTURES.get(mouth).map(|o| base | o);
        let origin = match state.tunic {
            Tunic::Kokiri => "Link's draw (Kokiri tunic)",
            Tunic::Goron => "Link's draw (Goron tunic)",
            Tunic::Zora => "Link's draw (Zora tunic)",
        };
        // Player_DrawGameplay binds gCullBackDList to segment 0xC, where Link's limbs call it.
        let mut lists = [None; 16];
        lists[0xC] = Some(gbi::CULL_BACK);
        let (sheath, name) = state.shield.unwrap_or(Shield::first(child)).sheath_list(child);
        DrawState {
            env: Some(state.tunic.env()),
            segments,
            lists,
            in_place_of: Some((LINK_SHEATH_LIMB, sheath, name)),
            origin: Some(origin),
            ..DrawState::default()
        }
    }

    /// The command at `addr` in a list the actor bound to `addr`'s segment, if there is one
    /// there (the list is read as the RSP reads it: eight bytes a command from the segment's
    /// base).
    pub fn list_command(&self, addr: u32) -> Option<Gfx> {
        if addr >> 28 != 0 || !addr.is_multiple_of(8) {
            return None;
        }
        let list = self.lists[(addr >> 24) as usize]?;
        list.get((addr & 0x00FF_FFFF) as usize / 8).copied()
    }
}

/// The display lists the game's code builds or holds and actors bind to a segment, as the
/// GBI macros encode them (F3DEX2).
pub mod gbi {
    use crate::layout::Gfx;

    /// `gsSPEndDisplayList()`.
    pub const END_DL: Gfx = Gfx { w0: 0xDF00_0000, w1: 0 };
    /// `gsDPPipeSync()`.
    pub const PIPE_SYNC: Gfx = Gfx { w0: 0xE700_0000, w1: 0 };
    /// `gsDPTileSync()`.
    pub const TILE_SYNC: Gfx = Gfx { w0: 0xE800_0000, w1: 0 };
    /// F3DEX2's `G_CULL_BACK` geometry mode bit.
    pub const G_CULL_BACK: u32 = 0x0400;

    /// `gsDPSetEnvColor(r, g, b, a)`.
    pub const fn set_env_color([r, g, b, a]: [u8; 4]) -> Gfx {
        Gfx { w0: 0xFB00_0000, w1: u32::from_be_bytes([r, g, b, a]) }
    }

    /// `gsDPSetPrimColor(0, lod_frac, r, g, b, a)`.
    pub const fn set_prim_color(lod_frac: u8, [r, g, b, a]: [u8; 4]) -> Gfx {
        Gfx { w0: 0xFA00_0000 | lod_frac as u32, w1: u32::from_be_bytes([r, g, b, a]) }
    }

    /// `gsSPSetGeometryMode(mode)`: `gsSPGeometryMode(0, mode)`.
    pub const fn set_geometry_mode(mode: u32) -> Gfx {
        Gfx { w0: 0xD9FF_FFFF, w1: mode }
    }

    /// `gsDPSetRenderMode(c0, c1)` with `modes` = `c0 | c1`: G_SETOTHERMODE_L, shift
    /// `G_MDSFT_RENDERMODE` (3), 29 bits.
    pub const fn set_render_mode(modes: u32) -> Gfx {
        Gfx { w0: 0xE200_001C, w1: modes }
    }

    /// `gsDPSetTileSize(tile, uls, ult, lrs, lrt)` (10.2 fixed point).
    pub const fn set_tile_size(tile: u8, uls: u32, ult: u32, lrs: u32, lrt: u32) -> Gfx {
        Gfx {
            w0: 0xF200_0000 | (uls & 0xFFF) << 12 | (ult & 0xFFF),
            w1: (tile as u32) << 24 | (lrs & 0xFFF) << 12 | (lrt & 0xFFF),
        }
    }

    /// `&D_80116280[2]` (z_actor.c), `func_80034B28` and the like: a list that only ends,
    /// what actors that can fade bind while they are opaque (fading, they bind a translucent
    /// render mode there instead).
    pub const EMPTY: &[Gfx] = &[END_DL];
    /// `gCullBackDList` (z_player_lib.c): `gsSPSetGeometryMode(G_CULL_BACK)`, the end.
    pub const CULL_BACK: &[Gfx] = &[set_geometry_mode(G_CULL_BACK), END_DL];
}

/// What an actor's draw function sets before the skeleton is drawn: an environment colour,
/// textures of its object bound to segments (eyes, mouths).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ActorDefault {
    /// The object file the actor draws from (its stem).
    pub object: &'static str,
    /// The skeleton of the object it draws (its decomp name), when the object holds others
    /// that other actors draw (gameplay_keep); None: every skeleton of the object.
    pub skeleton: Option<&'static str>,
    /// The environment colour (RGBA8) of the variant used.
    pub env: Option<[u8; 4]>,
    /// The textures bound when the actor is first drawn: (segment, offset in the object, the
    /// decomp's name of the texture).
    pub segments: &'static [(u8, u32, &'static str)],
    /// The display lists bound when the actor is first drawn: (segment, the list's commands,
    /// what the game binds there, as the decomp names it).
    pub lists: &'static [(u8, &'static [Gfx], &'static str)],
    /// Display lists of its object it draws after limbs (as `DrawState::post_limb` holds them).
    pub post_limb: &'static [(u8, u32, &'static str)],
    /// Where the values are set and what the other variants or states set, for the warning.
    pub source: &'static str,
}

/// An actor that sets no colour and binds `segments` of its `object` (as the decomp names
/// them), set in the draw `source` names.
const fn binds(
    object: &'static str,
    segments: &'static [(u8, u32, &'static str)],
    source: &'static str,
) -> ActorDefault {
    ActorDefault { object, skeleton: None, env: None, segments, lists: &[], post_limb: &[], source }
}

/// An actor whose PostLimbDraw draws display lists `post_limb` of its `object` after limbs
/// (limb, offset, the decomp's name), set in the draw `source` names.
const fn draws_after_limbs(
    object: &'static str,
    post_limb: &'static [(u8, u32, &'static str)],
    source: &'static str,
) -> ActorDefault {
    ActorDefault { object, skeleton: None, env: None, segments: &[], lists: &[], post_limb, source }
}

/// An actor that sets no colour and binds display lists `lists` (segment, commands, what
/// the game binds) before drawing the skeletons of `object`.
const fn lists(
    object: &'static str,
    lists: &'static [(u8, &'static [Gfx], &'static str)],
    source: &'static str,
) -> ActorDefault {
    ActorDefault { object, skeleton: None, env: None, segments: &[], lists, post_limb: &[], source }
}

impl ActorDefault {
    /// The same, binding display lists `lists` too.
    const fn with_lists(self, lists: &'static [(u8, &'static [Gfx], &'static str)]) -> Self {
        ActorDefault { lists, ..self }
    }

    /// The same, drawing display lists `post_limb` of the object after limbs.
    const fn with_post_limb(self, post_limb: &'static [(u8, u32, &'static str)]) -> Self {
        ActorDefault { post_limb, ..self }
    }

    /// The same, setting the environment colour `env` before the draw.
    const fn with_env(self, env: [u8; 4]) -> Self {
        ActorDefault { env: Some(env), ..self }
    }

    /// The same, for skeleton `name` of the object only.
    const fn for_skeleton(self, name: &'static str) -> Self {
        ActorDefault { skeleton: Some(name), ..self }
    }
}

/// `D_809C1700` (En_Bili) and `D_80B289A8` (En_Vali): `gsDPSetCombineLERP(TEXEL0, 0, SHADE, 0,
/// TEXEL0, 0, PRIMITIVE, 0, COMBINED, 0, PRIMITIVE, 0, TEXEL1, 0, PRIM_LOD_FRAC, COMBINED)`, the
/// end.
const BILI_COMBINER: &[Gfx] = &[Gfx { w0: 0xFC12_1603, w1: 0xFF5B_FFF8 }, gbi::END_DL];
/// `G_RM_PASS` (gbi.h): the first cycle passes its colour to the second.
const G_RM_PASS: u32 = 0x0C08_0000;
/// `G_RM_ZB_CLD_SURF2` (gbi.h): a cloud surface, z-compared, blended over memory.
const G_RM_ZB_CLD_SURF2: u32 = 0x0010_4B50;

/// The actors whose draw function sets a constant environment colour or binds textures of
/// its object before drawing the skeleton, from the decomp (`src/overlays/actors/ovl_*`); the
/// values of the first variant, in the state the actor is first drawn in.
const ACTOR_DEFAULTS: &[ActorDefault] = &[
    ActorDefault {
        object: "object_dog",
        skeleton: None,
        env: Some([255, 255, 200, 0]),
        segments: &[],
        lists: &[],
        post_limb: &[],
        source: "En_Dog's draw for params 0 (z_en_dog.c EnDog_Draw: colors[params & 0xF]; params 1: 150,100,50,0)",
    },
    ActorDefault {
        object: "object_fr",
        skeleton: None,
        env: Some([200, 170, 0, 255]),
        segments: &[(0x8, 0x59A0, "object_fr_Tex_0059A0"), (0x9, 0x59A0, "object_fr_Tex_0059A0")],
        lists: &[],
        post_limb: &[],
        source: "En_Fr's draw for the first frog (z_en_fr.c EnFr_Draw: sEnFrColor[params - 1]; the others: \
                 0,170,200 / 210,120,100 / 120,130,230 / 190,190,190)",
    },
    ActorDefault {
        object: "object_firefly",
        skeleton: None,
        env: Some([0, 0, 0, 255]),
        segments: &[],
        lists: &[],
        // EnFirefly_PostLimbDraw: the eyes after the head (limbIndex 27, counted from 1), under
        // the matrix the head's own list loaded.
        post_limb: &[(26, 0x1678, "gKeeseEyesDL")],
        source: "En_Firefly's draw for a Keese not on fire (z_en_firefly.c EnFirefly_Draw, EnFirefly_PostLimbDraw; on fire: 0,0,0,0 and no eyes)",
    },
    binds(
        "object_zl4",
        &[
            (0x8, 0x2AF0, "gChildZeldaEyeOpenTex"),
            (0x9, 0x2AF0, "gChildZeldaEyeOpenTex"),
            (0xA, 0x46F0, "gChildZeldaMouthNeutralTex"),
        ],
        "En_Zl4's draw (EnZl4_Draw), as first drawn: eyes open",
    ),
    binds(
        "object_zl1",
        &[
            (0x8, 0x7208, "gChildZelda1EyeOpenLookingUpRightTex"),
            (0x9, 0x7208, "gChildZelda1EyeOpenLookingUpRightTex"),
            (0xA, 0x7608, "gChildZelda1MouthNeutralTex"),
        ],
        "En_Zl1's draw (EnZl1_Draw), as first drawn: eyes open",
    ),
    binds(
        "object_zl2",
        &[
            (0x8, 0x30C8, "gZelda2EyeOpenTex"),
            (0x9, 0x30C8, "gZelda2EyeOpenTex"),
            (0xA, 0x3508, "gZelda2MouthSeriousTex"),
        ],
        "En_Zl2's draw (func_80B523C8 (drawConfig 1, opaque)), as first drawn: eyes open",
    )
    .with_lists(&[(
        0xB,
        gbi::EMPTY,
        "an empty list (&D_80116280[2]; in the translucent draw \
         config, D_80116280: a translucent render mode)",
    )])
    .with_env([0, 0, 0, 255]),
    binds(
        "object_sa",
        &[(0x8, 0x2F48, "gSariaEyeOpenTex"), (0x9, 0x2F48, "gSariaEyeOpenTex"), (0xA, 0x3588, "gSariaMouthClosed2Tex")],
        "En_Sa's draw (EnSa_Draw), as first drawn: eyes open",
    )
    .with_lists(&[(
        0xC,
        gbi::EMPTY,
        "an empty list (func_80034B28, alpha 255; fading, \
         func_80034B54: a translucent render mode)",
    )])
    .with_env([0, 0, 0, 255]),
    binds(
        "object_ru1",
        &[(0x8, 0xE3B8, "gRutoChildEyeOpenTex"), (0x9, 0xE838, "gRutoChildMouthClosedTex")],
        "En_Ru1's draw (EnRu1_DrawOpa), as first drawn: eyes open",
    )
    .with_lists(&[(0xC, gbi::EMPTY, "an empty list (&D_80116280[2]; in the translucent draw config, D_80116280)")])
    .with_env([0, 0, 0, 255]),
    binds(
        "object_ma2",
        &[(0x8, 0x2570, "gMalonAdultEyeOpenTex"), (0x9, 0x2970, "gMalonAdultMouthNeutralTex")],
        "En_Ma2's draw (EnMa2_Draw), as first drawn: eyes open",
    ),
    binds(
        "object_ta",
        &[(0x8, 0x7F80, "gTalonEyeOpenTex"), (0x9, 0x6DC0, "gTalonHeadSkinTex")],
        "En_Ta's draw (EnTa_Draw), as first drawn: eyes open",
    ),
    binds(
        "object_in",
        &[(0x8, 0x3590, "gIngoEyeOpenTex"), (0x9, 0x34D0, "gIngoHeadGradient2Tex")],
        "En_In's draw (EnIn_Draw), as first drawn: eyes open",
    ),
    binds(
        "object_ahg",
        &[(0xA, 0x57C, "gHylianMan1BeardedEyeOpenTex")],
        "En_Hy's draw (EnHy_OverrideLimbDraw limb 15), as first drawn: eyes open",
    )
    .with_lists(&[
        (
            0x8,
            &[gbi::set_env_color([255, 255, 255, 255]), gbi::END_DL],
            "the environment colour 255,255,255,255 (EnHy_SetEnvColor, \
             ENHY_TYPE_AHG_2; AHG_4: 0,0,0,0, AHG_13: 200,180,255,0, \
             AHG_17: 90,100,20,255, AHG_20: 160,230,0,0, En_Sth: \
             190,110,0,255)",
        ),
        (
            0x9,
            &[gbi::set_env_color([255, 255, 255, 255]), gbi::END_DL],
            "the environment colour 255,255,255,255 (AHG_2; AHG_4: \
             255,0,0,0, AHG_13: 200,180,255,0, AHG_17: 100,140,50,255, \
             AHG_20: 0,150,110,0, En_Sth: 190,110,0,255)",
        ),
    ]),
    binds(
        "object_bji",
        &[(0xA, 0x5FC, "gHylianOldManEyeOpenTex")],
        "En_Hy's draw (EnHy_OverrideLimbDraw limb 15 (as above)), as first drawn: eyes open",
    )
    .with_lists(&[
        (
            0x8,
            &[gbi::set_env_color([0, 50, 160, 0]), gbi::END_DL],
            "the environment colour 0,50,160,0 (EnHy_SetEnvColor, \
             ENHY_TYPE_BJI_7; BJI_15: 130,70,20,0, BJI_19: 160,0,100,0)",
        ),
        (
            0x9,
            &[gbi::set_env_color([255, 255, 255, 0]), gbi::END_DL],
            "the environment colour 255,255,255,0 (BJI_7; BJI_15: \
             130,180,255,0, BJI_19: 70,130,210,0)",
        ),
    ]),
    binds(
        "object_bob",
        &[(0xA, 0x7C8, "gHylianWoman2EyeOpenTex")],
        "En_Hy's draw (EnHy_OverrideLimbDraw limb 15 (as above)), as first drawn: eyes open",
    ),
    binds(
        "object_boj",
        &[(0xA, 0x5FC, "gHylianMan2MustachedEyeOpenTex")],
        "En_Hy's draw (EnHy_OverrideLimbDraw limb 15 (as above)), as first drawn: eyes open",
    )
    .with_lists(&[
        (
            0x8,
            &[gbi::set_env_color([255, 255, 255, 0]), gbi::END_DL],
            "the environment colour 255,255,255,0 (EnHy_SetEnvColor, \
             ENHY_TYPE_BOJ_3; BOJ_5: 50,80,0,0, BOJ_9: 220,0,80,0, \
             BOJ_10: 0,130,220,0, BOJ_12: 150,60,90,0, BOJ_14: \
             140,255,110,0, BOJ_16: 255,255,255,255; En_Sth and En_Guest \
             set others)",
        ),
        (
            0x9,
            &[gbi::set_env_color([55, 55, 255, 0]), gbi::END_DL],
            "the environment colour 55,55,255,0 (BOJ_3; BOJ_5: 50,80,0,0, \
             BOJ_9/10/14: 255,255,255,0, BOJ_12: 255,240,150,0, BOJ_16: \
             255,255,255,255)",
        ),
    ]),
    binds(
        "object_kw1",
        &[(0xA, 0xF4C, "gKw1EyeOpenTex")],
        "En_Ko's draw (EnKo_OverrideLimbDraw limb 15), as first drawn: eyes open",
    )
    .with_lists(&[
        (
            0x8,
            &[gbi::set_env_color([70, 190, 60, 255]), gbi::END_DL],
            "the tunic colour 70,190,60,255 (EnKo_SetEnvColor, \
             ENKO_TYPE_CHILD_1: every Kokiri girl and Fado)",
        ),
        (
            0x9,
            &[gbi::set_env_color([100, 30, 0, 255]), gbi::END_DL],
            "the boots colour 100,30,0,255 (EnKo_SetEnvColor)",
        ),
        (0xC, gbi::EMPTY, "an empty list (func_80034B28, alpha 255)"),
    ])
    .with_env([0, 0, 0, 255]),
    binds(
        "object_ossan",
        &[(0x8, 0x4878, "gOssanEyeOpenTex")],
        "En_Ossan's draw (EnOssan_DrawBazaarShopkeeper), as first drawn: eyes open",
    ),
    binds(
        "object_rs",
        &[(0x8, 0x3968, "gBombchuShopkeeperEyeOpenTex")],
        "En_Ossan's draw (EnOssan_DrawBombchuShopkeeper), as first drawn: eyes open",
    ),
    binds(
        "object_ts",
        &[(0x8, 0x970, "object_ts_Tex_000970")],
        "En_Takara_Man's draw (EnTakaraMan_Draw), as first drawn: eyes open",
    ),
    // EnTk_PostLimbDraw draws the shovel after the right hand (limbIndex 14, counted from 1),
    // under the matrix the hand's own list loaded.
    binds(
        "object_tk",
        &[(0x8, 0x3B40, "gDampeEyeOpenTex")],
        "En_Tk's draw (EnTk_Draw, EnTk_PostLimbDraw), as first drawn: eyes open",
    )
    .with_post_limb(&[(13, 0xACE0, "gDampeShovelDL")]),
    // EnAnubice_PostLimbDraw: the eyes after the head (ANUBICE_LIMB_HEAD, 13 counted from 1),
    // under the head's matrix.
    draws_after_limbs(
        "object_anubice",
        &[(12, 0x3468, "gAnubiceEyesDL")],
        "En_Anubice's draw (EnAnubice_PostLimbDraw)",
    ),
    binds(
        "object_gr",
        &[(0x8, 0x4178, "gNiwGirlEyeOpenTex")],
        "En_Niw_Girl's draw (EnNiwGirl_Draw), as first drawn: eyes open",
    ),
    binds(
        "object_bg",
        &[(0x8, 0x5110, "gChuGirlEyeClosedTex")],
        "En_Bom_Bowl_Man's draw (EnBomBowlMan_Draw), as first drawn: asleep, eyes closed (eyeMode 0)",
    ),
    binds("object_jj", &[(0x8, 0x7698, "gJabuJabuEyeOpenTex")], "En_Jj's draw (EnJj_Draw), as first drawn: eyes open"),
    binds("object_kz", &[(0x8, 0x1470, "gKzEyeOpenTex")], "En_Kz's draw (EnKz_Draw), as first drawn: eyes open"),
    binds("object_md", &[(0x8, 0x4FF0, "gMidoEyeOpenTex")], "En_Md's draw (EnMd_Draw), as first drawn: eyes open")
        .with_lists(&[(
            0xC,
            gbi::EMPTY,
            "an empty list (func_80034B28, alpha 255; fading, \
             func_80034B54: a translucent render mode)",
        )])
        .with_env([0, 0, 0, 255]),
    binds(
        "object_geldb",
        &[(0x8, 0x5FE8, "gGerudoRedEyeOpenTex")],
        "En_GeldB's draw (EnGeldB_Draw), as first drawn: eyes open",
    ),
    binds(
        "object_gla",
        &[(0x8, 0x4F78, "gGerudoPurpleEyeOpenTex")],
        "En_Ge2's draw (EnGe2_Draw), as first drawn: eyes open",
    ),
    binds(
        "object_gndd",
        &[(0x8, 0xF178, "gYoungGanondorfEyeOpenTex")],
        "En_Viewer's draw (EnViewer_DrawGanondorf), as first drawn: eyes open",
    ),
    binds(
        "object_horse",
        &[(0x8, 0x9F80, "gEponaEyeOpenTex")],
        "En_Horse's draw (EnHorse_OverrideLimbDraw (limb 13, type HORSE_EPONA)), as first drawn: eyes open",
    ),
    binds(
        "object_wf",
        &[(0x8, 0x7B68, "gWolfosNormalEyeOpenTex")],
        "En_Wf's draw (EnWf_Draw), as first drawn: eyes open",
    ),
    binds(
        "object_bl",
        &[(0x8, 0xE08, "gBiriTentacles0Tex")],
        "En_Bili's draw (EnBili_Draw), as first drawn: eyes open",
    )
    .with_lists(&[(
        0x9,
        BILI_COMBINER,
        "the combiner D_809C1700 (not discharging; discharging on odd \
         frames, D_809C16F0: the first alpha input 1)",
    )]),
    binds(
        "object_dy_obj",
        &[(0x8, 0x17930, "gGreatFairyEyeOpenTex"), (0xA, 0x19130, "gGreatFairyMouthClosedTex")],
        "Bg_Dy_Yoseizo's draw (BgDyYoseizo_Draw), as first drawn: eyes open",
    ),
    binds(
        "object_rl",
        &[(0x8, 0x3620, "object_rl_Tex_003620")],
        "En_Rl's draw (func_80AE7FDC (opaque) / func_80AE7D94 (XLU)), as first drawn: eyes open",
    )
    .with_lists(&[(0xC, gbi::EMPTY, "an empty list (&D_80116280[2]; in the translucent draw config, D_80116280)")])
    .with_env([0, 0, 0, 255]),
    lists(
        "object_rd",
        &[(
            0x8,
            gbi::EMPTY,
            "an empty list (&D_80116280[2], alpha 255; fading as it dies, \
             D_80116280: a translucent render mode)",
        )],
        "En_Rd's draw (EnRd_Draw), the Redead (params 0) and the Gibdo alike",
    )
    .with_env([0, 0, 0, 255]),
    lists(
        "object_po_sisters",
        &[(0x9, gbi::EMPTY, "an empty list (D_80116280 + 2, alpha 255; fading, D_80116280)")],
        "En_Po_Sisters' draw (EnPoSisters_Draw), Meg (params 0) as first drawn",
    )
    .with_env([255, 255, 210, 255]),
    lists(
        "object_po_composer",
        &[
            (
                0x8,
                &[gbi::set_env_color([255, 255, 210, 255]), gbi::END_DL],
                "the lantern's light 255,255,210,255 (Gfx_EnvColor of lightColor, which walks there and stays)",
            ),
            (
                0xA,
                &[gbi::set_env_color([75, 20, 25, 255]), gbi::END_DL],
                "the environment colour 75,20,25,255 (Gfx_EnvColor, D_80AE1B4C: Sharp; Flat: 80,110,90)",
            ),
            (
                0xB,
                &[gbi::set_env_color([90, 85, 50, 255]), gbi::END_DL],
                "the environment colour 90,85,50,255 (D_80AE1B54: Sharp; \
                 Flat: 100,90,100)",
            ),
            (0xC, gbi::EMPTY, "an empty list (D_80116280 + 2, alpha 255; fading, D_80116280)"),
        ],
        "En_Poh's draw (EnPoh_DrawComposer), Sharp (params 2) fully visible (he appears from alpha 0)",
    ),
    lists(
        "object_skj",
        &[(
            0xC,
            &[gbi::set_env_color([0, 0, 0, 255]), gbi::END_DL],
            "the environment colour 0,0,0,255 (EnSkj_OpaqueDL, alpha 255; \
             fading, EnSkj_TranslucentDL: a translucent render mode and \
             alpha)",
        )],
        "En_Skj's draw (EnSkj_Draw), the Skull Kid of Saria's Song (type 0)",
    ),
    lists(
        "object_gnd",
        &[(
            0x8,
            gbi::EMPTY,
            "an empty list (BossGanondrof_EmptyDList; as his body decays, \
             BossGanondrof_GetClearPixelDList)",
        )],
        "Boss_Ganondrof's draw (BossGanondrof_Draw), alive",
    ),
    lists(
        "object_cne",
        &[
            (
                0x8,
                &[gbi::set_env_color([160, 180, 255, 0]), gbi::END_DL],
                "the environment colour 160,180,255,0 (EnHy_SetEnvColor, \
                 ENHY_TYPE_CNE_8; CNE_11: 70,160,230,0)",
            ),
            (
                0x9,
                &[gbi::set_env_color([160, 180, 255, 0]), gbi::END_DL],
                "the environment colour 160,180,255,0 (CNE_8; CNE_11: \
                 255,255,100,0)",
            ),
            (
                0xA,
                &[gbi::set_env_color([160, 180, 255, 0]), gbi::END_DL],
                "the environment colour 160,180,255,0 (CNE_8; CNE_11: \
                 255,255,255,0)",
            ),
        ],
        "En_Hy's draw (EnHy_Draw), the young woman ENHY_TYPE_CNE_8",
    ),
    lists(
        "object_bw",
        &[
            (0x8, gbi::EMPTY, "an empty list (&D_80116280[2], opaque; translucent: D_80116280)"),
            (
                0x9,
                &[
                    gbi::TILE_SYNC,
                    gbi::set_tile_size(0, 0, 0, 124, 124),
                    gbi::TILE_SYNC,
                    gbi::set_tile_size(1, 0, 0, 124, 124),
                    gbi::END_DL,
                ],
                "the body's texture scroll (Gfx_TwoTexScroll, \
                 EnBw_OverrideLimbDraw) at its first frame (it scrolls 4 a \
                 frame)",
            ),
        ],
        "En_Bw's draw (EnBw_Draw), opaque, the environment colour color1 as EnBw_Init sets it (it changes as the \
         slug heats and cools)",
    )
    .with_env([255, 0, 0, 255]),
    lists(
        "object_bigokuta",
        &[(0xC, gbi::EMPTY, "an empty list (&D_80116280[2]; shrinking as it dies, D_80116280)")],
        "En_Bigokuta's draw (EnBigokuta_Draw), alive",
    )
    .with_env([255, 255, 255, 255]),
    lists(
        "object_vali",
        &[
            (
                0x8,
                &[gbi::TILE_SYNC, gbi::set_tile_size(0, 0, 127, 124, 251), gbi::END_DL],
                "the inner hood's texture scroll (Gfx_TexScroll) at gameplay \
                 frame 0 (it scrolls 12 a frame; the game draws that limb \
                 apart, translucent)",
            ),
            (0x9, BILI_COMBINER, "the combiner D_80B289A8 (not hit; hit, on odd frames, D_80B28998)"),
        ],
        "En_Vali's draw (EnVali_Draw, EnVali_DrawBody)",
    ),
    lists(
        "object_box",
        &[(
            0x8,
            &[
                gbi::TILE_SYNC,
                gbi::set_tile_size(0, 0, 0, 252, 124),
                gbi::TILE_SYNC,
                gbi::set_tile_size(1, 0, 0, 252, 124),
                gbi::END_DL,
            ],
            "the light rays' texture scroll (Gfx_TwoTexScroll) at gameplay frame 0 (they scroll 2 a frame)",
        )],
        "Demo_Tre_Lgt's draw (DemoTreLgt_Draw, DemoTreLgt_PostLimbDraw: the light of a big chest opening)",
    )
    .for_skeleton("gTreasureChestCurveSkel"),
    // The chest's limbs hold no display list: En_Box draws the box after the root limb and
    // the lid after the third (its PostLimbDraw's limbIndex 1 and 3, counted from 1).
    draws_after_limbs(
        "object_box",
        &[(0, 0x6F0, "gTreasureChestChestFrontDL"), (2, 0x10C0, "gTreasureChestChestSideAndLidDL")],
        "En_Box's draw (EnBox_PostLimbDraw) for a chest of any type but the decorated big one \
         (ENBOX_TYPE_DECORATED_BIG: gTreasureChestBossKeyChestFrontDL, gTreasureChestBossKeyChestSideAndTopDL)",
    )
    .with_env([0, 0, 0, 255])
    .with_lists(&[(0x8, gbi::EMPTY, "an empty list (EnBox_EmptyDList: the chest drawn opaque, not fading in)")])
    .for_skeleton("gTreasureChestSkel"),
    lists(
        "gameplay_keep",
        &[(
            0x8,
            &[
                gbi::PIPE_SYNC,
                gbi::set_prim_color(0x01, [255, 255, 255, 255]),
                gbi::set_render_mode(G_RM_PASS | G_RM_ZB_CLD_SURF2),
                gbi::END_DL,
            ],
            "the inner colour 255,255,255,255 and a cloud render mode \
             (EnElf_Draw: a fairy's sInnerColors[0]; Navi's changes with \
             what she targets)",
        )],
        "En_Elf's draw (EnElf_Draw), a fairy",
    )
    .for_skeleton("gFairySkel"),
];

/// Every actor default this reader applies (for tests and tools that check them).
pub fn actor_defaults() -> &'static [ActorDefault] {
    ACTOR_DEFAULTS
}

/// What the actor drawing skeleton `skeleton` of object `stem` sets, if it is documented.
pub fn actor_default(stem: &str, skeleton: &str) -> Option<&'static ActorDefault> {
    ACTOR_DEFAULTS.iter().find(|a| a.object == stem && a.skeleton.is_none_or(|s| s == skeleton))
}

impl DrawState {
    /// The draw of the actor that draws skeleton `skeleton` of object `stem`: what it is
    /// documented to set ([`actor_default`]), else nothing.
    pub fn actor(stem: &str, skeleton: &str) -> DrawState {
        match actor_default(stem, skeleton) {
            Some(a) => {
                let mut segments = [None; 16];
                for &(seg, off, _) in a.segments {
                    // In the object's own segment, where the actor's object is bound.
                    segments[usize::from(seg & 0xF)] = Some(u32::from(crate::layout::SEG_OBJECT) << 24 | off);
                }
                let mut lists = [None; 16];
                for &(seg, list, _) in a.lists {
                    lists[usize::from(seg & 0xF)] = Some(list);
                }
                DrawState {
                    env: a.env.map(|e| e.map(|c| c as f32 / 255.0)),
                    segments,
                    lists,
                    post_limb: a.post_limb,
                    origin: Some(a.source),
                    ..DrawState::default()
                }
            }
            None => DrawState::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The commands the lists are made of are the words the game's compiled macros make: each
    /// is found as such in a real object's display lists (the words of `gsDPSetRenderMode`,
    /// `gsSPSetGeometryMode`, `gsDPSetEnvColor`, `gsDPSetPrimColor`, `gsDPTileSync`,
    /// `gsDPPipeSync`, `gsDPSetTileSize` and `gsSPEndDisplayList` there).
    #[test]
    fn list_commands_are_the_words_the_objects_hold() {
        let Some(dir) = boneyard_core::testdata::shared_data(
            "z64/oot-gc-eu-mq-dbg",
            "list_commands_are_the_words_the_objects_hold",
        ) else {
            return;
        };
        let word = |file: &str, at: usize| {
            let d = std::fs::read(dir.join(file)).unwrap();
            let w = |o: usize| u32::from_be_bytes(d[o..o + 4].try_into().unwrap());
            Gfx { w0: w(at), w1: w(at + 4) }
        };
        assert_eq!(gbi::set_render_mode(0xC811_2078), word("object_ahg", 0x3100));
        // The fairy's G_RM_PASS | G_RM_ZB_CLD_SURF2, as gameplay_keep's own lists set it.
        assert_eq!(gbi::set_render_mode(G_RM_PASS | G_RM_ZB_CLD_SURF2), word("gameplay_keep", 0x12600));
        assert_eq!(gbi::set_geometry_mode(0x0003_0400), word("object_ahg", 0x3190));
        assert_eq!(gbi::set_env_color([0x1E, 0x14, 0x0A, 0xFF]), word("object_anubice", 0x34E0));
        assert_eq!(gbi::set_prim_color(1, [255; 4]), word("object_bird", 0x88));
        assert_eq!(gbi::TILE_SYNC, word("object_ahg", 0x3120));
        // Ruto's torso list: pipe sync, then a tile size of 8x8 texels, (0,0)-(28,28) in 10.2.
        assert_eq!(gbi::PIPE_SYNC, word("object_ru1", 0xC208));
        assert_eq!(gbi::set_tile_size(0, 0, 0, 28, 28), word("object_ru1", 0xC218));
        assert_eq!(gbi::END_DL, word("object_ru1", 0xC3D0));
    }

    #[test]
    fn face_word_as_player_draw_impl_reads_it() {
        assert_eq!(face_indices(None), (0, 0));
        assert_eq!(face_indices(Some(0)), (0, 0));
        // eye nibble 3 -> index 2 (closed), mouth nibble 2 -> index 1.
        assert_eq!(face_indices(Some(0x23)), (2, 1));
        assert_eq!(face_indices(Some(0x10)), (0, 0));
        assert_eq!(face_indices(Some(0xFF)), (0, 0), "past the tables: default");
        assert_eq!(Tunic::parse("ZORA"), Some(Tunic::Zora));
        assert!(RuntimeState::from_pairs(&[("tunic".into(), "pink".into())]).is_err());
    }
}
