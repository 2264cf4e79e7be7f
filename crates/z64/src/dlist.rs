//! F3DEX2 display lists of a skeleton's limbs, decoded into meshes: vertex loads (G_VTX),
//! triangles (G_TRI1, G_TRI2, G_QUAD), calls and branches (G_DL, G_ENDDL), and the matrix
//! loads flex skeletons use to reach other limbs' matrices (G_MTX from segment 0x0D, where
//! the game puts one `Mtx` per limb with a display list, in draw order). Display lists or
//! vertices in segments no given file provides
//! (textures swapped at run time, eyes, ...) are skipped unless the caller's
//! [`DrawState`] binds them: textures (Link's face, other actors' eyes) and display lists the
//! actor builds (colours, render modes, texture scrolls), whose commands run where the limb
//! calls them. Animated Skin limbs' lists read their vertices
//! from the buffer [`crate::skin`] computes (segment 8).
//!
//! Colour state: G_SETPRIMCOLOR, G_SETENVCOLOR, G_SETCOMBINE and G_SETOTHERMODE_H (cycle type,
//! texture filter) are tracked, and each group of triangles becomes a mesh whose material is
//! the combiner's formula ([`crate::combiner`]): base colour factor, texture and vertex
//! colours as the formula uses them. A formula no glTF material holds is approximated, and a
//! note names the G_SETCOMBINE command. Before the first G_SETOTHERMODE_H the state is the
//! one the game's actor setup display list (`Gfx_SetupDL_25Opa`) leaves: 2-cycle, bilinear.
//! The state carries from limb to limb in draw order, as the RDP's does.
//!
//! Calls and branches into a display list already running (a list that calls itself, two
//! that call each other) are cut there with a note naming the limb and the command.

use crate::combiner::{self, Combine, Constants, Material};
use crate::layout::*;
pub use crate::runtime::DrawState;
use crate::segment::Ctx;
use crate::skeleton::SkelDef;
use crate::texture;
use crate::wordhash::{WordIndex, WordKeys, WordMap};
use boneyard_core::model::{AlphaMode, Mesh, MeshBinding, TextureFilter, TextureWrap};
use glam::{Mat4, Vec3};
use std::collections::HashMap;

const G_VTX: u8 = 0x01;
const G_NOOP: u8 = 0x00;
const G_SPNOOP: u8 = 0xE0;
const G_RDPLOADSYNC: u8 = 0xE6;
const G_RDPPIPESYNC: u8 = 0xE7;
const G_RDPTILESYNC: u8 = 0xE8;
const G_RDPFULLSYNC: u8 = 0xE9;
/// `gSPModifyVertex`: one word of a loaded vertex replaced (F3DEX2).
const G_MODIFYVTX: u8 = 0x02;
/// Its words (gbi.h `G_MWO_POINT_*`): the colour, the texture coordinates, the screen
/// position and depth.
const G_MWO_POINT_RGBA: u8 = 0x10;
const G_MWO_POINT_ST: u8 = 0x14;
const G_TRI1: u8 = 0x05;
const G_TRI2: u8 = 0x06;
const G_QUAD: u8 = 0x07;
const G_POPMTX: u8 = 0xD8;
const G_MTX: u8 = 0xDA;
const G_DL: u8 = 0xDE;
const G_ENDDL: u8 = 0xDF;
/// Branches remembered per call level for cutting loops (a hostile chain of thousands of
/// branches must not cost a search of all of them at each). An internal bound of the loop
/// detector, not a resource limit: kept a constant.
const MAX_BRANCHES_TRACKED: usize = 64;
/// What is left of a document's display-list budget, built from the caller's limits
/// (`Limits::max_dlist_depth`: the RSP's 10 by default; `max_dlist_commands` per list against
/// hostile loops; `max_document_commands`, `max_document_texels`: without a shared budget, a
/// small file of many 255-limb skeletons whose lists loop costs 65536 commands a limb each
/// (minutes), or decodes 64 textures a limb (gigabytes).
#[derive(Debug, Clone)]
pub struct Budget {
    /// Display-list commands (`Limits::max_document_commands`).
    pub commands: boneyard_core::Budget,
    /// Texels decoded (`Limits::max_document_texels`).
    pub texels: boneyard_core::Budget,
    /// Texels of one texture (`Limits::max_texture_texels`).
    pub max_texture_texels: boneyard_core::Limit,
    /// Textures one limb's meshes use (`Limits::max_limb_textures`).
    pub max_limb_textures: usize,
    /// Notes one skeleton's meshes give (`Limits::max_skeleton_notes`).
    pub max_skeleton_notes: usize,
    /// Skin vertex and transformation entries (`Limits::max_skin_entries`, see [`crate::skin`]).
    pub skin_entries: boneyard_core::Budget,
    /// How deep display-list calls may nest (`Limits::max_dlist_depth`).
    pub max_depth: usize,
    /// Commands one display list may run (`Limits::max_dlist_commands`).
    pub max_commands: usize,
    /// The textures decoded so far for the document's meshes: meshes that draw the same
    /// texels (same bytes, format, palette and use) share one decoding, copied from the mesh
    /// that holds it (a skeleton's index in the document and a mesh's in the skeleton; None:
    /// not decodable), so that no second copy of the texels is kept while the document is
    /// built. Their texels are spent from [`Budget::texels`] by each mesh all the same.
    pub decoded: WordMap<TextureKey, Option<(usize, usize)>>,
    /// The materials evaluated so far for the document's display lists, with the note each
    /// gives (None: none): a display list sets the same few combiners and colours again and
    /// again, and evaluating one (and wording its formula) cost more than decoding the
    /// triangles it colours.
    pub materials: WordMap<MaterialInputs, (Material, Option<String>)>,
    /// The seed of the groups' vertex maps, drawn once for the document (drawing one from
    /// the standard library's random keys for every group cost as much as a small group).
    pub vertex_keys: WordKeys,
    /// Buffers kept from display list to display list of the document's skeletons.
    scratch: Scratch,
}

/// What a display list's run uses and leaves empty, kept for the next run (each a heap
/// allocation made once per document instead of once per display list; large ones, which the
/// system allocator pays for most).
#[derive(Default)]
struct Scratch {
    /// Emptied vertex vectors and maps of the groups made so far, for the next groups.
    spare: Vec<SpareGroup>,
    /// The display lists running: those each call level entered (its call, then its
    /// branches), levels one after another, for cutting loops.
    running: Vec<u32>,
    /// The calls being run: where each returns to, and where its level starts in `running`.
    calls: Vec<(u32, usize)>,
    /// The run's groups (emptied after each run).
    groups: Vec<Group>,
    /// Every display list run since [`Budget::take_lists_run`] last emptied it: each limb's
    /// and each `G_DL` target, as segmented addresses, in the order met.
    ran: Vec<u32>,
}

thread_local! {
    /// The scratch of the last document decoded on this thread, emptied, for the next one:
    /// opening a folder file after file (or on rayon's threads) made every document allocate
    /// its groups' first buffers again (4.7 of the 34 MB a pass over the OoT objects allocated).
    static POOLED_SCRATCH: std::cell::Cell<Option<Scratch>> = const { std::cell::Cell::new(None) };
}

impl Scratch {
    /// Spare groups a thread keeps between documents, and the most vertices (and slots of its
    /// map) one may hold on to: what a thread keeps is bounded whatever files it read.
    const POOLED_SPARES: usize = 32;
    const POOLED_VERTICES: usize = 4096;

    /// The thread's pooled scratch, or a new one.
    fn pooled() -> Scratch {
        POOLED_SCRATCH.with(|p| p.take()).unwrap_or_default()
    }

    /// Back to the thread's pool, emptied and trimmed to the pool's bounds. What a group holds
    /// depends only on what is pushed and inserted into it, never on the capacity or on the
    /// document before (the maps are emptied by generation), so reusing them changes nothing
    /// read.
    fn give_back(mut self) {
        for g in std::mem::take(&mut self.groups) {
            self.spare.push(g.into_spare());
        }
        self.spare.retain(|(verts, indices, seen)| {
            verts.capacity() <= Self::POOLED_VERTICES
                && indices.capacity() <= 3 * Self::POOLED_VERTICES
                && seen.slots() <= 2 * Self::POOLED_VERTICES
        });
        self.spare.truncate(Self::POOLED_SPARES);
        self.running.clear();
        self.calls.clear();
        self.ran.clear();
        // The fuller of this and what the pool holds (a budget's copy gives back none);
        // a thread ending (its pool dropped) needs nothing back.
        let _ = POOLED_SCRATCH.try_with(|p| {
            let kept = match p.take() {
                Some(held) if held.spare.len() > self.spare.len() => held,
                _ => self,
            };
            p.set(Some(kept));
        });
    }
}

/// The budget's buffers go back to the thread's pool.
impl Drop for Budget {
    fn drop(&mut self) {
        std::mem::take(&mut self.scratch).give_back();
    }
}

/// Buffers only: a copy of a budget starts without them.
impl Clone for Scratch {
    fn clone(&self) -> Self {
        Scratch::default()
    }
}

impl std::fmt::Debug for Scratch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scratch").field("spare_groups", &self.spare.len()).finish_non_exhaustive()
    }
}

/// What [`Decoder::material`]'s material and note depend on: the G_SETCOMBINE words, the cycle
/// type (2-cycle), and the primitive and environment colours (their bits; None: not set),
/// packed by [`material_inputs`] into words hashed in one write (a tuple of them was hashed
/// field by field, and the hashing cost as much as the rest of a state change).
pub type MaterialInputs = [u32; 11];

/// [`MaterialInputs`]: w0, w1, the flags (bit 0 2-cycle, bit 1 a primitive colour set, bit 2 an
/// environment colour set), then the primitive colour's bits and the environment colour's
/// (zeros when not set, told apart by the flags).
fn material_inputs(c: Combine, two_cycle: bool, prim: Option<[f32; 4]>, env: Option<[f32; 4]>) -> MaterialInputs {
    let flags = u32::from(two_cycle) | u32::from(prim.is_some()) << 1 | u32::from(env.is_some()) << 2;
    let (p, e) = (prim.unwrap_or_default().map(f32::to_bits), env.unwrap_or_default().map(f32::to_bits));
    [c.w0, c.w1, flags, p[0], p[1], p[2], p[3], e[0], e[1], e[2], e[3]]
}

/// What a decoded texture depends on: where its bytes are (file index and offset, as the
/// segment table resolves them) and its palette's, its format, size and dimensions, and how
/// the draw uses it (filter, colour, alpha); packed by [`texture_key`] into words hashed in
/// one write.
pub type TextureKey = [u64; 7];

/// [`TextureKey`]: the texels' (file, offset), a flag word (bit 0 a palette, bits 8..16 the
/// format, 16..24 the size, bits 24, 25, 26 the filter, colour and alpha use), the palette's
/// (file, offset) (zeros without one), width and height.
fn texture_key(
    at: (usize, usize),
    pal_at: Option<(usize, usize)>,
    [fmt, siz]: [u8; 2],
    [w, h]: [usize; 2],
    use_: [bool; 3],
) -> TextureKey {
    let flags = u64::from(pal_at.is_some())
        | u64::from(fmt) << 8
        | u64::from(siz) << 16
        | u64::from(use_[0]) << 24
        | u64::from(use_[1]) << 25
        | u64::from(use_[2]) << 26;
    let pal = pal_at.unwrap_or_default();
    [at.0 as u64, at.1 as u64, flags, pal.0 as u64, pal.1 as u64, w as u64, h as u64]
}

impl Budget {
    /// The display lists run by the skeletons decoded since the last call (each limb's and
    /// each list they call or branch to, as segmented addresses, in the order met), taken.
    pub fn take_lists_run(&mut self) -> Vec<u32> {
        std::mem::take(&mut self.scratch.ran)
    }

    /// The whole budget of a document within the caller's limits (`max_document_commands`,
    /// `max_document_texels`, `max_skin_entries`, `max_dlist_depth`, `max_dlist_commands`,
    /// `max_texture_texels`, `max_limb_textures`, `max_skeleton_notes`).
    pub fn from_limits(l: &boneyard_core::Limits) -> Self {
        Budget {
            commands: boneyard_core::Budget::new(
                boneyard_core::limit!(l, max_document_commands),
                "display-list commands",
            ),
            texels: boneyard_core::Budget::new(boneyard_core::limit!(l, max_document_texels), "texels"),
            max_texture_texels: boneyard_core::limit!(l, max_texture_texels),
            max_limb_textures: l.max_limb_textures,
            max_skeleton_notes: l.max_skeleton_notes,
            skin_entries: boneyard_core::Budget::new(
                boneyard_core::limit!(l, max_skin_entries),
                "skin vertex and transformation entries",
            ),
            max_depth: l.max_dlist_depth,
            max_commands: l.max_dlist_commands,
            decoded: WordMap::default(),
            materials: WordMap::default(),
            vertex_keys: WordKeys::default(),
            scratch: Scratch::pooled(),
        }
    }
}

