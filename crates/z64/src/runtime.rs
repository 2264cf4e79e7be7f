//! What the game sets before it draws a skeleton, which the object's own display lists leave
//! to the actor: Link's tunic colour (the environment colour) and face textures (segments 8
//! and 9), from the decomp's `z_player_lib.c` (`sTunicColors`, `sEyeTextures`,
//! `sMouthTextures`, `sEyeMouthIndexes`, `Player_DrawImpl`).
//!
//! `Player_DrawImpl` reads the face from joint 22's x (Link's animations' last word of each
//! frame): eye index `(x & 0xF) - 1`, mouth index `(x >> 4) - 1`, each replaced by the
//! player's default face (`sEyeMouthIndexes[face]`, face 0: eyes 0, mouth 0) when negative;
//! binds segment 8 to the eye texture and segment 9 to the mouth texture; and sets the
//! environment colour to the tunic's, alpha 0.
//!
//! Other actors set the environment colour in their draw function before the skeleton is
//! drawn ([`actor_default`]): a few whose value is a constant of the actor's code, for the
//! actor's first variant; the others' colours stay white with a warning (dlist.rs).

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

/// Run-time state asked for by the caller (`OpenOptions::runtime`: key/value pairs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RuntimeState {
    /// The tunic Link is drawn in.
    pub tunic: Tunic,
}

impl RuntimeState {
    /// From the caller's key/value pairs: `tunic` = kokiri|goron|zora. Keys other families
    /// interpret are not ours and are left alone; a bad value of ours is an error.
    pub fn from_pairs(pairs: &[(String, String)]) -> Result<RuntimeState> {
        let mut s = RuntimeState::default();
        for (k, v) in pairs {
            if k == "tunic" {
                s.tunic = Tunic::parse(v).ok_or_else(|| {
                    Error::not_found(format!("--tunic {v:?}: Link's tunics are kokiri, goron and zora"))
                })?;
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
    /// Who set it, for notes ("Link's Kokiri tunic").
    pub origin: Option<&'static str>,
}

impl DrawState {
    /// Link's draw with `state` and the face of `(eye, mouth)`, for his object bound to `seg`.
    pub fn link(state: RuntimeState, seg: u8, (eye, mouth): (usize, usize)) -> DrawState {
        let mut segments = [None; 16];
        let base = (seg as u32) << 24;
        segments[8] = EYE_TEXTURES.get(eye).map(|o| base | o);
        segments[9] = MOUTH_TEXTURES.get(mouth).map(|o| base | o);
        let origin = match state.tunic {
            Tunic::Kokiri => "Link's draw (Kokiri tunic)",
            Tunic::Goron => "Link's draw (Goron tunic)",
            Tunic::Zora => "Link's draw (Zora tunic)",
        };
        DrawState { env: Some(state.tunic.env()), prim: None, segments, origin: Some(origin) }
    }
}

/// What an actor's draw function sets before the skeleton is drawn: an environment colour,
/// textures of its object bound to segments (eyes, mouths).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ActorDefault {
    /// The object file the actor draws from (its stem).
    pub object: &'static str,
    /// The environment colour (RGBA8) of the variant used.
    pub env: Option<[u8; 4]>,
    /// The textures bound when the actor is first drawn: (segment, offset in the object, the
    /// decomp's name of the texture).
    pub segments: &'static [(u8, u32, &'static str)],
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
    ActorDefault { object, env: None, segments, source }
}