/// What one skeleton's meshes spent of a [`Budget::fork`], and the textures they decoded
/// (their own skeleton's index being 0), to charge to the document's budget in order
/// ([`Budget::charge`]).
pub struct Spent {
    commands: boneyard_core::Budget,
    texels: boneyard_core::Budget,
    skin_entries: boneyard_core::Budget,
    decoded: WordMap<TextureKey, Option<(usize, usize)>>,
}

impl Budget {
    /// A budget for one skeleton's meshes made beside the others' (on rayon's threads): the
    /// same limits and seed and what is spent so far, no texture or material decoded yet, the
    /// thread's own buffers. What it spends is charged to this one afterwards, skeleton by
    /// skeleton in the document's order ([`Budget::charge`]).
    /// `materials`: the thread's memo of the materials evaluated before (the same combiners
    /// and colours come back in skeleton after skeleton; what it holds changes nothing made).
    pub fn fork(&self, materials: WordMap<MaterialInputs, (Material, Option<String>)>) -> Budget {
        Budget {
            commands: self.commands.clone(),
            texels: self.texels.clone(),
            max_texture_texels: self.max_texture_texels,
            max_limb_textures: self.max_limb_textures,
            max_skeleton_notes: self.max_skeleton_notes,
            skin_entries: self.skin_entries.clone(),
            max_depth: self.max_depth,
            max_commands: self.max_commands,
            decoded: WordMap::default(),
            materials,
            vertex_keys: self.vertex_keys,
            scratch: Scratch::pooled(),
        }
    }

    /// What a fork spent and decoded, and its memo of materials for the thread's next fork;
    /// its buffers go back to this thread's pool.
    pub fn into_spent(mut self) -> (Spent, WordMap<MaterialInputs, (Material, Option<String>)>) {
        let materials = std::mem::take(&mut self.materials);
        let spent = Spent {
            commands: self.commands.clone(),
            texels: self.texels.clone(),
            skin_entries: self.skin_entries.clone(),
            decoded: std::mem::take(&mut self.decoded),
        };
        (spent, materials)
    }

    /// Charge what `part` spent (a fork of this budget made when it had spent `base` of
    /// commands, texels and skin entries) when the skeleton's meshes came out exactly as they
    /// would have with this budget ([`boneyard_core::Budget::spent_by_fork`], for each of the
    /// three). False, nothing charged: make them again with this budget.
    pub fn charge(&mut self, part: &Spent, base: [u64; 3]) -> bool {
        let spent = [
            self.commands.spent_by_fork(&part.commands, base[0]),
            self.texels.spent_by_fork(&part.texels, base[1]),
            self.skin_entries.spent_by_fork(&part.skin_entries, base[2]),
        ];
        let [Some(commands), Some(texels), Some(skin)] = spent else { return false };
        self.commands.try_spend(commands);
        self.texels.try_spend(texels);
        self.skin_entries.try_spend(skin);
        true
    }

    /// What this budget had spent of its three budgets (commands, texels, skin entries): a
    /// fork's `base` for [`Budget::charge`].
    pub fn spent_so_far(&self) -> [u64; 3] {
        [self.commands.spent(), self.texels.spent(), self.skin_entries.spent()]
    }

    /// Take the textures `part` decoded for skeleton `skel`'s meshes (`meshes`, made with the
    /// fork, charged) as the document's: where an earlier skeleton's mesh (`earlier`) holds the
    /// same texels, the meshes draw its pixels, as when made with this budget they copy them
    /// (one image in memory, not one a skeleton).
    pub fn adopt_textures(
        &mut self,
        part: Spent,
        skel: usize,
        meshes: &mut [Mesh],
        earlier: &[boneyard_core::SkeletonInfo],
    ) {
        for (key, held) in part.decoded {
            match self.decoded.entry(key) {
                std::collections::hash_map::Entry::Occupied(e) => {
                    let (Some((sj, mj)), Some((_, mi))) = (*e.get(), held) else { continue };
                    let shared =
                        earlier.get(sj).and_then(|i| i.meshes.get(mj)?.texture.as_ref()).map(|t| t.rgba.clone());
                    let own = meshes.get(mi).and_then(|m| m.texture.as_ref()).map(|t| t.rgba.clone());
                    let (Some(shared), Some(own)) = (shared, own) else { continue };
                    for t in meshes.iter_mut().filter_map(|m| m.texture.as_mut()) {
                        if std::sync::Arc::ptr_eq(&t.rgba, &own) {
                            t.rgba = shared.clone();
                        }
                    }
                }
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(held.map(|(_, mi)| (skel, mi)));
                }
            }
        }
    }
}

impl Default for Budget {
    fn default() -> Self {
        Self::from_limits(&boneyard_core::Limits::default())
    }
}
const VTX_CACHE: usize = 32;

/// Something the mesh decoder left out or could not follow: where (a byte offset in `file`,
/// when known) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MeshNote {
    /// The file holding the bytes (None: the skeleton's own file).
    pub file: Option<String>,
    /// Byte offset of the display list, limb or data concerned.
    pub offset: Option<u64>,
    /// What was left out, and why.
    pub message: String,
}

/// A note before notes saying the same thing about the same bytes are merged: `subject` is
/// the limb or mesh it was met in.
struct RawNote {
    file: Option<String>,
    offset: Option<u64>,
    message: String,
    subject: String,
}

/// Limbs or meshes one note names at most: a hostile skeleton of 255 broken limbs says so in
/// a bounded text. A cap on the wording of one warning (it still says how many more there
/// were), not a resource limit: kept a constant. The notes one skeleton gives are the
/// caller's `Limits::max_skeleton_notes`.
const MAX_SUBJECTS_PER_NOTE: usize = 16;

/// One note per (file, message), in first-met order, naming every limb or mesh it concerns
/// once (the offset is the first one's): a texture missing from ten meshes is one note, and a
/// combiner met eleven times in one display list names that list once.
fn merge_notes(raw: Vec<RawNote>, max_notes: usize) -> Vec<MeshNote> {
    // Per note: the subjects named (at most MAX_SUBJECTS_PER_NOTE, each once), and the other
    // distinct ones, counted (a set made only for a note of that many).
    let mut out: Vec<(MeshNote, Vec<String>, std::collections::HashSet<String>)> = Vec::new();
    // By file, then message: looked up by reference (the strings are copied once, when a
    // note is new, not at every note met).
    let mut index: HashMap<Option<String>, HashMap<String, usize>> = HashMap::new();
    for r in raw {
        match index.get(&r.file).and_then(|by_message| by_message.get(&r.message)) {
            Some(&i) => {
                let (_, subjects, others) = &mut out[i];
                if subjects.contains(&r.subject) {
                    continue;
                }
                if subjects.len() < MAX_SUBJECTS_PER_NOTE {
                    subjects.push(r.subject);
                } else {
                    others.insert(r.subject);
                }
            }
            None => {
                index.entry(r.file.clone()).or_default().insert(r.message.clone(), out.len());
                let others = std::collections::HashSet::new();
                out.push((MeshNote { file: r.file, offset: r.offset, message: r.message }, vec![r.subject], others));
            }
        }
    }
    let total = out.len();
    let mut notes: Vec<MeshNote> = out
        .into_iter()
        .take(max_notes)
        .map(|(mut note, subjects, others)| {
            let n = subjects.len() + others.len();
            let more = if n > subjects.len() { format!(" and {} more", n - subjects.len()) } else { String::new() };
            note.message = format!("{} ({}{more})", note.message, subjects.join(", "));
            note
        })
        .collect();
    if total > max_notes {
        let first = notes.first().map(|n| (n.file.clone(), n.offset)).unwrap_or((None, None));
        notes.push(MeshNote {
            file: first.0,
            offset: first.1,
            message: format!(
                "{} more notes about these meshes not listed (limit `max_skeleton_notes` ({max_notes}))",
                total - max_notes
            ),
        });
    }
    notes
}

/// Decode the meshes of every limb with a display list (LOD: the near one). `rest_world` are
/// the rest-pose world matrices by limb, used to put skinned vertices in model space.
/// Animated Skin limbs (segmentType 4) become skinned meshes ([`crate::skin`]).
/// Returns the meshes and notes about what could not be decoded; errors in skin limb data are
/// errors when `strict` (a file the asset table names), notes otherwise. Meshes are named
/// after the display lists `names` (the asset table's reading chosen for the file) names.
/// Curve limbs draw both their display lists (`SkelCurve_DrawLimb` at lod 1). `draw` is what
/// the actor sets before the skeleton is drawn (environment colour, segments). `earlier` are
/// the document's skeletons built before this one with the same `budget` (this one's meshes
/// become the next's `earlier`), where textures decoded before are.
#[allow(clippy::too_many_arguments)]
pub fn skeleton_meshes(
    ctx: &Ctx,
    s: &SkelDef,
    rest_world: &[Mat4],
    budget: &mut Budget,
    strict: bool,
    names: Option<&crate::names::Variant>,
    draw: &DrawState,
    earlier: &[boneyard_core::SkeletonInfo],
) -> boneyard_core::Result<SkeletonMeshes> {
    let mut runtime = Vec::new();
    let mut images = Vec::new();
    // The RDP's colour state carries from one limb's display list to the next (in draw
    // order), as on the console: a limb may draw with the colours an earlier one set.
    let mut colours = ColourState::start(draw);
    let mut notes = Vec::new();
    let limb_at = |l: usize| Some(ctx.home_offset(s.limbs[l].addr));
    // Flex matrix slots: limbs with a display list, in draw order.
    let slots: Vec<usize> = s.order.iter().copied().filter(|&l| s.limbs[l].dlists[0] != 0).collect();
    // Most limbs that draw make one mesh: room for that many at once (a mesh is large, and
    // growing the vector from empty copied each one several times).
    let mut meshes = Vec::with_capacity(slots.len());
    let flex = s.ty.binds_matrix_segment();
    let skin_mats = s
        .limbs
        .iter()
        .any(|l| matches!(l.skin, Some((SKIN_LIMB_TYPE_ANIMATED, seg)) if seg != 0))
        .then(|| crate::skin::limb_matrices(s, None));
    let curve = s.ty == crate::skeleton::SkelType::Curve;
    // The vertex buffers and maps of the groups made so far, emptied, for the next limbs'
    // groups: allocated once per document rather than once per group (or skeleton).
    let mut scratch = std::mem::take(&mut budget.scratch);
    'limbs: for &l in &s.order {
        let skin = match (s.limbs[l].skin, &skin_mats) {
            (Some((SKIN_LIMB_TYPE_ANIMATED, seg)), Some(mats)) if seg != 0 => {
                match crate::skin::read_animated_limb(ctx, s, l, seg, mats, &mut budget.skin_entries) {
                    Ok(m) => Some(m),
                    Err(e) if strict => return Err(e),
                    Err(e) => {
                        notes.push(RawNote {
                            file: e.file.clone(),
                            offset: e.offset.or_else(|| limb_at(l)),
                            message: format!("skin data not read, the mesh is left out: {}", e.kind),
                            subject: format!("limb {l}"),
                        });
                        continue;
                    }
                }
            }
            _ => None,
        };
        // Curve limbs: `SkelCurve_DrawLimb` at lod 1 (what the game's callers pass) draws
        // dList[0] then dList[1]; other limbs draw their (near) display list.
        // (An array and its length: a vector here was an allocation per limb.)
        let (mut lists, mut n) = match &skin {
            Some(m) => ([m.dlist, 0, 0], 1),
            None if curve => ([s.limbs[l].dlists[0], s.limbs[l].dlists[1], 0], 2),
            None => ([s.limbs[l].dlists[0], 0, 0], 1),
        };
        // The list the actor draws in its place (Link's sheath with his shield), where the limb
        // has one of its own: from the object's own segment.
        if let Some((_, off, _)) = draw.in_place_of.filter(|p| usize::from(p.0) == l && lists[0] != 0 && skin.is_none())
        {
            lists[0] = (lists[0] & 0xFF00_0000) | off;
        }
        // Then what the actor's PostLimbDraw draws after this limb, with its matrix (the
        // chest's box and lid), from the object's own segment.
        if let Some(&(_, off, _)) = draw.post_limb.iter().find(|p| usize::from(p.0) == l) {
            lists[n] = u32::from(crate::layout::SEG_OBJECT) << 24 | off;
            n += 1;
        }
        for &dl in &lists[..n] {
            if dl == 0 {
                continue;
            }
            if budget.commands.left() == 0 {
                notes.push(RawNote {
                    file: None,
                    offset: limb_at(l),
                    message: "meshes not decoded, the document's budget of display list commands is used up (limit `max_document_commands`)"
                        .to_string(),
                    subject: format!("limb {l} and after"),
                });
                break 'limbs;
            }
            let vtx_buf = skin.as_ref().map(|m| m.vtx_bytes());
            let (max_depth, max_commands, max_groups) =
                (budget.max_depth, budget.max_commands, budget.max_limb_textures);
            let memos = (&mut budget.materials, budget.vertex_keys);
            let mut d = Decoder::new(ctx, l, &slots, flex, &mut budget.commands, memos, draw);
            (d.max_depth, d.max_commands, d.max_groups) = (max_depth, max_commands, max_groups);
            d.set_colours(colours);
            d.skin_vertices = vtx_buf.as_deref();
            d.groups = std::mem::take(&mut scratch.groups);
            d.scratch = std::mem::take(&mut scratch);
            let run = d.run(dl);
            colours = d.colours();
            // A note at segmented address `addr` (in the file its segment is bound to), else at
            // `fallback` in the file being read.
            let mut note_at = |addr: u32, fallback: Option<u64>, message: String, subject: String| {
                let (file, offset) = match ctx.place(addr) {
                    Some((file, off)) => (file, Some(off)),
                    None => (None, fallback),
                };
                notes.push(RawNote { file, offset, message, subject });
            };
            for (cmd, message) in std::mem::take(&mut d.skipped.at_commands) {
                // At the command concerned (a G_SETCOMBINE, a call cut), in its own file.
                note_at(cmd, limb_at(l), message, format!("limb {l}, display list {dl:#010x}"));
            }
            for (message, subject) in d.skipped.describe(l, max_groups) {
                // At the limb's display list (the calls are in it or in what it calls).
                note_at(dl, limb_at(l), message, format!("{subject}, display list {dl:#010x}"));
            }
            if let Err(msg) = run {
                // The display list's own offset, in the file its segment is bound to (none when
                // the segment is bound to no file).
                note_at(dl, None, format!("display list {dl:#010x} not drawn past: {msg}"), format!("limb {l}"));
            }
            let mut base = names
                .and_then(|v| v.name_at(dl & 0xFF_FFFF, 'D'))
                .map(str::to_string)
                .unwrap_or_else(|| unnamed_display_list(l, dl));
            scratch = std::mem::take(&mut d.scratch);
            let mut groups = std::mem::take(&mut d.groups);
            // The groups that drew triangles become meshes; every group's buffers go back to
            // the spares.
            let many = groups.iter().filter(|g| !g.indices.is_empty()).count() > 1;
            let mut gi = 0;
            for mut g in groups.drain(..) {
                if g.indices.is_empty() {
                    scratch.spare.push(g.into_spare());
                    continue;
                }
                // One group: the only name made from `base`, which it takes.
                let name = if many { numbered(&base, gi) } else { std::mem::take(&mut base) };
                let rt = g.runtime_texture(meshes.len());
                let made = Made { earlier, meshes: &meshes };
                let mesh = match &skin {
                    Some(m) => g.make_skin_mesh(ctx, name, (s, l), m, budget, made, &mut notes),
                    None => g.make_mesh(ctx, name, (s, l), rest_world, budget, made, &mut notes),
                };
                if let Some(rt) = rt.filter(|_| mesh.texture.is_some()) {
                    runtime.push(rt);
                }
                images.push(g.tex.map(|t| t.0).filter(|_| mesh.texture.is_some()));
                meshes.push(mesh);
                scratch.spare.push(g.into_spare());
                gi += 1;
            }
            scratch.groups = groups;
        }
    }
    budget.scratch = scratch;
    Ok(SkeletonMeshes { meshes, notes: merge_notes(notes, budget.max_skeleton_notes), runtime, images })
}

/// What [`skeleton_meshes`] draws of a skeleton.
pub struct SkeletonMeshes {
    /// The meshes, limb by limb in draw order.
    pub meshes: Vec<Mesh>,
    /// What was left out or approximated, merged.
    pub notes: Vec<MeshNote>,
    /// The meshes whose texture the actor binds at run time (Link's eyes and mouth).
    pub runtime: Vec<RuntimeTexture>,
    /// Per mesh, the address of the image it was given (`None`: no texture decoded).
    pub images: Vec<Option<u32>>,
}

/// The meshes of the document so far: the earlier skeletons' and this one's (the next mesh
/// made is `meshes.len()`), which hold the textures [`Budget::decoded`] points at.
#[derive(Clone, Copy)]
struct Made<'m> {
    earlier: &'m [boneyard_core::SkeletonInfo],
    meshes: &'m [Mesh],
}

impl Made<'_> {
    /// Where the next mesh will be: (skeleton, mesh).
    fn next(&self) -> (usize, usize) {
        (self.earlier.len(), self.meshes.len())
    }

    /// The texture of mesh `mesh` of skeleton `skel`.
    fn texture(&self, (skel, mesh): (usize, usize)) -> Option<&boneyard_core::model::Texture> {
        let meshes = match self.earlier.get(skel) {
            Some(info) => &info.meshes[..],
            None => self.meshes,
        };
        meshes.get(mesh)?.texture.as_ref()
    }
}

/// `format!("{base}_{gi}")`. Meshes' names are put together by hand: the formatting
/// machinery cost more than the rest of a mesh's bookkeeping.
fn numbered(base: &str, gi: usize) -> String {
    let mut s = String::with_capacity(base.len() + 4);
    s.push_str(base);
    s.push('_');
    boneyard_core::text::push_decimal(&mut s, gi as u64, 1);
    s
}

/// `format!("limb_{l:02}_dl_{:06X}", dl & 0xFF_FFFF)`.
fn unnamed_display_list(l: usize, dl: u32) -> String {
    let mut s = String::with_capacity(17);
    s.push_str("limb_");
    boneyard_core::text::push_decimal(&mut s, l as u64, 2);
    s.push_str("_dl_");
    boneyard_core::text::push_hex(&mut s, u64::from(dl & 0xFF_FFFF), 6);
    s
}

/// Texture state at a triangle: (image address, format, size, width, height, palette address).
type TexKey = (u32, u8, u8, usize, usize, Option<u32>);
/// Material state at a triangle: the combiner's material and the texture filter (bilinear).
type MatKey = (([u32; 4], [bool; 4]), bool, AlphaMode);

/// The colour state one display list leaves to the next.
#[derive(Clone, Copy)]
struct ColourState {
    prim: Option<[f32; 4]>,
    env: Option<[f32; 4]>,
    combine: Option<(Combine, u32)>,
    othermode_h: u32,
    othermode_l: u32,
}

impl ColourState {
    fn start(draw: &DrawState) -> Self {
        ColourState {
            prim: draw.prim,
            env: draw.env,
            combine: None,
            othermode_h: OTHERMODE_H_SETUP,
            othermode_l: OTHERMODE_L_SETUP,
        }
    }
}

/// A mesh whose texture is in a segment the actor binds (Link's eyes and mouth): what to
/// decode when the draw binds another texture there ([`RuntimeTexture::decode`]).
#[derive(Debug, Clone, PartialEq)]
pub struct RuntimeTexture {
    /// Index of the mesh in the skeleton's meshes.
    pub mesh: usize,
    /// The segment (8, 9) the display list names.
    pub segment: u8,
    /// The offset in that segment.
    pub offset: u32,
    fmt: u8,
    siz: u8,
    width: usize,
    height: usize,
    tlut: Option<u32>,
    bilinear: bool,
    texel_rgb: bool,
    texel_alpha: bool,
    wrap: [TextureWrap; 2],
}

impl RuntimeTexture {
    /// The texture when the draw binds the segment to `base` (a segmented address of a file
    /// of `ctx`); None when its bytes are not there.
    pub fn decode(&self, ctx: &Ctx, base: u32) -> Option<boneyard_core::model::Texture> {
        let addr = base.wrapping_add(self.offset);
        let bytes = (self.width * self.height * texture::bits(self.siz)).div_ceil(8);
        let data = ctx.bytes(addr, bytes, 0).ok()?;
        let pal = match self.tlut {
            Some(t) => Some(ctx.tail(t, 0).ok()?),
            None => None,
        };
        let mut t = texture::decode(self.fmt, self.siz, self.width, self.height, data, pal)?;
        apply_texel_use(&mut t, self.bilinear, self.texel_rgb, self.texel_alpha);
        t.wrap = self.wrap;
        Some(t)
    }
}

/// The filter, and white where the combiner does not read the texture's colour or alpha.
fn apply_texel_use(t: &mut boneyard_core::model::Texture, bilinear: bool, rgb: bool, alpha: bool) {
    t.filter = if bilinear { TextureFilter::ThreePoint } else { TextureFilter::Point };
    if rgb && alpha {
        return;
    }
    // Just decoded, so not shared yet (were it shared, this would copy it first).
    for px in std::sync::Arc::make_mut(&mut t.rgba).chunks_exact_mut(4) {
        if !rgb {
            px[..3].fill(255);
        }
        if !alpha {
            px[3] = 255;
        }
    }
}

/// One vertex as loaded into the vertex cache.
#[derive(Debug, Clone, Copy)]
struct Vtx {
    addr: u32,
    /// What the mesh's vertex index knows it by: its address, unless `gSPModifyVertex` changed
    /// it after the load (then a key of its own, so that the changed vertex is not merged with
    /// the one loaded from that address).
    key: u32,
    bone: usize,
    pos: Vec3,
    st: [i16; 2],
    /// Vertex colour (lighting off) or white with the vertex alpha (lighting on).
    color: [f32; 4],
    /// With lighting on, the vertex's normal: the colour bytes' first three as signed bytes
    /// (F3DEX2's `Vtx_tn`), the direction the RSP lights it by.
    normal: Option<[i8; 3]>,
    /// Under texture generation (`G_TEXTURE_GEN`), the (s, t) the RSP makes from the normal in
    /// place of the vertex's own, in the vertex's units before `gSPTexture`'s scale
    /// ([`texgen_st`]).
    gen_st: Option<[f32; 2]>,
}

/// The (s, t) F3DEX2's texture generation makes from a vertex's normal (`Vtx_tn`, signed bytes
/// of length about 127), before `gSPTexture`'s scale: the normal's components along the
/// look-at directions (the camera's right and up, `gSPLookAt`; here the view from the front,
/// +X and +Y, the limb unturned), each in [-1, 1], mapped to [0, 0.5] of the scaled range
/// (`(d + 1) / 4`: with the usual scale 0x07C0 a 32-texel texture is spanned once), or with
/// `G_TEXTURE_GEN_LINEAR` by the angle, `acos(-d) / (2 pi)`. The game recomputes them every
/// frame from its camera; a file holds one set, so this is the view from the front.
fn texgen_st(n: [i8; 3], linear: bool) -> [f32; 2] {
    let along = |c: i8| {
        let d = (f32::from(c) / 127.0).clamp(-1.0, 1.0);
        let frac = if linear { (-d).acos() / std::f32::consts::TAU } else { (d + 1.0) / 4.0 };
        // In the units `st` has before the scale (s10.5 of a scale of 1): 65536 a whole range.
        frac * 65536.0
    };
    [along(n[0]), along(n[1])]
}

/// Triangles sharing one texture.
struct Group {
    tex: Option<TexKey>,
    /// How the render tile samples past the texture, across and down.
    wrap: [TextureWrap; 2],
    mat_key: MatKey,
    mat: Material,
    bilinear: bool,
    /// The G_SETTIMG command that named the texture.
    tex_cmd: u32,
    /// The texture came from a segment the actor binds: (segment, offset in it).
    runtime_seg: Option<(u8, u32)>,
    scale: [f32; 2],
    origin: [f32; 2],
    /// The group's vertices, in first-use order: kept whole while triangles come (one vector
    /// growing rather than four), split into the mesh's attributes at the end, each allocated
    /// once at its length.
    verts: Vec<Vtx>,
    indices: Vec<u32>,
    seen: WordIndex,
}