/// The actors whose draw function sets a constant environment colour or binds textures of
/// its object before drawing the skeleton, from the decomp (`src/overlays/actors/ovl_*`); the
/// values of the first variant, in the state the actor is first drawn in.
const ACTOR_DEFAULTS: &[ActorDefault] = &[
    ActorDefault {
        object: "object_dog",
        env: Some([255, 255, 200, 0]),
        segments: &[],
        source: "En_Dog's draw for params 0 (z_en_dog.c EnDog_Draw: colors[params & 0xF]; params 1: 150,100,50,0)",
    },
    ActorDefault {
        object: "object_fr",
        env: Some([200, 170, 0, 255]),
        segments: &[(0x8, 0x59A0, "object_fr_Tex_0059A0"), (0x9, 0x59A0, "object_fr_Tex_0059A0")],
        source: "En_Fr's draw for the first frog (z_en_fr.c EnFr_Draw: sEnFrColor[params - 1]; the others: \
                 0,170,200 / 210,120,100 / 120,130,230 / 190,190,190)",
    },
    ActorDefault {
        object: "object_firefly",
        env: Some([0, 0, 0, 255]),
        segments: &[],
        source: "En_Firefly's draw for a Keese not on fire (z_en_firefly.c EnFirefly_Draw; on fire: 0,0,0,0)",
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
    ),
    binds(
        "object_sa",
        &[(0x8, 0x2F48, "gSariaEyeOpenTex"), (0x9, 0x2F48, "gSariaEyeOpenTex"), (0xA, 0x3588, "gSariaMouthClosed2Tex")],
        "En_Sa's draw (EnSa_Draw), as first drawn: eyes open",
    ),
    binds(
        "object_ru1",
        &[(0x8, 0xE3B8, "gRutoChildEyeOpenTex"), (0x9, 0xE838, "gRutoChildMouthClosedTex")],
        "En_Ru1's draw (EnRu1_DrawOpa), as first drawn: eyes open",
    ),
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
    ),
    binds(
        "object_bji",
        &[(0xA, 0x5FC, "gHylianOldManEyeOpenTex")],
        "En_Hy's draw (EnHy_OverrideLimbDraw limb 15 (as above)), as first drawn: eyes open",
    ),
    binds(
        "object_bob",
        &[(0xA, 0x7C8, "gHylianWoman2EyeOpenTex")],
        "En_Hy's draw (EnHy_OverrideLimbDraw limb 15 (as above)), as first drawn: eyes open",
    ),
    binds(
        "object_boj",
        &[(0xA, 0x5FC, "gHylianMan2MustachedEyeOpenTex")],
        "En_Hy's draw (EnHy_OverrideLimbDraw limb 15 (as above)), as first drawn: eyes open",
    ),
    binds(
        "object_kw1",
        &[(0xA, 0xF4C, "gKw1EyeOpenTex")],
        "En_Ko's draw (EnKo_OverrideLimbDraw limb 15), as first drawn: eyes open",
    ),
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
    binds("object_tk", &[(0x8, 0x3B40, "gDampeEyeOpenTex")], "En_Tk's draw (EnTk_Draw), as first drawn: eyes open"),
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
    binds("object_md", &[(0x8, 0x4FF0, "gMidoEyeOpenTex")], "En_Md's draw (EnMd_Draw), as first drawn: eyes open"),
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
    ),
    binds(
        "object_dy_obj",
        &[(0x8, 0x17930, "gGreatFairyEyeOpenTex"), (0xA, 0x19130, "gGreatFairyMouthClosedTex")],
        "Bg_Dy_Yoseizo's draw (BgDyYoseizo_Draw), as first drawn: eyes open",
    ),
    binds(
        "object_rl",
        &[(0x8, 0x3620, "object_rl_Tex_003620")],
        "En_Rl's draw (func_80AE7FDC (opaque) / func_80AE7D94 (XLU)), as first drawn: eyes open",
    ),
];

/// Every actor default this reader applies (for tests and tools that check them).
pub fn actor_defaults() -> &'static [ActorDefault] {
    ACTOR_DEFAULTS
}

/// The documented environment colour the actor drawing from object `stem` sets, if any.
pub fn actor_default(stem: &str) -> Option<&'static ActorDefault> {
    ACTOR_DEFAULTS.iter().find(|a| a.object == stem)
}

impl DrawState {
    /// The draw of the actor that uses object `stem`: its documented environment colour
    /// ([`actor_default`]), else nothing set.
    pub fn actor(stem: &str) -> DrawState {
        match actor_default(stem) {
            Some(a) => {
                let mut segments = [None; 16];
                for &(seg, off, _) in a.segments {
                    // In the object's own segment, where the actor's object is bound.
                    segments[usize::from(seg & 0xF)] = Some(u32::from(crate::layout::SEG_OBJECT) << 24 | off);
                }
                DrawState {
                    env: a.env.map(|e| e.map(|c| c as f32 / 255.0)),
                    segments,
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