/// A finished group's vertex vector, index vector and vertex map, emptied (capacity kept) for
/// a new group.
type SpareGroup = (Vec<Vtx>, Vec<u32>, WordIndex);

impl Group {
    /// The group's vertex vector and map, emptied for the next group: what a group holds
    /// depends only on what is pushed and inserted, never on the capacity.
    fn into_spare(self) -> SpareGroup {
        let (mut verts, mut indices, mut seen) = (self.verts, self.indices, self.seen);
        verts.clear();
        indices.clear();
        seen.clear();
        (verts, indices, seen)
    }

    /// What [`RuntimeTexture`] needs, when the texture is in a segment the actor binds.
    fn runtime_texture(&self, mesh: usize) -> Option<RuntimeTexture> {
        let (segment, offset) = self.runtime_seg?;
        let (_, fmt, siz, width, height, tlut) = self.tex?;
        Some(RuntimeTexture {
            mesh,
            segment,
            offset,
            fmt,
            siz,
            width,
            height,
            tlut,
            bilinear: self.bilinear,
            texel_rgb: self.mat.texel_rgb,
            texel_alpha: self.mat.texel_alpha,
            wrap: self.wrap,
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn make_mesh(
        &mut self,
        ctx: &Ctx,
        name: String,
        (s, limb): (&SkelDef, usize),
        rest_world: &[Mat4],
        budget: &mut Budget,
        made: Made,
        notes: &mut Vec<RawNote>,
    ) -> Mesh {
        let rigid = self.verts.iter().all(|v| v.bone == limb);
        let mut mesh = if rigid {
            Mesh::rigid(name, s.bone_of_limb[limb], self.verts.iter().map(|v| v.pos).collect(), self.indices.to_vec())
        } else {
            let positions = self
                .verts
                .iter()
                .map(|v| rest_world.get(v.bone).map(|m| m.transform_point3(v.pos)).unwrap_or(v.pos))
                .collect();
            let joints = self.verts.iter().map(|v| [s.bone_of_limb[v.bone] as u16, 0, 0, 0]).collect();
            let weights = vec![[1.0, 0.0, 0.0, 0.0]; self.verts.len()];
            let mut m = Mesh::rigid(name, 0, positions, self.indices.to_vec());
            m.binding = MeshBinding::Skinned { joints, weights };
            m
        };
        mesh.normals = self.normals(|v, n| match rigid {
            true => n,
            // Turned as the position was, into model space.
            false => rest_world.get(v.bone).map_or(n, |m| m.transform_vector3(n)),
        });
        self.finish(ctx, mesh, budget, made, notes)
    }

    /// The vertices' normals, each turned by `place` and made unit, when every vertex was
    /// loaded with lighting on (a group drawn lit and unlit in parts has no normals for the
    /// unlit ones; none are given). A normal of zero bytes, which lights nothing, points up.
    fn normals(&self, place: impl Fn(&Vtx, Vec3) -> Vec3) -> Option<Vec<Vec3>> {
        if self.verts.iter().any(|v| v.normal.is_none()) {
            return None;
        }
        // (glam's `try_normalize`, with the processor's square root: `core::ieee`.)
        let unit = |n: [i8; 3], v: &Vtx| {
            boneyard_core::ieee::normalize_or(place(v, Vec3::new(n[0].into(), n[1].into(), n[2].into())), Vec3::Y)
        };
        Some(self.verts.iter().map(|v| unit(v.normal.unwrap_or_default(), v)).collect())
    }

    /// Colours and the texture (within the document's texel budget); a texture not decoded is
    /// a note.
    fn finish(&self, ctx: &Ctx, mut mesh: Mesh, budget: &mut Budget, made: Made, notes: &mut Vec<RawNote>) -> Mesh {
        let m = &self.mat;
        // Vertex colours as the combiner reads them: a part it does not read is white.
        mesh.colors = m.shade().then(|| {
            self.verts
                .iter()
                .map(|v| {
                    let c = v.color;
                    let rgb = if m.shade_rgb { [c[0], c[1], c[2]] } else { [1.0; 3] };
                    [rgb[0], rgb[1], rgb[2], if m.shade_alpha { c[3] } else { 1.0 }]
                })
                .collect()
        });
        mesh.base_color = m.factor;
        mesh.alpha_mode = self.mat_key.2;
        let Some((addr, fmt, siz, w, h, tlut)) = self.tex.filter(|_| m.texture()) else { return mesh };
        // Where the texture is, for the note when it is not decoded; in a segment bound to no
        // file, the command that names it.
        let bound = ctx.place(addr).is_some();
        let (file_at, off_at) = match ctx.place(addr).or_else(|| ctx.place(self.tex_cmd)) {
            Some((file, off)) => (file, Some(off)),
            None => (None, None),
        };
        let mut note = |why: String| {
            notes.push(RawNote {
                file: file_at.clone(),
                offset: off_at,
                message: format!("texture {addr:#010x} ({w}x{h}, format {fmt}, size {siz}) not decoded: {why}"),
                subject: mesh.name.clone(),
            })
        };
        let texels = &mut budget.texels;
        if w.saturating_mul(h) > budget.max_texture_texels.as_usize() {
            let max = budget.max_texture_texels;
            note(format!(
                "{} texels, more than one texture may have (limit `{}` ({}))",
                w.saturating_mul(h),
                max.name,
                max.max
            ));
        } else if !texels.try_spend((w * h) as u64) {
            let max = texels.limit();
            note(format!(
                "more texels than the document's budget left ({} of limit `{}` ({}))",
                texels.left(),
                max.name,
                max.max
            ));
        } else {
            let bytes = (w * h * texture::bits(siz)).div_ceil(8);
            let data = ctx.bytes(addr, bytes, 0).ok();
            let pal = tlut.and_then(|t| ctx.tail(t, 0).ok());
            let use_ = [self.bilinear, m.texel_rgb, m.texel_alpha];
            let decode = || {
                let mut t = texture::decode(fmt, siz, w, h, data?, pal)?;
                apply_texel_use(&mut t, use_[0], use_[1], use_[2]);
                Some(t)
            };
            let at = ctx.resolve(addr, bytes, 0).ok();
            let pal_at = tlut.and_then(|t| ctx.resolve(t, 0, 0).ok());
            let decoded = match at {
                Some(at) => match budget.decoded.entry(texture_key(at, pal_at, [fmt, siz], [w, h], use_)) {
                    // Decoded before: the mesh that holds it is made (a mesh given a texture
                    // keeps it), so it is there to copy.
                    std::collections::hash_map::Entry::Occupied(e) => {
                        e.get().and_then(|held| made.texture(held)).cloned()
                    }
                    std::collections::hash_map::Entry::Vacant(e) => {
                        let t = decode();
                        // This mesh will hold it: the next one made.
                        e.insert(t.is_some().then(|| made.next()));
                        t
                    }
                },
                None => decode(),
            };
            if decoded.is_none() {
                note(match (data, bound) {
                    (_, false) => {
                        let seg = split_segmented(addr).0;
                        format!("segment {seg:#X} is bound to no file ({})", unbound_why(seg))
                    }
                    (None, _) => format!("its {bytes} bytes are not in the file"),
                    _ => "the format or its palette is not readable".to_string(),
                });
            }
            if let Some(mut t) = decoded {
                // A texture drawn by several meshes is decoded once; how it wraps is the
                // drawing tile's.
                t.wrap = self.wrap;
                let (sx, sy) = (self.scale[0] / (32.0 * w as f32), self.scale[1] / (32.0 * h as f32));
                let (ox, oy) = (self.origin[0] / w as f32, self.origin[1] / h as f32);
                let st = |v: &Vtx| v.gen_st.unwrap_or([v.st[0] as f32, v.st[1] as f32]);
                mesh.uvs = Some(
                    self.verts
                        .iter()
                        .map(|v| {
                            let [s, t] = st(v);
                            glam::Vec2::new(s * sx - ox, t * sy - oy)
                        })
                        .collect(),
                );
                if self.verts.iter().any(|v| v.gen_st.is_some()) {
                    notes.push(RawNote {
                        file: file_at.clone(),
                        offset: off_at,
                        message: format!(
                            "texture {addr:#010x} is mapped by texture generation (G_TEXTURE_GEN: a reflection the RSP makes from the camera every frame): its coordinates made once from the normals, as seen from the front"
                        ),
                        subject: mesh.name.clone(),
                    });
                }
                mesh.texture = Some(t);
            }
        }
        mesh
    }

    /// An animated Skin limb's triangles: vertices from the limb's buffer (segment 8) are in
    /// model space and follow their modification's limbs; any other vertex is drawn under the
    /// actor's matrix alone, which the nearest a skin can say is the root bone.
    #[allow(clippy::too_many_arguments)]
    fn make_skin_mesh(
        &mut self,
        ctx: &Ctx,
        name: String,
        (s, limb): (&SkelDef, usize),
        skin: &crate::skin::SkinLimbMesh,
        budget: &mut Budget,
        made: Made,
        notes: &mut Vec<RawNote>,
    ) -> Mesh {
        // Each vertex's address: the `seen` key it was added under.
        let addrs: Vec<u32> = self.verts.iter().map(|v| v.addr).collect();
        let n = addrs.len();
        let (mut joints, mut weights, mut normals) =
            (Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n));
        let mut outside = 0;
        for &addr in &addrs {
            let (seg, off) = split_segmented(addr);
            let v = (seg == SEG_SKIN_VERTICES && (off as usize).is_multiple_of(VTX_SIZE))
                .then(|| skin.vertices.get(off as usize / VTX_SIZE))
                .flatten()
                .and_then(|v| v.as_ref());
            match v {
                Some(v) => {
                    let (j, w) = crate::skin::lbs_weights(s, &v.influences);
                    joints.push(j);
                    weights.push(w);
                    let nv = Vec3::new(v.normal[0] as f32, v.normal[1] as f32, v.normal[2] as f32);
                    normals.push(boneyard_core::ieee::normalize_or(nv, Vec3::Y));
                }
                None => {
                    outside += 1;
                    joints.push([s.bone_of_limb.first().copied().unwrap_or(0) as u16, 0, 0, 0]);
                    weights.push([1.0, 0.0, 0.0, 0.0]);
                    normals.push(Vec3::Y);
                }
            }
        }
        if outside > 0 {
            notes.push(RawNote {
                file: None,
                offset: Some(ctx.home_offset(s.limbs[limb].addr)),
                message: format!("{outside} vertices not from the skin buffer follow the root"),
                subject: name.clone(),
            });
        }
        let positions = self.verts.iter().map(|v| v.pos).collect();
        let mut mesh = Mesh::rigid(name, 0, positions, self.indices.to_vec());
        mesh.binding = MeshBinding::Skinned { joints, weights };
        mesh.normals = Some(normals);
        self.finish(ctx, mesh, budget, made, notes)
    }
}

#[derive(Clone, Copy, Default)]
struct Tile {
    fmt: u8,
    siz: u8,
    palette: u8,
    size: [u16; 4],
    /// Across (s) and down (t): the clamp and mirror bits (G_TX_CLAMP 2, G_TX_MIRROR 1) and the
    /// wrap mask (the texture repeats every 2^mask texels; 0: no wrap).
    cm: [u8; 2],
    mask: [u8; 2],
}

impl Tile {
    /// The texture the tile samples, (width, height), and how it wraps past them. The tile's
    /// size is the area the triangles' coordinates span, which is larger than the image when it
    /// repeats (`object_bg`'s sweater: a 32x32 image drawn over a 320x32 tile with mask 5):
    /// the image is one period of the wrap, as the decomp's asset table sizes it (every image
    /// the OoT objects draw from their own segment: `tests/textures.rs`).
    fn image(&self) -> (usize, usize, [TextureWrap; 2]) {
        let spans = [self.size[2].saturating_sub(self.size[0]), self.size[3].saturating_sub(self.size[1])]
            .map(|d| usize::from(d >> 2) + 1);
        let axis = |k: usize| {
            let period = (self.mask[k] > 0).then(|| 1usize << self.mask[k].min(10));
            let len = period.map_or(spans[k], |p| spans[k].min(p));
            let wrap = match (period, self.cm[k] & 1 != 0, self.cm[k] & 2 != 0) {
                // Clamped at the tile's edge, which is within one period: the image, clamped
                // (the Chu girl's navel: 16x16, clamped both ways, drawn once).
                (Some(p), _, true) if spans[k] <= p => TextureWrap::ClampToEdge,
                (Some(_), true, _) => TextureWrap::MirroredRepeat,
                (Some(_), false, _) => TextureWrap::Repeat,
                // No wrap: past the tile the RDP clamps when told to (and reads other
                // texels of its memory when not, which no image can say).
                (None, _, true) => TextureWrap::ClampToEdge,
                (None, _, false) => TextureWrap::Repeat,
            };
            (len, wrap)
        };
        let ((w, ws), (h, wt)) = (axis(0), axis(1));
        (w, h, [ws, wt])
    }
}

struct Decoder<'a, 'b> {
    ctx: &'b Ctx<'a>,
    limb: usize,
    /// The limb whose matrix is loaded (vertices are in its space).
    bone: usize,
    slots: &'b [usize],
    flex: bool,
    /// The document's commands left (shared by every limb and skeleton).
    commands_left: &'b mut boneyard_core::Budget,
    /// `Limits::max_dlist_depth`.
    max_depth: usize,
    /// `Limits::max_dlist_commands`.
    max_commands: usize,
    /// `Limits::max_limb_textures`: groups (textures with their materials) of the limb.
    max_groups: usize,
    cache: [Option<Vtx>; VTX_CACHE],
    /// `gSPModifyVertex` commands applied so far (the keys of changed vertices).
    edits: u32,
    /// Per vertex cache slot, the group its vertex was last added to and its index there (None
    /// since the slot was loaded): a triangle reusing a slot in the same group finds the index
    /// without hashing, the one `Group::seen` holds (its entries never change).
    slot_index: [Option<(usize, u32)>; VTX_CACHE],
    groups: Vec<Group>,
    /// G_SETTIMG: (address, format, size).
    timg: (u32, u8, u8),
    /// Where the last G_SETTIMG command is (for notes about its texture).
    timg_cmd: u32,
    /// The last G_SETTIMG named a segment the actor binds (segment, offset), and the image
    /// loaded last did.
    timg_runtime: Option<(u8, u32)>,
    loaded_runtime: Option<(u8, u32)>,
    /// The image last loaded into TMEM and the last palette.
    loaded: Option<u32>,
    tlut: Option<u32>,
    tiles: [Tile; 8],
    tex_on: bool,
    tex_scale: [f32; 2],
    /// The RSP's geometry mode word (`G_GEOMETRYMODE`: the bits cleared, then set); read for
    /// `G_LIGHTING`, `G_TEXTURE_GEN` and `G_TEXTURE_GEN_LINEAR`.
    geometry: u32,
    /// An animated Skin limb's Vtx buffer, which the game binds to segment 8.
    skin_vertices: Option<&'b [u8]>,
    /// What the actor set before the draw.
    draw: &'b DrawState,
    prim: Option<[f32; 4]>,
    env: Option<[f32; 4]>,
    /// The last G_SETCOMBINE and where it is (None: not set, the old flat reading: texture
    /// times vertex colour).
    combine: Option<(Combine, u32)>,
    /// G_SETOTHERMODE_H's word.
    othermode_h: u32,
    /// G_SETOTHERMODE_L's word (render mode, alpha compare).
    othermode_l: u32,
    /// The material of the current state, computed at the first triangle after a change.
    material: Option<(MatKey, Material)>,
    /// The group of the current texture and colour state ([`Decoder::group`]'s answer, None
    /// inside: past the limb's groups), kept while only commands that leave that state alone
    /// run (vertex loads, triangles, matrices, calls): a limb's triangles come in long runs
    /// under one state, and finding the group at each cost a tenth of their decoding.
    group_now: Option<Option<usize>>,
    /// Whether `group_now` is used (always, but in the test that checks it against finding
    /// the group at every triangle).
    cache_groups: bool,
    /// The seed of the groups' vertex maps ([`Budget::vertex_keys`]).
    vertex_keys: WordKeys,
    /// The document's materials evaluated so far ([`Budget::materials`]).
    materials: &'b mut WordMap<MaterialInputs, (Material, Option<String>)>,
    /// The run's stacks and the spare group buffers, kept from run to run ([`Scratch`]).
    scratch: Scratch,
    /// What was not followed or drawn, told once per limb after the run.
    skipped: Skipped,
}

/// Why segment `seg` holds nothing: gameplay_keep's (segment 4), which the game always has
/// loaded, was not given; any other the actor binds at run time.
fn unbound_why(seg: u8) -> &'static str {
    if seg == SEG_GAMEPLAY_KEEP {
        "it is gameplay_keep's, which was not given: give it with this file"
    } else {
        "the actor binds it at run time"
    }
}

/// What one limb's display list run left out.
#[derive(Default)]
struct Skipped {
    /// Display lists in segments no file is bound to (bound at run time by the actor: eyes,
    /// materials), by segment: how many calls.
    unbound: std::collections::BTreeMap<u8, usize>,
    /// G_VTX loads whose bytes are not there, and the first one's address.
    vertex_loads: usize,
    first_vertex_load: Option<u32>,
    /// Triangles using a vertex not loaded.
    triangles_without_vertices: usize,
    /// `gSPModifyVertex` commands on a vertex not loaded.
    modify_unloaded: usize,
    /// Commands this decoder does not apply (none of the debug ROM's objects has any), by
    /// opcode: how many, and the first one's address.
    not_applied: std::collections::BTreeMap<u8, (usize, u32)>,
    /// Triangles past the limb's `Limits::max_limb_textures` textures.
    triangles_past_groups: usize,
    /// Notes at a command's own address (combiners approximated, loops cut), once each.
    at_commands: Vec<(u32, String)>,
    /// The addresses of `at_commands`, looked up at each G_SETCOMBINE's first triangle (a
    /// search of the list each time made a crafted list of 32,000 combiners take seconds).
    noted: std::collections::HashSet<u32>,
}

impl Skipped {
    /// What was skipped, as (message, subject) pairs for limb `l`.
    fn describe(&self, l: usize, max_groups: usize) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = self
            .unbound
            .iter()
            .map(|(seg, n)| {
                let message = format!(
                    "display lists in segment {seg:#X}, which no file is bound to ({}), not followed",
                    unbound_why(*seg)
                );
                (message, format!("limb {l}: {}", boneyard_core::text::counted(*n, "call", "calls")))
            })
            .collect();
        let mut parts = Vec::new();
        if self.vertex_loads > 0 {
            parts.push(format!(
                "{} vertex loads not readable (the first from {:#010x})",
                self.vertex_loads,
                self.first_vertex_load.unwrap_or(0)
            ));
        }
        for (op, (n, first)) in &self.not_applied {
            parts.push(format!("{n} commands of opcode {op:#04X} not applied (the first at {first:#010x})"));
        }
        if self.modify_unloaded > 0 {
            parts.push(format!(
                "{} vertex changes (gSPModifyVertex) of vertices not loaded left out",
                self.modify_unloaded
            ));
        }
        if self.triangles_without_vertices > 0 {
            parts.push(format!("{} triangles using vertices not loaded left out", self.triangles_without_vertices));
        }
        if self.triangles_past_groups > 0 {
            parts.push(format!(
                "{} triangles past the limb's {max_groups} textures left out (limit `max_limb_textures`)",
                self.triangles_past_groups
            ));
        }
        if !parts.is_empty() {
            out.push((parts.join("; "), format!("limb {l}")));
        }
        out
    }
}

const G_TEXTURE: u8 = 0xD7;
const G_GEOMETRYMODE: u8 = 0xD9;
const G_LOADTLUT: u8 = 0xF0;
const G_SETTILESIZE: u8 = 0xF2;
const G_LOADBLOCK: u8 = 0xF3;
const G_LOADTILE: u8 = 0xF4;
const G_SETTILE: u8 = 0xF5;
const G_SETTIMG: u8 = 0xFD;
const G_SETOTHERMODE_H: u8 = 0xE3;
const G_SETOTHERMODE_L: u8 = 0xE2;
const G_RDPSETOTHERMODE: u8 = 0xEF;
const G_SETPRIMCOLOR: u8 = 0xFA;
const G_SETENVCOLOR: u8 = 0xFB;
const G_SETCOMBINE: u8 = 0xFC;
/// G_SETOTHERMODE_H fields (gbi.h G_MDSFT_*): cycle type (bits 20-21, 1 = 2-cycle), texture
/// filter (bits 12-13: 0 point, 2 bilinear, 3 average).
const G_MDSFT_CYCLETYPE: u32 = 20;
const G_MDSFT_TEXTFILT: u32 = 12;
/// What `Gfx_SetupDL_25Opa` leaves before an actor draws: G_CYC_2CYCLE | G_TF_BILERP.
const OTHERMODE_H_SETUP: u32 = 1 << G_MDSFT_CYCLETYPE | 2 << G_MDSFT_TEXTFILT;
/// G_SETOTHERMODE_L fields (gbi.h): alpha compare (bits 0-1: G_AC_THRESHOLD = 1) and the
/// render mode's flags.
const G_AC_THRESHOLD: u32 = 1;
const CVG_X_ALPHA: u32 = 0x1000;
const FORCE_BL: u32 = 0x4000;
const ZMODE_MASK: u32 = 0xC00;
const ZMODE_XLU: u32 = 0x800;
const ZMODE_DEC: u32 = 0xC00;
/// What `Gfx_SetupDL_25Opa` leaves: G_RM_AA_ZB_OPA_SURF2 (AA_EN | Z_CMP | Z_UPD | IM_RD |
/// ALPHA_CVG_SEL, opaque), no alpha compare.
const OTHERMODE_L_SETUP: u32 = 0x2078;

/// How the render mode draws alpha: translucent surfaces (FORCE_BL with an XLU or decal depth
/// mode: G_RM_AA_ZB_XLU_SURF and the like) blend; "texture edge" modes (CVG_X_ALPHA: coverage
/// times the texel's alpha, G_RM_AA_ZB_TEX_EDGE) and the alpha-compare threshold cut out; the
/// rest (G_RM_AA_ZB_OPA_SURF...) draw every texel.
fn alpha_mode(othermode_l: u32) -> AlphaMode {
    if othermode_l & FORCE_BL != 0 && matches!(othermode_l & ZMODE_MASK, ZMODE_XLU | ZMODE_DEC) {
        AlphaMode::Blend
    } else if othermode_l & CVG_X_ALPHA != 0 || othermode_l & 3 == G_AC_THRESHOLD {
        AlphaMode::Mask
    } else {
        AlphaMode::Opaque
    }
}

/// F3DEX2 G_LIGHTING geometry-mode bit.
const G_LIGHTING: u32 = 0x0020_0000;
/// F3DEX2 geometry mode: texture coordinates made from the normals (reflection mapping), and
/// made by angle rather than linearly in the component.
const G_TEXTURE_GEN: u32 = 0x0004_0000;
const G_TEXTURE_GEN_LINEAR: u32 = 0x0008_0000;

/// The material of combiner `c` (in 2-cycle mode when `two_cycle`) with the primitive and
/// environment colours set (None: not set, white read), and the note it gives (None: exact,
/// reading only colours that were set).
fn material_of(
    c: Combine,
    two_cycle: bool,
    prim: Option<[f32; 4]>,
    env: Option<[f32; 4]>,
) -> (Material, Option<String>) {
    let k = Constants { prim: prim.unwrap_or([1.0; 4]), env: env.unwrap_or([1.0; 4]) };
    let m = combiner::evaluate(c, two_cycle, &k);
    let mut why = Vec::new();
    if let Some(a) = &m.approximated {
        why.push(format!("approximated ({a})"));
    }
    let (reads_env, reads_prim) = combiner::reads_env_prim(c);
    if env.is_none() && reads_env {
        why.push("the environment colour is set at run time by the actor: white assumed".into());
    }
    if prim.is_none() && reads_prim {
        why.push("the primitive colour is set at run time by the actor: white assumed".into());
    }
    let note = (!why.is_empty()).then(|| {
        let cycles = if two_cycle { "2-cycle" } else { "1-cycle" };
        let formula = combiner::describe(c);
        format!("combiner {:08X} {:08X} ({cycles}: {formula}): {}", c.w0, c.w1, why.join("; "))
    });
    (m, note)
}

impl<'a, 'b> Decoder<'a, 'b> {
    fn new(
        ctx: &'b Ctx<'a>,
        limb: usize,
        slots: &'b [usize],
        flex: bool,
        commands_left: &'b mut boneyard_core::Budget,
        (materials, vertex_keys): (&'b mut WordMap<MaterialInputs, (Material, Option<String>)>, WordKeys),
        draw: &'b DrawState,
    ) -> Self {
        Decoder {
            ctx,
            limb,
            bone: limb,
            slots,
            flex,
            commands_left,
            // Set from the document's budget before the run (`skeleton_meshes`).
            max_depth: 0,
            max_commands: 0,
            max_groups: 0,
            cache: [None; VTX_CACHE],
            edits: 0,
            slot_index: [None; VTX_CACHE],
            groups: Vec::new(),
            timg: (0, 0, 0),
            timg_cmd: 0,
            timg_runtime: None,
            loaded_runtime: None,
            loaded: None,
            tlut: None,
            tiles: [Tile::default(); 8],
            tex_on: false,
            tex_scale: [1.0; 2],
            geometry: G_LIGHTING,
            skin_vertices: None,
            skipped: Skipped::default(),
            draw,
            prim: draw.prim,
            env: draw.env,
            combine: None,
            othermode_h: OTHERMODE_H_SETUP,
            othermode_l: OTHERMODE_L_SETUP,
            material: None,
            group_now: None,
            cache_groups: true,
            vertex_keys,
            materials,
            scratch: Scratch::default(),
        }
    }

    fn set_colours(&mut self, c: ColourState) {
        (self.prim, self.env, self.combine) = (c.prim, c.env, c.combine);
        (self.othermode_h, self.othermode_l) = (c.othermode_h, c.othermode_l);
        self.material = None;
        self.group_now = None;
    }

    fn colours(&self) -> ColourState {
        ColourState {
            prim: self.prim,
            env: self.env,
            combine: self.combine,
            othermode_h: self.othermode_h,
            othermode_l: self.othermode_l,
        }
    }

    /// The material of the current colour state (and a note, once per G_SETCOMBINE, when it
    /// is approximated or reads a colour nobody set): its key, the material held in
    /// `self.material` until the state changes (this runs at every triangle).
    fn material(&mut self) -> MatKey {
        match &self.material {
            Some((key, _)) => *key,
            None => {
                let mat = self.evaluate_material();
                let bilinear = (self.othermode_h >> G_MDSFT_TEXTFILT) & 3 != 0;
                let key = (mat.key(), bilinear, alpha_mode(self.othermode_l));
                self.material = Some((key, mat));
                key
            }
        }
    }

    /// The combiner's material for the current colour state, from the document's memo
    /// ([`Budget::materials`]) when the same state was met before; its note is told once per
    /// G_SETCOMBINE command.
    fn evaluate_material(&mut self) -> Material {
        let two_cycle = (self.othermode_h >> G_MDSFT_CYCLETYPE) & 3 == 1;
        let Some((c, at)) = self.combine else {
            return Material::UNCOMBINED;
        };
        let (prim, env) = (self.prim, self.env);
        let (mat, note) = self
            .materials
            .entry(material_inputs(c, two_cycle, prim, env))
            .or_insert_with(|| material_of(c, two_cycle, prim, env));
        if let Some(note) = note {
            if self.skipped.noted.insert(at) {
                self.skipped.at_commands.push((at, note.clone()));
            }
        }
        mat.clone()
    }

    /// The group for the current texture state (created on first use).
    fn group(&mut self) -> Option<usize> {
        let t = self.tiles[0];
        let mut wrap = [TextureWrap::Repeat; 2];
        let key = match (self.tex_on, self.loaded) {
            (true, Some(addr)) => {
                let (w, h, how) = t.image();
                wrap = how;
                let pal = (t.fmt == texture::FMT_CI)
                    .then(|| self.tlut.map(|p| p.wrapping_add(if t.siz == 0 { t.palette as u32 * 32 } else { 0 })))
                    .flatten();
                Some((addr, t.fmt, t.siz, w, h, pal))
            }
            _ => None,
        };
        let mat_key = self.material();
        // The uvs are made per group, by its scale and tile origin: triangles drawn under
        // another of either are another group, even of the same image.
        let origin = [t.size[0] as f32 / 4.0, t.size[1] as f32 / 4.0];
        if let Some(i) = self.groups.iter().position(|g| {
            g.tex == key
                && g.wrap == wrap
                && g.mat_key == mat_key
                && (key.is_none() || (g.scale == self.tex_scale && g.origin == origin))
        }) {
            return Some(i);
        }
        if self.groups.len() >= self.max_groups {
            return None;
        }
        let mat = match &self.material {
            Some((_, mat)) => mat.clone(),
            // Set by `material` above; evaluated again all the same (the same state, its
            // note already told).
            None => self.evaluate_material(),
        };
        let (verts, indices, seen) = self.scratch.spare.pop().unwrap_or_else(|| {
            (Vec::with_capacity(VTX_CACHE), Vec::with_capacity(3 * VTX_CACHE), WordIndex::new(self.vertex_keys))
        });
        self.groups.push(Group {
            tex: key,
            wrap,
            mat_key,
            mat,
            bilinear: mat_key.1,
            tex_cmd: self.timg_cmd,
            runtime_seg: key.and(self.loaded_runtime),
            scale: self.tex_scale,
            origin,
            // Spare or new (room for a vertex cache's worth at once: most groups hold at least
            // that many, and growing from empty cost a fifth of the triangles' decoding). The
            // mesh gets a copy of the indices at their length, the vector goes back to the spares.
            verts,
            indices,
            seen,
        });
        Some(self.groups.len() - 1)
    }
    fn run(&mut self, start: u32) -> Result<(), String> {
        let mut pc = start;
        let s = &mut self.scratch;
        s.running.clear();
        s.calls.clear();
        s.running.push(start);
        s.ran.push(start);
        for _ in 0..self.max_commands {
            if !self.commands_left.try_spend(1) {
                return Err(
                    "stopped: the document's budget of display list commands is used up (limit `max_document_commands`)"
                        .to_string(),
                );
            }
            // A list the actor bound to a segment no file provides is read where the file's
            // would be.
            let Some(cmd) = self.ctx.record_if_there::<Gfx>(pc).or_else(|| self.draw.list_command(pc)) else {
                // A display list in a segment nobody provides: skip it, as if it were empty.
                if self.scratch.calls.is_empty() && pc == start && !self.ctx.is_valid(pc) {
                    *self.skipped.unbound.entry(split_segmented(pc).0).or_default() += 1;
                    return Ok(());
                }
                return Err(format!("command at {pc:#010x} is outside its segment"));
            };
            let Gfx { w0, w1 } = cmd;
            pc = pc.wrapping_add(GFX_SIZE as u32);
            let op = (w0 >> 24) as u8;
            // Any command but these may change what `group` reads (the tiles, the loaded
            // image and palette, the colours, the combiner, the render modes).
            if !matches!(
                op,
                G_VTX | G_TRI1 | G_TRI2 | G_QUAD | G_MTX | G_POPMTX | G_DL | G_ENDDL | G_GEOMETRYMODE | G_SETTIMG
            ) {
                self.group_now = None;
            }
            match op {
                G_VTX => self.vtx(w0, w1),
                G_MODIFYVTX => self.modify_vertex(w0, w1, pc.wrapping_sub(8)),
                G_TRI1 => self.tri(w0),
                G_TRI2 | G_QUAD => {
                    self.tri(w0);
                    self.tri(w1);
                }
                G_MTX => {
                    let (seg, off) = split_segmented(w1);
                    // F3DEX2 param byte: G_MTX_PROJECTION (4) loads the projection, not ours.
                    let projection = w0 & 0x04 != 0;
                    if self.flex && !projection && seg == SEG_FLEX_MATRICES && off % MTX_SIZE == 0 {
                        if let Some(&l) = self.slots.get((off / MTX_SIZE) as usize) {
                            self.bone = l;
                        }
                    }
                }
                G_POPMTX => self.bone = self.limb,
                G_TEXTURE => {
                    self.tex_on = w0 & 0xFF != 0;
                    let sc = |v: u32| if v == 0 { 1.0 } else { v as f32 / 65536.0 };
                    self.tex_scale = [sc(w1 >> 16), sc(w1 & 0xFFFF)];
                }
                G_GEOMETRYMODE => self.geometry = (self.geometry & w0) | w1,
                G_SETTIMG => {
                    // A texture in a segment the actor binds (Link's eyes and mouth).
                    let (seg, off) = split_segmented(w1);
                    let (addr, runtime) = match self.draw.segments[seg as usize] {
                        Some(base) if !self.ctx.is_valid(w1) => (base.wrapping_add(off), Some((seg, off))),
                        _ => (w1, None),
                    };
                    self.timg_runtime = runtime;
                    self.timg = (addr, ((w0 >> 21) & 7) as u8, ((w0 >> 19) & 3) as u8);
                    self.timg_cmd = pc.wrapping_sub(8);
                }
                G_SETPRIMCOLOR | G_SETENVCOLOR => {
                    let c = w1.to_be_bytes().map(|b| b as f32 / 255.0);
                    if (w0 >> 24) as u8 == G_SETPRIMCOLOR {
                        self.prim = Some(c);
                    } else {
                        self.env = Some(c);
                    }
                    self.material = None;
                }
                G_SETCOMBINE => {
                    self.combine = Some((Combine { w0, w1 }, pc.wrapping_sub(8)));
                    self.material = None;
                }
                G_SETOTHERMODE_H | G_SETOTHERMODE_L => {
                    // gsSPSetOtherMode: shift = 32 - sft - len, len - 1 in the low byte.
                    let len = (w0 & 0xFF) + 1;
                    let shift = 32u32.saturating_sub(((w0 >> 8) & 0xFF) + len);
                    let mask = (((1u64 << len.min(32)) - 1) << shift.min(31)) as u32;
                    let word = if (w0 >> 24) as u8 == G_SETOTHERMODE_H {
                        &mut self.othermode_h
                    } else {
                        &mut self.othermode_l
                    };
                    *word = (*word & !mask) | (w1 & mask);
                    self.material = None;
                }
                G_RDPSETOTHERMODE => {
                    // gsDPSetOtherMode: both words whole, the high one in w0's low 24 bits.
                    (self.othermode_h, self.othermode_l) = (w0 & 0x00FF_FFFF, w1);
                    self.material = None;
                }
                G_LOADBLOCK | G_LOADTILE => {
                    self.loaded = Some(self.timg.0);
                    self.loaded_runtime = self.timg_runtime;
                }
                G_LOADTLUT => self.tlut = Some(self.timg.0),
                G_SETTILE => {
                    let t = &mut self.tiles[((w1 >> 24) & 7) as usize];
                    t.fmt = ((w0 >> 21) & 7) as u8;
                    t.siz = ((w0 >> 19) & 3) as u8;
                    t.palette = ((w1 >> 20) & 0xF) as u8;
                    // gsDPSetTile's w1: cmt 18-19, maskt 14-17, cms 8-9, masks 4-7.
                    t.cm = [((w1 >> 8) & 3) as u8, ((w1 >> 18) & 3) as u8];
                    t.mask = [((w1 >> 4) & 0xF) as u8, ((w1 >> 14) & 0xF) as u8];
                }
                G_SETTILESIZE => {
                    let t = &mut self.tiles[((w1 >> 24) & 7) as usize];
                    t.size = [
                        ((w0 >> 12) & 0xFFF) as u16,
                        (w0 & 0xFFF) as u16,
                        ((w1 >> 12) & 0xFFF) as u16,
                        (w1 & 0xFFF) as u16,
                    ];
                }
                G_DL => {
                    let call = (w0 >> 16) & 0xFF == 0;
                    if !self.ctx.is_valid(w1) && self.draw.list_command(w1).is_none() {
                        // Unbound segment (run-time textures, eyes): skipped, and told.
                        *self.skipped.unbound.entry(split_segmented(w1).0).or_default() += 1;
                        continue;
                    }
                    if self.scratch.running.contains(&w1) {
                        // Into a list already running: the RSP would loop (or overflow its
                        // stack) for ever. Cut: this command ends the current list.
                        let how = if call { "calls" } else { "branches to" };
                        self.skipped.noted.insert(pc.wrapping_sub(8));
                        self.skipped.at_commands.push((
                            pc.wrapping_sub(8),
                            format!("the display list {how} {w1:#010x}, which is already running (a loop): cut there"),
                        ));
                        match self.scratch.calls.pop() {
                            Some((ret, level)) => {
                                self.scratch.running.truncate(level);
                                pc = ret;
                                continue;
                            }
                            None => return Ok(()),
                        }
                    }
                    let s = &mut self.scratch;
                    s.ran.push(w1);
                    if call {
                        if s.calls.len() >= self.max_depth {
                            return Err(format!(
                                "limit `max_dlist_depth` ({}) exceeded: {} nested display-list calls",
                                self.max_depth,
                                s.calls.len() + 1
                            ));
                        }
                        s.calls.push((pc, s.running.len()));
                        s.running.push(w1);
                    } else if s.running.len() - s.calls.last().map_or(0, |&(_, level)| level) < MAX_BRANCHES_TRACKED {
                        // Past that many, a loop is caught by the command limit instead.
                        s.running.push(w1);
                    }
                    pc = w1;
                }
                G_ENDDL => match self.scratch.calls.pop() {
                    Some((ret, level)) => {
                        self.scratch.running.truncate(level);
                        pc = ret;
                    }
                    None => return Ok(()),
                },
                // Syncs and no-ops change nothing a model holds.
                G_NOOP | G_SPNOOP | G_RDPLOADSYNC | G_RDPPIPESYNC | G_RDPTILESYNC | G_RDPFULLSYNC => {}
                _ => {
                    let (n, _) = self.skipped.not_applied.entry(op).or_insert((0, pc.wrapping_sub(8)));
                    *n += 1;
                }
            }
        }
        Err(format!("limit `max_dlist_commands` ({}) exceeded: more commands in one list (a loop?)", self.max_commands))
    }

    /// `gSPModifyVertex(vtx, where, val)`: the loaded vertex `vtx` gets new texture
    /// coordinates or a new colour (the game places a texture gradient per vertex this way:
    /// Ruto's skin, the fish's body). A changed vertex is a vertex of its own from then on. The
    /// screen position and depth words cannot be held by a model: left, with a note at `at`.
    fn modify_vertex(&mut self, w0: u32, val: u32, at: u32) {
        let slot = (w0 & 0xFFFF) as usize / 2;
        let word = ((w0 >> 16) & 0xFF) as u8;
        let lighting = self.lighting();
        let Some(Some(v)) = self.cache.get_mut(slot) else {
            self.skipped.modify_unloaded += 1;
            return;
        };
        match word {
            G_MWO_POINT_ST => v.st = [(val >> 16) as i16, val as i16],
            G_MWO_POINT_RGBA => {
                let c = val.to_be_bytes().map(|b| b as f32 / 255.0);
                // As a load does: with lighting on, only the alpha is the vertex's.
                v.color = if lighting { [1.0, 1.0, 1.0, c[3]] } else { c };
            }
            _ => {
                if self.skipped.noted.insert(at) {
                    self.skipped.at_commands.push((
                        at,
                        format!("gSPModifyVertex of word {word:#X} (a screen position or depth) not applied"),
                    ));
                }
                return;
            }
        }
        // A key no load makes (addresses are below 0x1000_0000), new at each change.
        self.edits = self.edits.wrapping_add(1);
        v.key = 0xF000_0000 | (self.edits & 0x0FFF_FFFF);
        self.slot_index[slot] = None;
    }

    /// `G_LIGHTING` on: vertices carry normals, not colours.
    fn lighting(&self) -> bool {
        self.geometry & G_LIGHTING != 0
    }

    fn vtx(&mut self, w0: u32, addr: u32) {
        let n = ((w0 >> 12) & 0xFF) as usize;
        let end = ((w0 >> 1) & 0x7F) as usize;
        if n == 0 || n > end || end > VTX_CACHE {
            return;
        }
        let v0 = end - n;
        let data = match (split_segmented(addr), self.skin_vertices) {
            ((SEG_SKIN_VERTICES, off), Some(buf)) => {
                (off as usize).checked_add(n * VTX_SIZE).and_then(|end| buf.get(off as usize..end))
            }
            _ => self.ctx.bytes_if_there(addr, n * VTX_SIZE),
        };
        if data.is_none() {
            self.skipped.vertex_loads += 1;
            self.skipped.first_vertex_load.get_or_insert(addr);
        }
        for i in 0..n {
            self.slot_index[v0 + i] = None;
            // `data` holds the n vertices, so each record reads.
            self.cache[v0 + i] = data.and_then(|d| VtxT::parse_at(d, i * VTX_SIZE).ok()).map(|b| {
                let c = b.cn.map(|v| v as f32 / 255.0);
                let color = if self.lighting() { [1.0, 1.0, 1.0, c[3]] } else { c };
                let normal = self.lighting().then(|| [b.cn[0] as i8, b.cn[1] as i8, b.cn[2] as i8]);
                // The RSP generates coordinates only from lit vertices' normals.
                let texgen = (self.geometry & G_TEXTURE_GEN != 0).then_some(self.geometry & G_TEXTURE_GEN_LINEAR != 0);
                let gen_st = normal.zip(texgen).map(|(n, linear)| texgen_st(n, linear));
                let addr = addr.wrapping_add((i * VTX_SIZE) as u32);
                Vtx {
                    addr,
                    key: addr,
                    bone: self.bone,
                    pos: Vec3::new(b.ob[0] as f32, b.ob[1] as f32, b.ob[2] as f32),
                    st: b.tc,
                    color,
                    normal,
                    gen_st,
                }
            });
        }
    }

    fn tri(&mut self, w: u32) {
        let idx = [(w >> 16) & 0xFF, (w >> 8) & 0xFF, w & 0xFF].map(|v| (v / 2) as usize);
        let loaded = |i: usize| matches!(self.cache.get(i), Some(Some(_)));
        if !idx.into_iter().all(loaded) {
            self.skipped.triangles_without_vertices += 1;
            return;
        };
        // A degenerate triangle draws nothing: nothing is left out.
        if idx[0] == idx[1] || idx[1] == idx[2] || idx[0] == idx[2] {
            return;
        }
        let gi = match self.group_now.filter(|_| self.cache_groups) {
            Some(gi) => gi,
            None => {
                let gi = self.group();
                self.group_now = Some(gi);
                gi
            }
        };
        let Some(gi) = gi else {
            self.skipped.triangles_past_groups += 1;
            return;
        };
        let g = &mut self.groups[gi];
        for slot in idx {
            let memo = self.slot_index.get_mut(slot);
            let at = match memo.as_deref() {
                Some(&Some((group, at))) if group == gi => at,
                _ => {
                    // Loaded: checked above.
                    let Some(&Some(v)) = self.cache.get(slot) else { continue };
                    let next = g.verts.len() as u32;
                    let at = g.seen.get_or_insert((v.key, v.bone), next);
                    if at == next {
                        g.verts.push(v);
                    }
                    if let Some(m) = memo {
                        *m = Some((gi, at));
                    }
                    at
                }
            };
            g.indices.push(at);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Texture generation's coordinates, worked by hand: a normal along +X is the far end of
    /// the range's first half (`(1 + 1) / 4` = 0.5), along -X its start, across the middle; by
    /// angle (`G_TEXTURE_GEN_LINEAR`) `acos(-d) / 2 pi` gives the same ends and middle.
    #[test]
    fn texture_generation_maps_normals_as_worked_by_hand() {
        for linear in [false, true] {
            assert_eq!(texgen_st([127, -127, 0], linear), [32768.0, 0.0]);
            assert_eq!(texgen_st([0, 0, 127], linear), [16384.0, 16384.0]);
        }
        // Half way up (d = 0.5): (0.5 + 1) / 4 = 0.375 linearly; acos(-0.5) / 2 pi = 1/3.
        let d = (63.5f32 / 127.0 * 127.0) as i8; // 63: d = 63/127
        let [_, t] = texgen_st([0, d, 0], false);
        assert!((t - (f32::from(d) / 127.0 + 1.0) / 4.0 * 65536.0).abs() < 1e-2, "{t}");
        let [_, t] = texgen_st([0, d, 0], true);
        assert!((t - (-(f32::from(d) / 127.0)).acos() / std::f32::consts::TAU * 65536.0).abs() < 1e-2, "{t}");
        // A byte past 127 in length (-128) is clamped to -1.
        assert_eq!(texgen_st([-128, 0, 0], false)[0], 0.0);
    }

    /// A note met several times for one subject names it once; the count of the ones not
    /// named is of distinct subjects.
    #[test]
    fn merged_notes_name_each_subject_once() {
        let raw = |message: &str, subject: &str| RawNote {
            file: None,
            offset: Some(8),
            message: message.to_string(),
            subject: subject.to_string(),
        };
        let mut notes: Vec<RawNote> = (0..11).map(|_| raw("combiner", "limb 27")).collect();
        notes.push(raw("combiner", "limb 3"));
        notes.push(raw("texture", "limb 3"));
        let merged = merge_notes(notes, 8);
        let said: Vec<&str> = merged.iter().map(|n| n.message.as_str()).collect();
        assert_eq!(said, ["combiner (limb 27, limb 3)", "texture (limb 3)"]);
        let many: Vec<RawNote> =
            (0..40).flat_map(|i| [raw("m", &format!("limb {i}")), raw("m", &format!("limb {i}"))]).collect();
        let merged = merge_notes(many, 8);
        assert!(merged[0].message.ends_with(", limb 15 and 24 more)"), "{}", merged[0].message);
    }
    use proptest::prelude::*;

    /// `Decoder::material`'s reading before the document's memo: evaluated at each state
    /// change, its note pushed when no note is at the command yet.
    fn material_unmemoized(
        combine: Option<(Combine, u32)>,
        othermode_h: u32,
        prim: Option<[f32; 4]>,
        env: Option<[f32; 4]>,
        at_commands: &mut Vec<(u32, String)>,
    ) -> Material {
        let two_cycle = (othermode_h >> G_MDSFT_CYCLETYPE) & 3 == 1;
        match combine {
            None => Material::UNCOMBINED,
            Some((c, at)) => {
                // The reading at each state change is `material_of`'s (which the memo calls
                // once per distinct state); its note is pushed when none is at the command yet.
                let (m, note) = material_of(c, two_cycle, prim, env);
                if let Some(note) = note.filter(|_| !at_commands.iter().any(|(a, _)| *a == at)) {
                    at_commands.push((at, note));
                }
                m
            }
        }
    }

    fn colour(pick: u8) -> Option<[f32; 4]> {
        match pick % 4 {
            0 => None,
            1 => Some([1.0; 4]),
            2 => Some([0.5, 0.25, 0.0, 1.0]),
            _ => Some([0.2, 0.4, 0.6, 0.8]),
        }
    }

    /// [`Made::texture`] finds a texture in an earlier skeleton's meshes or in this one's.
    #[test]
    fn made_finds_textures_where_they_are() {
        let tex = |w: u32| boneyard_core::model::Texture {
            width: w,
            height: 1,
            rgba: vec![0; 4 * w as usize].into(),
            filter: Default::default(),
            wrap: Default::default(),
        };
        let mesh = |t: Option<u32>| {
            let mut m = Mesh::rigid("m".to_string(), 0, vec![Vec3::ZERO; 3], vec![0, 1, 2]);
            m.texture = t.map(tex);
            m
        };
        let skeleton = boneyard_core::Skeleton::new("s".to_string(), Vec::new()).expect("an empty skeleton");
        let earlier = vec![boneyard_core::SkeletonInfo {
            id: "a".into(),
            name: "a".into(),
            source: "a".into(),
            skeleton,
            meshes: vec![mesh(None), mesh(Some(2))],
            extra: Default::default(),
        }];
        let current = vec![mesh(Some(3))];
        let made = Made { earlier: &earlier, meshes: &current };
        assert_eq!(made.next(), (1, 1));
        assert_eq!(made.texture((0, 1)).map(|t| t.width), Some(2));
        assert_eq!(made.texture((1, 0)).map(|t| t.width), Some(3));
        assert!(made.texture((0, 0)).is_none() && made.texture((1, 1)).is_none() && made.texture((0, 2)).is_none());
    }

    /// One file `t` of `data`, bound to segment 6 (by [`SEGMENT_6_MAP`]).
    fn segment_6(data: Vec<u8>) -> Vec<crate::segment::SegFile> {
        vec![crate::segment::SegFile {
            name: "t".into(),
            stem: "t".into(),
            shown: "t".into(),
            segment: 6,
            data,
            lenient: false,
        }]
    }

    /// Segment 6 is the first file's.
    const SEGMENT_6_MAP: [Option<usize>; 16] = {
        let mut map = [None; 16];
        map[6] = Some(0);
        map
    };

    /// `gSPModifyVertex`: a loaded vertex's texture coordinates (or colour) replaced; the
    /// triangles drawn before keep the vertex as loaded, those after use the changed one, a
    /// vertex of its own; a screen-depth change is not applied and is said at its command.
    #[test]
    fn modify_vertex_changes_the_vertex_for_what_follows() {
        let mut data = vec![0u8; 0x400];
        // Three vertices at 0x0: x = 100 * i, tc (0, 0), colour 10,20,30,40.
        for i in 0..3usize {
            data[i * 16..i * 16 + 2].copy_from_slice(&(100 * i as i16).to_be_bytes());
            data[i * 16 + 12..i * 16 + 16].copy_from_slice(&[10, 20, 30, 40]);
        }
        let op = |o: u8| u32::from(o) << 24;
        let list: [(u32, u32); 7] = [
            (op(G_VTX) | (3 << 12) | (3 << 1), 0x0600_0000),
            (op(G_TRI1) | (2 << 8) | 4, 0),
            (op(G_MODIFYVTX) | u32::from(G_MWO_POINT_ST) << 16 | 2, 0x0100_FE00),
            (op(G_MODIFYVTX) | u32::from(G_MWO_POINT_RGBA) << 16 | 4, 0x0102_0304),
            (op(G_MODIFYVTX) | 0x1C << 16 | 4, 0x0000_1234),
            (op(G_TRI1) | (2 << 8) | 4, 0),
            (op(G_ENDDL), 0),
        ];
        for (w0, w1) in list {
            data.extend(w0.to_be_bytes());
            data.extend(w1.to_be_bytes());
        }
        let files = segment_6(data);
        let ctx = Ctx::new(&files, SEGMENT_6_MAP, 0);
        let draw = DrawState::default();
        let limits = boneyard_core::Limits::default();
        let mut commands = boneyard_core::Budget::new(boneyard_core::limit!(limits, max_document_commands), "commands");
        let mut memo = WordMap::default();
        let mut d = Decoder::new(&ctx, 0, &[], false, &mut commands, (&mut memo, WordKeys::default()), &draw);
        (d.max_depth, d.max_commands, d.max_groups) = (10, 65536, 4);
        d.run(0x0600_0400).unwrap();
        assert_eq!(d.groups.len(), 1);
        let g = &d.groups[0];
        let verts: Vec<([i16; 2], [f32; 4])> = g.verts.iter().map(|v| (v.st, v.color)).collect();
        // Lighting is on (the actor setup's state): a colour word gives only the alpha, as a
        // load's does.
        let loaded = [1.0, 1.0, 1.0, 40.0 / 255.0];
        let changed = [1.0, 1.0, 1.0, 4.0 / 255.0];
        assert_eq!(
            verts,
            [([0, 0], loaded), ([0, 0], loaded), ([0, 0], loaded), ([0x100, -0x200], loaded), ([0, 0], changed)]
        );
        assert_eq!(g.indices, [0, 1, 2, 0, 3, 4]);
        // The two changed vertices sit where the loaded ones do.
        assert_eq!(g.verts[3].pos, g.verts[1].pos);
        assert_eq!(g.verts[4].pos, g.verts[2].pos);
        let at = 0x0600_0400 + 4 * 8;
        assert!(
            d.skipped.at_commands.iter().any(|(a, m)| *a == at && m.contains("word 0x1C")),
            "{:?}",
            d.skipped.at_commands
        );
    }

    /// One random command of the kinds that draw or change what [`Decoder::group`] reads.
    fn random_command(pick: u8, a: u32, b: u32) -> (u32, u32) {
        let combiners = [(0xFC12_7EA0, 0xFFFF_F3F8), (0xFCFF_FFFF, 0xFFFE_793C), (0xFC26_2A60, 0x150C_937F)];
        let op = |o: u8| u32::from(o) << 24;
        let tri = |x: u32| (((x % 32) * 2) << 16) | (((x / 32 % 32) * 2) << 8) | ((x / 1024 % 32) * 2);
        let fmt_siz = |x: u32| ((x % 5) << 21) | ((x / 5 % 4) << 19);
        match pick % 16 {
            // gSPModifyVertex of a slot's colour, texture coordinates or screen depth.
            15 => {
                let word = u32::from([G_MWO_POINT_RGBA, G_MWO_POINT_ST, 0x1C][(a % 3) as usize]);
                (op(G_MODIFYVTX) | (word << 16) | ((a >> 2) % 32 * 2), b)
            }
            0 | 1 => {
                // G_VTX: n vertices into slots end - n .. end, from the 32 at 0x06000000.
                let n = a % 32 + 1;
                let end = n + b % (33 - n);
                (op(G_VTX) | (n << 12) | (end << 1), 0x0600_0000 + (b % (33 - n)) * 16)
            }
            2 | 3 => (op(G_TRI1) | tri(a), 0),
            4 => (op(G_TRI2) | tri(a), tri(b)),
            5 => (op(G_SETTILE) | fmt_siz(a), ((b % 3) << 24) | ((b / 3 % 16) << 20)),
            6 => (
                op(G_SETTILESIZE) | ((a & 0x3F) << 12) | ((a >> 6) & 0x3F),
                ((b % 2) << 24) | (((b >> 8) & 0x7C) << 12) | (b & 0x7C),
            ),
            7 => (op(G_TEXTURE) | (a % 2), b),
            8 => (op(G_SETTIMG) | fmt_siz(a), 0x0600_0200 + (b % 8) * 32),
            9 => (op(if a.is_multiple_of(2) { G_LOADBLOCK } else { G_LOADTLUT }), 0),
            10 => (op(if a.is_multiple_of(2) { G_SETPRIMCOLOR } else { G_SETENVCOLOR }), b),
            11 => combiners[(a % 3) as usize],
            12 => (op(G_SETOTHERMODE_H) | ((32 - G_MDSFT_CYCLETYPE - 2) << 8) | 1, (b % 4) << G_MDSFT_CYCLETYPE),
            13 => (op(G_GEOMETRYMODE) | (a & 0x00FF_FFFF), b & G_LIGHTING),
            _ => (op(if a.is_multiple_of(2) { G_POPMTX } else { G_SETTIMG }), 0x0600_0300),
        }
    }

    proptest! {
        /// Keeping the group while the state stands finds the groups, vertices and notes
        /// finding it at every triangle does.
        #[test]
        fn kept_groups_match_groups_found_per_triangle(
            commands in proptest::collection::vec((any::<u8>(), any::<u32>(), any::<u32>()), 0..200),
            bytes in proptest::collection::vec(any::<u8>(), 0x400),
            max_groups in 1usize..5,
        ) {
            let mut data = bytes;
            for &(pick, a, b) in &commands {
                let (w0, w1) = random_command(pick, a, b);
                data.extend(w0.to_be_bytes());
                data.extend(w1.to_be_bytes());
            }
            data.extend((u32::from(G_ENDDL) << 24).to_be_bytes());
            data.extend(0u32.to_be_bytes());
            let files = segment_6(data);
            let ctx = Ctx::new(&files, SEGMENT_6_MAP, 0);
            let draw = DrawState::default();
            let limits = boneyard_core::Limits::default();
            let run = |cache_groups: bool| {
                let mut commands = boneyard_core::Budget::new(boneyard_core::limit!(limits, max_document_commands), "commands");
                let mut memo = WordMap::default();
                let mut d = Decoder::new(&ctx, 0, &[], false, &mut commands, (&mut memo, WordKeys::default()), &draw);
                (d.max_depth, d.max_commands, d.max_groups) = (10, 65536, max_groups);
                d.cache_groups = cache_groups;
                let result = d.run(0x0600_0400);
                let groups: Vec<_> = d
                    .groups
                    .iter()
                    .map(|g| {
                        let verts: Vec<_> =
                            g.verts.iter().map(|v| (v.addr, v.bone, v.pos.to_array(), v.st, v.color)).collect();
                        (g.tex, g.mat_key, g.tex_cmd, g.runtime_seg, g.scale, g.origin, verts, g.indices.clone())
                    })
                    .collect();
                let s = &d.skipped;
                let skipped = (s.triangles_without_vertices, s.triangles_past_groups, s.vertex_loads, s.at_commands.clone());
                (result, groups, skipped)
            };
            let (kept, found) = (run(true), run(false));
            prop_assert_eq!(&kept.0, &found.0);
            prop_assert_eq!(&kept.1, &found.1);
            prop_assert_eq!(&kept.2, &found.2);
        }

        /// The hand-made mesh names are what `format!` made.
        #[test]
        fn mesh_names_match_format(base in "[a-zA-Z_]{0,12}", gi in any::<usize>(), l in any::<usize>(), dl in any::<u32>()) {
            prop_assert_eq!(numbered(&base, gi), format!("{base}_{gi}"));
            prop_assert_eq!(numbered(&base, gi % 100), format!("{base}_{}", gi % 100));
            prop_assert_eq!(unnamed_display_list(l, dl), format!("limb_{l:02}_dl_{:06X}", dl & 0xFF_FFFF));
            prop_assert_eq!(unnamed_display_list(l % 300, dl), format!("limb_{:02}_dl_{:06X}", l % 300, dl & 0xFF_FFFF));
        }

        /// The packed memo keys tell inputs apart exactly as the tuples they replace did.
        #[test]
        fn packed_keys_match_tuples(
            m in proptest::collection::vec((0u32..3, 0u32..3, any::<bool>(), 0u8..4, 0u8..4), 2),
            t in proptest::collection::vec(
                ((0usize..2, 0usize..3), proptest::option::of((0usize..2, 0usize..3)), 0u8..3, 0u8..3, 1usize..3, 1usize..3, any::<[bool; 3]>()),
                2,
            ),
        ) {
            let mi = |&(w0, w1, two, p, e): &(u32, u32, bool, u8, u8)| {
                let c = Combine { w0, w1 };
                let (p, e) = (colour(p), colour(e));
                let bits = |c: Option<[f32; 4]>| c.map(|c| c.map(f32::to_bits));
                ((c, two, bits(p), bits(e)), material_inputs(c, two, p, e))
            };
            let (a, b) = (mi(&m[0]), mi(&m[1]));
            prop_assert_eq!(a.0 == b.0, a.1 == b.1);
            type T = ((usize, usize), Option<(usize, usize)>, u8, u8, usize, usize, [bool; 3]);
            let tk = |&(at, pal, fmt, siz, w, h, use_): &T| {
                ((at, pal, [fmt, siz], [w, h], use_), texture_key(at, pal, [fmt, siz], [w, h], use_))
            };
            let (a, b) = (tk(&t[0]), tk(&t[1]));
            prop_assert_eq!(a.0 == b.0, a.1 == b.1);
        }

        /// The memoized materials (shared by the decoders of a document, one per display
        /// list) and their notes are the unmemoized reading's, state after state.
        #[test]
        fn memoized_materials_match(
            states in proptest::collection::vec(
                (0u8..6, any::<u32>(), any::<u32>(), any::<bool>(), any::<u8>(), any::<u8>(), 0u32..4),
                1..40,
            )
        ) {
            // A few combiners (met again and again, as display lists set them) and random ones.
            let known = [
                Combine { w0: 0xFC12_7EA0, w1: 0xFFFF_F3F8 },
                Combine::SHADE,
                Combine { w0: 0xFC26_2A60, w1: 0x150C_937F },
                Combine { w0: 0xFC11_9604, w1: 0xFF5B_FFF8 },
            ];
            let files: Vec<crate::segment::SegFile> = Vec::new();
            let ctx = Ctx::new(&files, [None; 16], 0);
            let draw = DrawState::default();
            let limits = boneyard_core::Limits::default();
            let mut commands = boneyard_core::Budget::new(boneyard_core::limit!(limits, max_document_commands), "commands");
            let mut memo = WordMap::default();
            // Two decoders in turn over the same memo, as two display lists of a document.
            for half in states.chunks(states.len().div_ceil(2)) {
                let mut d = Decoder::new(&ctx, 0, &[], false, &mut commands, (&mut memo, WordKeys::default()), &draw);
                let mut old_notes = Vec::new();
                for &(pick, w0, w1, two_cycle, prim, env, at) in half {
                    let at = 0x0600_0000 + at * 8;
                    d.combine = match pick {
                        0 => None,
                        1..=4 => Some((known[pick as usize - 1], at)),
                        _ => Some((Combine { w0: 0xFC00_0000 | (w0 & 0xFF_FFFF), w1 }, at)),
                    };
                    d.othermode_h = if two_cycle { OTHERMODE_H_SETUP } else { 0 };
                    (d.prim, d.env) = (colour(prim), colour(env));
                    d.material = None;
                    let old = material_unmemoized(d.combine, d.othermode_h, d.prim, d.env, &mut old_notes);
                    let key = d.material();
                    prop_assert_eq!(d.material.as_ref().map(|m| &m.1), Some(&old));
                    prop_assert_eq!(key.0, old.key());
                }
                prop_assert_eq!(&d.skipped.at_commands, &old_notes);
            }
        }
    }
}
