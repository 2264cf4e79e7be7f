//! Turning a set of files (bound to segments) into skeletons and animations: the asset table's
//! entries for the file, each verified against the bytes (a failing entry is a [`Warning`]),
//! united with what the structural scan finds; then matching animations to skeletons and
//! checking every animation's indices.
//!
//! Which reading of the table ([`names::Variant`]) a file gets: the one for its build when the
//! build is known (a ROM's build string), else the first whose entries all read (fewest
//! failures if none does), in the decomp's version order.

use crate::anim::{self, AnimDef, AnimKind};
use crate::layout::*;
use crate::names::{self, Asset, Variant};
use crate::scan;
use crate::segment::{Ctx, SegFile};
use crate::skeleton::{self, LimbType, SkelDef, SkelType};
use crate::wordhash::WordSet;
use boneyard_core::{Budget, Error, Result, Warning};
use std::sync::Arc;

/// What the builder found, before the common model is made.
pub struct Found {
    /// Segment contexts: for each, the file bound to each of the 16 segments and the home file.
    pub ctxs: Vec<([Option<usize>; 16], usize)>,
    /// The skeletons found, every file together.
    pub skels: Vec<SkelDef>,
    /// The animations found, every file together.
    pub anims: Vec<AnimDef>,
    /// Per file: (skeletons, animations, notes).
    pub per_file: Vec<(usize, usize, Vec<String>)>,
    /// Per file: how many of its skeletons and animations the asset table names (the rest
    /// come from the structural scan).
    pub per_file_named: Vec<(usize, usize)>,
    /// Per file: the asset table's reading chosen for it.
    pub names: Vec<Option<Arc<Variant>>>,
    /// What was skipped or doubted while reading, with file and offset.
    pub warnings: Vec<Warning>,
    /// Skeletons and animations (context, address) the asset table names.
    pub named: WordSet<(usize, u32)>,
    /// Index of `gameplay_keep` among the files, when given or found.
    pub gameplay_keep: Option<usize>,
    /// Index of `link_animetion` among the files, when given or found.
    pub link_animetion: Option<usize>,
    /// Animations given explicitly (context, address): failing to pair or validate is an error.
    pub required: Vec<(usize, u32)>,
    /// What is left of the legacy limb table scan's reads, shared by every file
    /// (`Limits::max_legacy_table_reads`).
    pub legacy_reads: Budget,
    /// What is left of `Limits::max_scan_work`, shared by every file.
    pub scan_work: Budget,
    /// Keyframe and curve keys decoded, every distinct table once, against
    /// `Limits::max_animation_bytes`: the document keeps them to sample (headers that each
    /// name a slightly different range of one large table would otherwise hold it many times).
    pub keyed_bytes: Budget,
    /// The caller's limits.
    pub limits: boneyard_core::Limits,
}

// `Limits::max_scan_work`: limbs the structural scan may read while trying keyframe and curve
// skeleton candidates and pairing candidate animations with them, over the whole document.
// Candidates are cheap to fake (a 16-byte pattern repeated), and each try reads up to 255
// limbs: unbounded, a 1 MiB file costs minutes, and pairing n animations with m skeletons
// n x m tries. When it is used up the scan stops with a warning naming the limit.
//
// `Limits::max_skeletons` and `max_animations`: what one document may hold (a whole OoT or MM
// ROM has a few hundred skeletons and a few thousand animations); more is a hostile file,
// refused with an error naming the limit.

/// True for the stem of `gameplay_keep` (segment 4: Link's animation headers, shared data).
pub fn is_gameplay_keep(stem: &str) -> bool {
    stem == "gameplay_keep"
}
/// Link's own objects, whose animations are in `gameplay_keep` and `link_animetion`.
pub fn is_link_object(stem: &str) -> bool {
    matches!(stem, "object_link_boy" | "object_link_child")
}

/// True for a ModLoader64 player model (`MODLOADER64` at 0x5000): a fan-made Link, drawn with
/// gameplay_keep's lists and playing Link's animations, as his own objects are.
pub fn is_player_model(data: &[u8]) -> bool {
    data.get(0x5000..0x500B) == Some(b"MODLOADER64".as_slice())
}

/// True for the stem of `link_animetion` (segment 7: Link's frame data).
pub fn is_link_animetion(stem: &str) -> bool {
    stem == "link_animetion"
}

/// Something the caller names by its offset in a file (files without names or structures the
/// scan does not look for): MM keyframe and curve skeletons and animations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explicit {
    /// The file's stem (lower-case name without extension, e.g. `gameplay_keep`, `object_box`).
    pub file: String,
    /// Offset in the file (the segment offset).
    pub offset: u32,
    /// What it is.
    pub kind: ExplicitKind,
    /// Name to list it under (default: `<file>_<kind>_<offset>`).
    pub name: Option<String>,
}

/// The kinds of structure that can be given by offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExplicitKind {
    /// `KeyFrameSkeleton`; `flex` None infers the limb kind.
    KeyFrameSkeleton {
        /// Flex limbs (`Some(true)`), standard ones (`Some(false)`), or inferred (`None`).
        flex: Option<bool>,
    },
    /// `KeyFrameAnimation`, played on the file's first keyframe skeleton it fits.
    KeyFrameAnimation,
    /// `CurveSkeletonHeader`.
    CurveSkeleton,
    /// `CurveAnimationHeader`, played on the file's first curve skeleton it fits.
    CurveAnimation,
}

/// Find every skeleton and animation in these files (the asset table's names where it has
/// them, the structural scan elsewhere) and pair animations with skeletons, plus things given
/// explicitly (errors in them are errors, with their offset), knowing by file (same order as
/// `files`; missing: not known) the decomp's name of the build it comes from
/// ([`crate::rom::decomp_version`]), which chooses the asset table's reading of it; within the
/// caller's limits.
pub fn find_all_limited(
    files: &[SegFile],
    builds: &[Option<&'static str>],
    gk: Option<usize>,
    la: Option<usize>,
    explicit: &[Explicit],
    limits: &boneyard_core::Limits,
) -> Result<Found> {
    let mut f = Found {
        ctxs: Vec::new(),
        skels: Vec::new(),
        anims: Vec::new(),
        per_file: vec![(0, 0, Vec::new()); files.len()],
        per_file_named: vec![(0, 0); files.len()],
        names: vec![None; files.len()],
        warnings: Vec::new(),
        named: WordSet::default(),
        gameplay_keep: gk,
        link_animetion: la,
        required: Vec::new(),
        legacy_reads: Budget::new(boneyard_core::limit!(limits, max_legacy_table_reads), "legacy limb-table reads"),
        scan_work: Budget::new(boneyard_core::limit!(limits, max_scan_work), "structural scan limb reads"),
        keyed_bytes: Budget::new(
            boneyard_core::limit!(limits, max_animation_bytes),
            "bytes of keyframe and curve keys",
        ),
        limits: *limits,
    };
    for (i, file) in files.iter().enumerate() {
        if Some(i) == la {
            continue;
        }
        let mut map = [None; 16];
        if let Some(g) = gk {
            map[SEG_GAMEPLAY_KEEP as usize] = Some(g);
        }
        if let Some(l) = la {
            map[SEG_LINK_ANIMETION as usize] = Some(l);
        }
        map[file.segment as usize] = Some(i);
        let ci = f.ctxs.len();
        f.ctxs.push((map, i));
        let ctx = Ctx::new(files, map, i);
        let (s0, a0) = (f.skels.len(), f.anims.len());
        let variant = choose_variant(&ctx, ci, builds.get(i).copied().flatten(), &mut f);
        f.names[i] = variant.as_ref().map(|(v, _, _)| v.clone());
        let readings = variant.as_ref().map_or(0, |(_, _, n)| *n);
        // What the scan finds is kept beside the named entries, except where a named entry
        // already is (the name wins).
        from_scan(&ctx, ci, &mut f);
        let scanned_skels: Vec<SkelDef> = f.skels.drain(s0..).collect();
        let scanned_anims: Vec<AnimDef> = f.anims.drain(a0..).collect();
        if let Some((_, read, _)) = variant {
            for s in read.skels {
                f.named.insert((ci, s.addr));
                f.skels.push(s);
            }
            for a in read.anims {
                f.named.insert((ci, a.addr));
                f.anims.push(a);
            }
        }
        let taken: WordSet<u32> = f.skels[s0..].iter().map(|s| s.addr).collect();
        f.skels.extend(scanned_skels.into_iter().filter(|s| !taken.contains(&s.addr)));
        let taken: WordSet<u32> = f.anims[a0..].iter().map(|a| a.addr).collect();
        f.anims.extend(scanned_anims.into_iter().filter(|a| !taken.contains(&a.addr)));
        for x in explicit.iter().filter(|x| x.file == file.stem) {
            add_explicit(&ctx, ci, x, &mut f).map_err(|e| e.in_file(file.name.clone()))?;
        }
        if Some(i) == gk {
            if la.is_some() {
                let names = f.names[i].clone();
                link_animations(&ctx, ci, names.as_deref(), &mut f);
            } else {
                let msg = "link_animetion not given: Link's animations are not listed";
                f.per_file[i].2.push(msg.into());
                f.warnings.push(Warning::in_file(file.name.clone(), msg));
            }
        }
        let (s1, a1) = (f.skels.len(), f.anims.len());
        f.per_file[i].0 = s1 - s0;
        f.per_file[i].1 = a1 - a0;
        match_and_check(files, &mut f, ci, s0, a0)?;
        f.per_file_named[i] = (
            f.skels[s0..].iter().filter(|s| f.named.contains(&(ci, s.addr))).count(),
            f.anims[a0..].iter().filter(|a| f.named.contains(&(ci, a.addr))).count(),
        );
        if let Some(v) = &f.names[i] {
            // Every skeleton and animation entry, verified (read, fitted, indices checked).
            let link = Some(i) == gk && la.is_some();
            let entries = v.assets.iter().filter(|a| is_header_entry(a) || (link && a.kind == 'P')).count();
            let kept = f.per_file_named[i].0 + f.per_file_named[i].1;
            if readings > 1 || kept < entries {
                f.per_file[i].2.push(format!(
                    "asset table: {} ({kept} of {entries} skeleton/animation entries verified; {readings} readings of this file)",
                    v.label
                ));
            }
        }
        if f.scan_work.left() == 0 || f.legacy_reads.left() == 0 {
            let which = if f.scan_work.left() == 0 { "max_scan_work" } else { "max_legacy_table_reads" };
            let msg = format!(
                "the structural scan's work budget is used up (limit `{which}`): some candidates were not tried"
            );
            let msg = msg.as_str();
            f.per_file[i].2.push(msg.into());
            f.warnings.push(Warning::in_file(file.name.clone(), msg));
        }
        boneyard_core::limit!(limits, max_skeletons)
            .check(f.skels.len() as u64, 0, "skeletons found so far")
            .and_then(|()| {
                boneyard_core::limit!(limits, max_animations).check(f.anims.len() as u64, 0, "animations found so far")
            })
            .map_err(|e| e.in_file(file.name.clone()))?;
    }
    name_demo(files, &mut f);
    let link_skel = link_skeleton(files, &mut f);
    for a in f.anims.iter_mut() {
        if matches!(a.kind, AnimKind::Link { .. }) {
            a.skeleton = link_skel;
        }
    }
    pair_across_files(files, &mut f);
    Ok(f)
}

/// The skeleton Link's animations play on: a 21-limb skeleton (Link's are Flex; a player
/// model's may be Normal), Link's own objects' first (`object_link_boy` before a Gerudo's of
/// the same size when a whole folder is given), else the first that fits (a player model
/// given with gameplay_keep). Where several fit, which is said.
fn link_skeleton(files: &[SegFile], f: &mut Found) -> Option<usize> {
    let fits = |s: &SkelDef| s.limbs.len() == LINK_JOINTS - 1;
    let flex = |s: &SkelDef| matches!(s.ty, SkelType::Flex { .. });
    let mut candidates: Vec<usize> = (0..f.skels.len()).filter(|&s| fits(&f.skels[s]) && flex(&f.skels[s])).collect();
    candidates.extend((0..f.skels.len()).filter(|&s| fits(&f.skels[s]) && matches!(f.skels[s].ty, SkelType::Normal)));
    let file_of = |s: usize| &files[f.ctxs[f.skels[s].ctx].1];
    let linked = candidates.iter().copied().find(|&s| is_link_object(&file_of(s).stem));
    let pick = linked.or(candidates.first().copied())?;
    let has_link_clips = f.anims.iter().any(|a| matches!(a.kind, AnimKind::Link { .. }));
    if candidates.len() > 1 && has_link_clips {
        let others: Vec<String> = candidates
            .iter()
            .filter(|&&s| s != pick)
            .take(8)
            .map(|&s| format!("{} ({})", f.skels[s].name, file_of(s).shown))
            .collect();
        let why = if linked.is_some() { "Link's own" } else { "the first given: none is in Link's objects" };
        let more = candidates.len() - 1 - others.len();
        let more = if more > 0 { format!(" and {more} more") } else { String::new() };
        f.warnings.push(Warning::at(
            file_of(pick).name.clone(),
            u64::from(f.skels[pick].addr & 0xFF_FFFF),
            format!(
                "Link's animations play on {} ({}), {why}; these skeletons have his 21 limbs too: {}{more} \
                 (give one alone with gameplay_keep and link_animetion to play them there)",
                f.skels[pick].name,
                file_of(pick).shown,
                others.join(", ")
            ),
        ));
    }
    Some(pick)
}

/// Animations whose own file has no skeleton for them, given with the file that has it
/// (`object_zl2_anime1` with `object_zl2`: the actor loads both and plays the one's clips on
/// the other's skeleton): each plays on the one skeleton of the other files that fits it as a
/// skeleton of its own file would (limbs + 1 joints, allowing the 1-2 words of padding a
/// normal animation's joint table may end on), gameplay_keep's counted only when no other file
/// has one. The files do not name each other, so each pairing is said once a file; several
/// fitting skeletons leave the animations unpaired, with the candidates named.
fn pair_across_files(files: &[SegFile], f: &mut Found) {
    if f.ctxs.len() < 2 {
        return;
    }
    let home = |ctx: usize| f.ctxs[ctx].1;
    // The skeletons by kind (legacy or not) and limb count, found once: thousands of
    // animations against thousands of skeletons must not cost their product.
    let mut by_limbs: std::collections::HashMap<(bool, usize), Vec<usize>> = Default::default();
    for (i, s) in f.skels.iter().enumerate() {
        match s.ty {
            SkelType::Normal | SkelType::Flex { .. } => by_limbs.entry((false, s.limbs.len())).or_default().push(i),
            SkelType::Legacy => by_limbs.entry((true, s.limbs.len())).or_default().push(i),
            _ => {}
        }
    }
    // One file given twice offers its skeleton twice: one candidate (the same name, place,
    // limbs and file size).
    let key = |s: usize| {
        let k = &f.skels[s];
        (k.addr, k.limbs.len(), k.name.as_str(), files[home(k.ctx)].data.len())
    };
    // More than this many distinct candidates is as ambiguous as two; the warning names 8.
    const NAMED: usize = 8;
    // By the animation's file: (skeleton paired, count) and the ambiguous ones' candidates.
    let mut paired: std::collections::BTreeMap<(usize, usize), usize> = Default::default();
    let mut unpaired: std::collections::BTreeMap<usize, (usize, Vec<usize>)> = Default::default();
    let mut choices = Vec::new();
    for a in f.anims.iter_mut().filter(|a| a.skeleton.is_none()) {
        // Limb counts that fit, best first: a skeleton the joint count fits exactly is meant
        // before one it fits only with the joint table's padding (os_anime's 16 joints:
        // object_ahg's 15 limbs, not Zelda's 14).
        let fits: &[(bool, usize)] = match a.kind {
            AnimKind::Normal { .. } => &[1, 2, 3].map(|d| (false, a.joints.wrapping_sub(d))),
            AnimKind::Legacy { .. } => &[(true, a.joints.wrapping_sub(1))],
            _ => continue,
        };
        let own = home(a.ctx);
        choices.clear();
        for fit in fits {
            let others = by_limbs.get(fit).into_iter().flatten().copied().filter(|&s| home(f.skels[s].ctx) != own);
            for c in others {
                if !choices.iter().any(|&d| key(d) == key(c)) {
                    choices.push(c);
                    if choices.len() > NAMED {
                        break;
                    }
                }
            }
            if !choices.is_empty() {
                break;
            }
        }
        let not_keep: Vec<usize> =
            choices.iter().copied().filter(|&s| Some(home(f.skels[s].ctx)) != f.gameplay_keep).collect();
        let pick = match (choices.as_slice(), not_keep.as_slice()) {
            ([one], _) | (_, [one]) => Some(*one),
            _ => None,
        };
        match pick {
            Some(s) => {
                a.skeleton = Some(s);
                if matches!(a.kind, AnimKind::Normal { .. }) {
                    a.joints = f.skels[s].limbs.len() + 1;
                }
                *paired.entry((own, s)).or_default() += 1;
            }
            None if choices.len() > 1 => {
                let e = unpaired.entry(own).or_insert_with(|| (0, choices.clone()));
                e.0 += 1;
            }
            None => {}
        }
    }
    let skel_name = |s: usize| format!("{} of {}", f.skels[s].name, files[home(f.skels[s].ctx)].shown);
    let mut said = Vec::new();
    for ((file, s), n) in paired {
        // A bank with the object the game plays it on (`object_zl2_anime1` and `object_zl2`)
        // is no guess: each clip's `source` says where it comes from.
        if crate::banks::plays_on(&files[file].stem, &files[home(f.skels[s].ctx)].stem) {
            continue;
        }
        said.push(Warning::in_file(
            files[file].name.clone(),
            format!(
                "{n} animation(s) of this file play on skeleton {} ({} limbs), the one skeleton of the files given with it that fits them (the files do not name each other)",
                skel_name(s),
                f.skels[s].limbs.len()
            ),
        ));
    }
    for (file, (n, candidates)) in unpaired {
        let names: Vec<String> = candidates.iter().take(NAMED).map(|&s| skel_name(s)).collect();
        let count = if candidates.len() > NAMED { format!("more than {NAMED}") } else { candidates.len().to_string() };
        said.push(Warning::in_file(
            files[file].name.clone(),
            format!(
                "{n} animation(s) of this file have no skeleton in it and fit {count} skeletons of the files given with it ({}): not paired (`--anim A --skeleton S` plays one on a skeleton of as many bones)",
                names.join(", ")
            ),
        ));
    }
    f.warnings.extend(said);
}

/// Our own demo object carries no names (the format has none); like the decomp's table does
/// for Nintendo's files, we know what ours holds.
fn name_demo(files: &[SegFile], f: &mut Found) {
    let stem = crate::demo::DEMO_STEM;
    let is_demo = |ci: usize| files[f.ctxs[ci].1].stem == stem;
    for s in f.skels.iter_mut().filter(|s| is_demo(s.ctx)) {
        s.name = "demo_humanoid".into();
    }
    let clips = boneyard_core::demo::DemoClip::ALL;
    let demo_anims = f.anims.iter_mut().filter(|a| is_demo(a.ctx));
    for (a, clip) in demo_anims.zip(clips) {
        a.name = clip.name().into();
    }
}

fn limb_type_of(attrs: &str) -> (Option<bool>, Option<LimbType>) {
    let mut it = attrs.split('/');
    let ty = it.next().unwrap_or("");
    let lt = it.next().and_then(LimbType::parse);
    (Some(ty == "Flex"), lt)
}

/// A reading of the asset table verified against one file: what read, and a warning for each
/// entry that did not.
struct NamedRead {
    skels: Vec<SkelDef>,
    anims: Vec<AnimDef>,
    failures: Vec<Warning>,
}

/// The asset table's reading for the file of context `ci`, verified (None: the table does not
/// know the file, or names no skeleton or animation in it). The warnings of the entries that
/// failed go to `f`. Also returns how many readings were candidates.
///
/// A known build has one reading. A bare file is tried against every reading: one whose
/// entries all verify is taken; when several do, the bytes cannot tell them apart, and only
/// what they all say (the same entry at the same offset) is taken; when none does, the one
/// with the fewest failures (the first of those).
fn choose_variant(
    ctx: &Ctx,
    ci: usize,
    build: Option<&str>,
    f: &mut Found,
) -> Option<(Arc<Variant>, NamedRead, usize)> {
    let file = ctx.home_file();
    let candidates: Vec<&'static Arc<Variant>> = match build {
        Some(v) => names::variant_for(&file.stem, v).into_iter().collect(),
        None => names::variants(&file.stem).iter().collect(),
    };
    let candidates: Vec<&'static Arc<Variant>> =
        candidates.into_iter().filter(|v| v.names_skeletons_or_animations()).collect();
    let reads: Vec<(&'static Arc<Variant>, NamedRead)> =
        candidates.iter().map(|&v| (v, read_named(ctx, ci, v))).collect();
    let clean: Vec<&'static Arc<Variant>> =
        reads.iter().filter(|(_, r)| r.failures.is_empty()).map(|(v, _)| *v).collect();
    let n = candidates.len();
    if clean.len() > 1 {
        let common = common_reading(&clean);
        let read = read_named(ctx, ci, &common);
        return Some((common, read, n));
    }
    let mut best: Option<(&'static Arc<Variant>, NamedRead)> = None;
    for (v, read) in reads {
        if best.as_ref().is_none_or(|(_, b)| read.failures.len() < b.failures.len()) {
            best = Some((v, read));
        }
    }
    let (v, mut read) = best?;
    f.warnings.append(&mut read.failures);
    Some((Arc::clone(v), read, n))
}

/// What the readings `clean` (which all verify) agree on: the entries all of them hold at the
/// same offset. Made once per set of readings in a process (gameplay_keep's hold thousands of
/// entries, and copying them was a tenth of an open of Link's files).
fn common_reading(clean: &[&'static Arc<Variant>]) -> Arc<Variant> {
    type Commons = std::sync::Mutex<std::collections::HashMap<Vec<usize>, Arc<Variant>>>;
    static COMMON: std::sync::OnceLock<Commons> = std::sync::OnceLock::new();
    // The readings are the table's own (static), so where they are names them.
    let key: Vec<usize> = clean.iter().map(|v| Arc::as_ptr(v) as usize).collect();
    let cache = COMMON.get_or_init(Default::default);
    if let Some(c) = cache.lock().ok().and_then(|m| m.get(&key).cloned()) {
        return c;
    }
    let common = Arc::new(Variant::new(
        format!(
            "what the readings that fit agree on ({})",
            clean.iter().map(|v| v.label.as_str()).collect::<Vec<_>>().join("; ")
        ),
        clean.iter().flat_map(|v| v.versions.iter().copied()).collect(),
        {
            let others: Vec<(&[Asset], bool)> =
                clean[1..].iter().map(|v| (v.assets.as_slice(), v.assets.is_sorted_by_key(|x| x.offset))).collect();
            clean[0].assets.iter().filter(|a| others.iter().all(|&(o, sorted)| holds(o, sorted, a))).cloned().collect()
        },
    ));
    if let Ok(mut m) = cache.lock() {
        m.insert(key, Arc::clone(&common));
    }
    common
}

/// Whether `assets` holds `a`. The readings keep their entries in offset order, so the
/// entries at `a`'s offset are found by a binary search (gameplay_keep's readings hold
/// thousands of entries, and a linear search for each cost most of its open); a list not in
/// that order (`sorted` false) is searched through.
fn holds(assets: &[Asset], sorted: bool, a: &Asset) -> bool {
    if !sorted {
        return assets.contains(a);
    }
    let from = assets.partition_point(|x| x.offset < a.offset);
    assets[from..].iter().take_while(|x| x.offset == a.offset).any(|x| x == a)
}

/// Entries that name a skeleton or an animation header in the file itself (what
/// [`read_asset`] reads; player animations are read with link_animetion).
fn is_header_entry(a: &Asset) -> bool {
    matches!(a.kind, 'S' | 'A' | 'G' | 'C') || (a.kind == 'T' && a.attrs.starts_with("Legacy"))
}

/// Read every skeleton and animation entry of `v` in the file of context `ci`.
fn read_named(ctx: &Ctx, ci: usize, v: &Variant) -> NamedRead {
    let mut out = NamedRead { skels: Vec::new(), anims: Vec::new(), failures: Vec::new() };
    let home = ctx.home_file().name.clone();
    for a in &v.assets {
        match read_asset(ctx, ci, a) {
            Ok(Some(Item::Skel(s))) => out.skels.push(s),
            Ok(Some(Item::Anim(x))) => out.anims.push(x),
            Ok(None) => {}
            // The warning points at the bytes that failed (the entry's header or deeper).
            Err(e) => out.failures.push(Warning::at(
                e.file.clone().unwrap_or_else(|| home.clone()),
                e.offset.unwrap_or(a.offset as u64),
                format!(
                    "the decomp asset table's {} {} at {:#X} ({}) does not read here: {}",
                    kind_name(a.kind),
                    a.name,
                    a.offset,
                    v.label,
                    e.kind
                ),
            )),
        }
    }
    out
}

/// What an asset-table kind letter names, in words.
fn kind_name(kind: char) -> &'static str {
    match kind {
        'S' => "skeleton",
        'T' => "limb table",
        'A' => "animation",
        'G' => "legacy animation",
        'C' => "curve animation",
        'P' => "player animation",
        'L' => "limb",
        _ => "display list",
    }
}

enum Item {
    Skel(SkelDef),
    Anim(AnimDef),
}

/// One entry read (None: a kind that is not a skeleton or animation header).
fn read_asset(ctx: &Ctx, ci: usize, a: &Asset) -> Result<Option<Item>> {
    let seg = (ctx.home_file().segment as u32) << 24;
    let addr = seg | a.offset;
    let anim = |frames, joints, kind| Item::Anim(AnimDef::unpaired(addr, ci, a.name.to_string(), frames, joints, kind));
    Ok(Some(match a.kind {
        'S' if a.attrs.starts_with("Curve") => {
            Item::Skel(crate::curve::read_skeleton(ctx, addr, ci, a.name.to_string())?)
        }
        'S' => {
            let (flex, lt) = limb_type_of(a.attrs);
            let Some(lt) = lt else {
                return Err(Error::invalid(a.offset as u64, format!("limb type {:?} is not read", a.attrs)));
            };
            Item::Skel(skeleton::read_skeleton(ctx, addr, ci, a.name.to_string(), Some(lt), flex)?)
        }
        'T' if a.attrs.starts_with("Legacy") => {
            let count = a.attrs.split('/').nth(1).and_then(|c| c.parse().ok());
            Item::Skel(skeleton::read_legacy_skeleton(ctx, addr, count, ci, a.name.to_string())?)
        }
        'A' => {
            let (frames, kind) = anim::read_normal_header(ctx, addr)?;
            anim(frames, 0, kind)
        }
        'C' => {
            let header = crate::curve::read_header(ctx, addr)?;
            anim(header.frames, 0, AnimKind::Curve { header })
        }
        'G' => {
            let (frames, joints, kind) = anim::read_legacy_header(ctx, addr)?;
            anim(frames, joints, kind)
        }
        _ => return Ok(None),
    }))
}

/// `format!("{stem}_{kind}_{h:06X}")`: the name of what the scan found at `h`, put together by
/// hand (the formatting machinery cost more than reading many of the headers it names).
fn scanned_name(stem: &str, kind: &str, h: u64) -> String {
    let mut s = String::with_capacity(stem.len() + kind.len() + 8);
    // A name is one word, as `--anim` takes it and `check` prints it: a file named with spaces
    // (`object dekunuts`) names its clips with `_` there.
    s.extend(stem.chars().map(|c| if c.is_whitespace() { '_' } else { c }));
    s.push('_');
    s.push_str(kind);
    s.push('_');
    boneyard_core::text::push_hex(&mut s, h, 6);
    s
}

fn from_scan(ctx: &Ctx, ci: usize, f: &mut Found) {
    let file = ctx.home_file();
    let seg = file.segment;
    // Which words start with the file's segment byte: every scan below starts there.
    let words = scan::SegWords::new(&file.data, seg);
    let skel_cands = scan::skeleton_candidates_in(&file.data, &words);
    for &h in &skel_cands {
        let addr = (seg as u32) << 24 | h as u32;
        let name = scanned_name(&file.shown, "Skel", h as u64);
        if let Ok(s) = skeleton::read_skeleton(ctx, addr, ci, name, None, None) {
            f.skels.push(s);
        }
    }
    // ModLoader64 player models: "MODLOADER64" at 0x5000, a pointer at 0x500C to a copy of
    // the skeleton header (same limb table as the real one, so the scan above found it).
    if is_player_model(&file.data) {
        modloader_skeleton(ctx, ci, file, f);
    }
    // Beta-format (legacy) animations, and the limb tables they can play on.
    let legacy = scan::legacy_animation_candidates_in(&file.data, &words);
    let mut counts: Vec<usize> = legacy.iter().map(|&(_, l)| l).collect();
    counts.sort_unstable();
    counts.dedup();
    let runs = if counts.is_empty() { Vec::new() } else { scan::legacy_pointer_runs(&file.data, seg) };
    for count in counts {
        let (tables, cut) = scan::legacy_limb_tables_in(&file.data, &runs, count, &mut f.legacy_reads);
        if cut {
            f.warnings.push(Warning::in_file(
                file.name.clone(),
                format!(
                    "{} legacy limb tables of {count} limbs found: the scan stops there, later ones were not tried",
                    scan::MAX_LEGACY_TABLES
                ),
            ));
        }
        for t in tables {
            let addr = (seg as u32) << 24 | t as u32;
            let name = scanned_name(&file.shown, "legacy_skel", t as u64);
            if let Ok(s) = skeleton::read_legacy_skeleton(ctx, addr, Some(count), ci, name) {
                f.skels.push(s);
            }
        }
    }
    for (h, _) in legacy {
        let addr = (seg as u32) << 24 | h as u32;
        if let Ok((frames, joints, kind)) = anim::read_legacy_header(ctx, addr) {
            let name = scanned_name(&file.shown, "legacy_anim", h as u64);
            f.anims.push(AnimDef::unpaired(addr, ci, name, frames, joints, kind));
        }
    }
    // Curve animations (`ptr ptr ptr 0001 frames`), and the skeleton headers that read as curve
    // skeletons they fit; such a header replaces its misreading as a normal skeleton.
    let curve_anims = scan::curve_animation_candidates_in(&file.data, &words);
    if !curve_anims.is_empty() {
        let headers: Vec<(u32, crate::curve::CurveHeader)> = curve_anims
            .iter()
            .filter_map(|&h| {
                let addr = (seg as u32) << 24 | h as u32;
                crate::curve::read_header(ctx, addr).ok().map(|c| (addr, c))
            })
            .collect();
        let work = &mut f.scan_work;
        let mut curve_skels = Vec::new();
        for &h in &skel_cands {
            if !spend(work, file.data.get(h + 4).map_or(1, |&n| n as usize)) {
                break;
            }
            let addr = (seg as u32) << 24 | h as u32;
            let name = scanned_name(&file.shown, "curve_skel", h as u64);
            let Ok(s) = crate::curve::read_skeleton(ctx, addr, ci, name) else { continue };
            let n = s.limbs.len();
            let fits = headers.iter().any(|(a, c)| {
                if !spend(work, 9 * n) {
                    return false;
                }
                crate::curve::CurveAnim::load(ctx, *a, c, n).is_ok_and(|c| c.knots_sorted())
            });
            if fits {
                curve_skels.push(s);
            }
        }
        if !curve_skels.is_empty() {
            let addrs: WordSet<u32> = curve_skels.iter().map(|s| s.addr).collect();
            f.skels.retain(|k| !(k.ctx == ci && addrs.contains(&k.addr)));
            f.skels.extend(curve_skels);
        }
        for (addr, header) in headers {
            let name = format!("{}_curve_anim_{:06X}", file.shown, addr & 0xFF_FFFF);
            let kind = AnimKind::Curve { header };
            f.anims.push(AnimDef::unpaired(addr, ci, name, header.frames, 0, kind));
        }
    }
    // MM keyframe skeletons, and (only where one was found) keyframe animations.
    let kf_before = f.skels.len();
    for h in scan::kf_skeleton_candidates_in(&file.data, &words) {
        // Standard then flex: up to twice the limb count.
        if !spend(&mut f.scan_work, 2 * file.data.get(h).map_or(1, |&n| n as usize)) {
            break;
        }
        let addr = (seg as u32) << 24 | h as u32;
        if !crate::keyframe::may_read_skeleton(ctx, addr) {
            continue;
        }
        let name = scanned_name(&file.shown, "kf_skel", h as u64);
        if let Ok(s) = crate::keyframe::read_skeleton(ctx, addr, ci, name, None) {
            // Display lists of a real object live in its own segment (or nowhere).
            if s.limbs.iter().all(|l| l.dlists[0] == 0 || split_segmented(l.dlists[0]).0 == seg) {
                f.skels.push(s);
            }
        }
    }
    if f.skels.len() > kf_before {
        for h in scan::kf_animation_candidates_in(&file.data, &words) {
            let addr = (seg as u32) << 24 | h as u32;
            if let Ok(header) = crate::keyframe::read_header(ctx, addr) {
                let name = scanned_name(&file.shown, "kf_anim", h as u64);
                let kind = AnimKind::KeyFrame { header, flex: false };
                f.anims.push(AnimDef::unpaired(addr, ci, name, header.frames, 0, kind));
            }
        }
    }
    for (h, _) in scan::animation_candidates_in(&file.data, &words) {
        let addr = (seg as u32) << 24 | h as u32;
        if let Ok((frames, kind)) = anim::read_normal_header(ctx, addr) {
            let name = scanned_name(&file.shown, "Anim", h as u64);
            f.anims.push(AnimDef::unpaired(addr, ci, name, frames, 0, kind));
        }
    }
}

/// A ModLoader64 player model's header at 0x5000: its pointer at 0x500C to a copy of the
/// skeleton header, said in a note; read as a skeleton when it is not a copy of one found.
fn modloader_skeleton(ctx: &Ctx, ci: usize, file: &SegFile, f: &mut Found) {
    let p = match boneyard_core::Reader::at(&file.data, 0x500C, boneyard_core::Endian::Big).and_then(|mut r| r.u32()) {
        Ok(p) => p,
        Err(e) => {
            // The file ends inside the header: said, not read as a pointer of 0.
            let msg = format!("the MODLOADER64 header at 0x5000 is cut short before its skeleton pointer: {}", e.kind);
            f.warnings.push(Warning::at(file.name.clone(), e.offset.unwrap_or(0x500C), msg));
            return;
        }
    };
    let table = ctx.record::<SkeletonHeader>(p, 0x500C).ok().map(|h| h.segment);
    let first_word = |addr: u32| ctx.reader(addr, 4, 0).and_then(|mut r| r.u32()).ok();
    let same = table.is_some() && f.skels.iter().any(|s| first_word(s.addr) == table);
    let note = format!(
        "MODLOADER64 header at 0x5000: skeleton pointer {p:#010x}{}",
        if same { " (a copy of the header of the skeleton found)" } else { "" }
    );
    f.per_file[ctx.home].2.push(note);
    if !same {
        let name = format!("{}_Skel_{:06X}", file.shown, p & 0xFF_FFFF);
        match skeleton::read_skeleton(ctx, p, ci, name, None, None) {
            Ok(s) => f.skels.push(s),
            // The header claims a skeleton there: that it does not read is worth a word.
            Err(e) => f.warnings.push(Warning::at(
                file.name.clone(),
                e.offset.unwrap_or(0x500C),
                format!("the MODLOADER64 header's skeleton pointer {p:#010x} does not read: {}", e.kind),
            )),
        }
    }
}

/// Link's animation headers in gameplay_keep: those the asset table names (each verified; a
/// failing one is a warning), united with the run of headers the scan finds.
fn link_animations(ctx: &Ctx, ci: usize, names: Option<&Variant>, f: &mut Found) {
    let file = ctx.home_file();
    let seg = (file.segment as u32) << 24;
    let mut seen = WordSet::default();
    for a in names.iter().flat_map(|v| v.assets.iter()).filter(|a| a.kind == 'P') {
        let addr = seg | a.offset;
        match anim::read_link_header(ctx, addr) {
            Ok((frames, kind)) => {
                seen.insert(addr);
                f.named.insert((ci, addr));
                let name = a.name.to_string();
                f.anims.push(AnimDef::unpaired(addr, ci, name, frames, LINK_JOINTS, kind));
            }
            Err(e) => f.warnings.push(Warning::at(
                e.file.clone().unwrap_or_else(|| file.name.clone()),
                e.offset.unwrap_or(a.offset as u64),
                format!(
                    "the decomp asset table's player animation {} at {:#X} does not read here: {}",
                    a.name, a.offset, e.kind
                ),
            )),
        }
    }
    let len = ctx.segment_len(SEG_LINK_ANIMETION).unwrap_or(0);
    let words = scan::SegWords::new(&file.data, SEG_LINK_ANIMETION);
    let run = scan::link_headers_in(&file.data, len, &words);
    let appended = scan::appended_link_headers_in(&file.data, len, &run, &words);
    // The frames of the named animations, in link_animetion: Link's clips never share frames,
    // so a scanned header whose frames run into a named clip's is bytes that happen to read as
    // a header. (Three such in gameplay_keep read as 1,505-frame clips once an import had made
    // link_animetion long enough to hold them.)
    let data_range = |a: &AnimDef| match a.kind {
        AnimKind::Link { data } => {
            let start = data & 0xFF_FFFF;
            Some((start, start.saturating_add(u32::from(a.frames).saturating_mul(LINK_FRAME_SIZE as u32))))
        }
        _ => None,
    };
    let mut named: Vec<(u32, u32)> = f.anims.iter().filter(|a| seen.contains(&a.addr)).filter_map(data_range).collect();
    named.sort_unstable();
    // By start, with the furthest end of the ranges up to each: a range overlaps one of them
    // when some range starting before its end ends after its start.
    let furthest: Vec<u32> = named
        .iter()
        .scan(0u32, |most, &(_, end)| {
            *most = (*most).max(end);
            Some(*most)
        })
        .collect();
    let overlaps_named = |(s, e): (u32, u32)| {
        let before_end = named.partition_point(|&(ns, _)| ns < e);
        before_end > 0 && furthest[before_end - 1] > s
    };
    let mut scanned = Vec::new();
    for h in run.into_iter().chain(appended) {
        let addr = seg | h as u32;
        if seen.contains(&addr) {
            continue;
        }
        if let Ok((frames, kind)) = anim::read_link_header(ctx, addr) {
            let name = format!("link_anim_{h:06X}");
            let a = AnimDef::unpaired(addr, ci, name, frames, LINK_JOINTS, kind);
            if !data_range(&a).is_some_and(overlaps_named) {
                scanned.push(a);
            }
        }
    }
    // Among the scanned ones too, frames are never shared: the shorter clip is taken first
    // (three false headers, of one pointer, read 1,505 frames across clips an import had
    // appended), in file order when they are as long.
    let mut order: Vec<usize> = (0..scanned.len()).collect();
    order.sort_by_key(|&i| (scanned[i].frames, scanned[i].addr));
    let mut taken: std::collections::BTreeMap<u32, u32> = std::collections::BTreeMap::new();
    let mut keep = vec![false; scanned.len()];
    for i in order {
        let Some((s, e)) = data_range(&scanned[i]) else { continue };
        // Taken ranges never overlap, so only the last one starting before `e` can reach `s`.
        if taken.range(..e).next_back().is_some_and(|(_, &te)| te > s) {
            continue;
        }
        taken.insert(s, e);
        keep[i] = true;
    }
    f.anims.extend(scanned.into_iter().zip(keep).filter_map(|(a, k)| k.then_some(a)));
}

fn add_explicit(ctx: &Ctx, ci: usize, x: &Explicit, f: &mut Found) -> Result<()> {
    let addr = (ctx.home_file().segment as u32) << 24 | (x.offset & 0xFF_FFFF);
    let name = |kind: &str| x.name.clone().unwrap_or_else(|| format!("{}_{kind}_{:06X}", x.file, x.offset));
    // What the scan already found at that address gives way to what the caller says.
    if matches!(x.kind, ExplicitKind::KeyFrameAnimation | ExplicitKind::CurveAnimation)
        && f.anims.iter().any(|a| a.ctx == ci && a.addr == addr)
    {
        f.required.push((ci, addr));
        return Ok(());
    }
    match x.kind {
        ExplicitKind::KeyFrameSkeleton { flex } => {
            let s = crate::keyframe::read_skeleton(ctx, addr, ci, name("kf_skel"), flex)?;
            f.skels.retain(|k| !(k.ctx == ci && k.addr == addr));
            f.skels.push(s);
        }
        ExplicitKind::CurveSkeleton => {
            let s = crate::curve::read_skeleton(ctx, addr, ci, name("curve_skel"))?;
            f.skels.retain(|k| !(k.ctx == ci && k.addr == addr));
            f.skels.push(s);
        }
        ExplicitKind::KeyFrameAnimation => {
            let header = crate::keyframe::read_header(ctx, addr)?;
            let kind = AnimKind::KeyFrame { header, flex: false };
            let name = name("kf_anim");
            f.anims.push(AnimDef::unpaired(addr, ci, name, header.frames, 0, kind));
            f.required.push((ci, addr));
        }
        ExplicitKind::CurveAnimation => {
            let header = crate::curve::read_header(ctx, addr)?;
            let kind = AnimKind::Curve { header };
            let name = name("curve_anim");
            f.anims.push(AnimDef::unpaired(addr, ci, name, header.frames, 0, kind));
            f.required.push((ci, addr));
        }
    }
    Ok(())
}

/// Give each new animation of context `ci` its joint count and skeleton, then validate it.
/// Scanned candidates that fail are dropped; named ones that fail are errors.
fn match_and_check(files: &[SegFile], f: &mut Found, ci: usize, s0: usize, a0: usize) -> Result<()> {
    let (map, home) = f.ctxs[ci];
    let ctx = Ctx::new(files, map, home);
    let mut keep = Vec::new();
    let anims: Vec<AnimDef> = f.anims.drain(a0..).collect();
    // The file's first skeleton of each limb count, by kind, found once: a file of thousands
    // of candidate animations and skeletons must not cost animations x skeletons.
    // Of normal and flex skeletons, the first few of each limb count: clips that fit several
    // are told apart by their names (`closest_named`).
    let mut normal_by_len: std::collections::HashMap<usize, Vec<usize>> = std::collections::HashMap::new();
    let mut legacy_by_len = std::collections::HashMap::new();
    let mut normals = Vec::new();
    for (s, k) in f.skels.iter().enumerate().skip(s0) {
        match k.ty {
            SkelType::Normal | SkelType::Flex { .. } => {
                let same = normal_by_len.entry(k.limbs.len()).or_default();
                if same.len() < SAME_SIZE_SKELETONS {
                    same.push(s);
                }
                if normals.len() < 2 {
                    normals.push(s);
                }
            }
            SkelType::Legacy => {
                legacy_by_len.entry(k.limbs.len()).or_insert(s);
            }
            _ => {}
        }
    }
    // Keyframe and curve loads by what they depend on (the header's fields and the shape):
    // whether the keys read, and whether they are sorted. Headers may share one key table,
    // and a load reads all of it (a crafted file of 1,000 headers over one 3 MB table took
    // 1.7 s to open).
    let mut kf_loads: std::collections::HashMap<_, Option<bool>> = std::collections::HashMap::new();
    let mut curve_loads: std::collections::HashMap<_, Option<bool>> = std::collections::HashMap::new();
    // Clips that fit several skeletons of one size, by the first of those: (skeleton, clip).
    // (The clip's name, and the others it is written with.)
    type Shared = Vec<(usize, String, Vec<usize>)>;
    let mut shared: std::collections::BTreeMap<usize, Shared> = std::collections::BTreeMap::new();
    for mut a in anims {
        let required = f.required.contains(&(ci, a.addr));
        let named = required || f.named.contains(&(ci, a.addr));
        // The first of the skeletons of one size the clip fits, when it fits several.
        let mut among = None;
        match a.kind {
            AnimKind::Normal { joint_indices, .. } => {
                let gap = gap_joints(&ctx, a.addr, joint_indices);
                // The skeleton whose limbs + 1 is the gap, else 1 or 2 fewer (padding), the
                // file's first of that size; with no gap, the file's only skeleton.
                let fitting = gap.and_then(|g| (1..=3).find_map(|d| normal_by_len.get(&g.checked_sub(d)?)));
                let pick = match (gap, fitting) {
                    (Some(_), Some(same)) => {
                        let (s, ties) = closest_named(&f.skels, same, &a.name);
                        among = (same.len() > 1).then_some(same[0]);
                        a.also = ties;
                        Some(s)
                    }
                    (Some(_), None) => None,
                    (None, _) if normals.len() == 1 => Some(normals[0]),
                    (None, _) => None,
                };
                a.skeleton = pick;
                a.joints = match (pick, gap) {
                    (Some(s), _) => f.skels[s].limbs.len() + 1,
                    (None, Some(g)) => g,
                    (None, None) => {
                        let e = ctx.error(a.addr, "cannot tell the animation's joint count (no matching skeleton)");
                        refuse(f, &files[home], &a, required, named, e)?;
                        continue;
                    }
                };
            }
            AnimKind::Legacy { .. } => {
                a.skeleton = a.joints.checked_sub(1).and_then(|n| legacy_by_len.get(&n).copied());
            }
            AnimKind::Link { .. } => {}
            AnimKind::Curve { header } => {
                let work = &mut f.scan_work;
                let keyed = &mut f.keyed_bytes;
                let skels = &f.skels;
                let mut over = None;
                let pick = (s0..skels.len()).find(|&s| {
                    skels[s].ty == SkelType::Curve
                        && (named || spend(work, 9 * skels[s].limbs.len()))
                        && curve_loads
                            .entry((header, skels[s].limbs.len()))
                            .or_insert_with(|| {
                                let c =
                                    crate::curve::CurveAnim::load(&ctx, a.addr, &header, skels[s].limbs.len()).ok()?;
                                charge(keyed, c.decoded_bytes(), &ctx, a.addr, &mut over)?;
                                Some(c.knots_sorted())
                            })
                            .is_some_and(|sorted| named || sorted)
                });
                if let Some(e) = over {
                    return Err(e.in_file(files[home].name.clone()));
                }
                let Some(s) = pick else {
                    let e = ctx.error(a.addr, "no curve skeleton fits the curve animation");
                    refuse(f, &files[home], &a, required, named, e)?;
                    continue;
                };
                a.skeleton = Some(s);
                a.joints = 3 * f.skels[s].limbs.len();
            }
            AnimKind::KeyFrame { header, .. } => {
                // The first keyframe skeleton of the file whose shape the arrays fit.
                let work = &mut f.scan_work;
                let keyed = &mut f.keyed_bytes;
                let skels = &f.skels;
                let mut over = None;
                let pick = (s0..skels.len()).find_map(|s| {
                    let SkelType::KeyFrame { flex, .. } = skels[s].ty else { return None };
                    let shape = crate::keyframe::KfShape { limbs: skels[s].limbs.len(), flex };
                    if !named && !spend(work, 3 * shape.limbs) {
                        return None;
                    }
                    kf_loads
                        .entry((header, shape))
                        .or_insert_with(|| {
                            let k = crate::keyframe::KfAnim::load(&ctx, a.addr, &header, shape).ok()?;
                            charge(keyed, k.decoded_bytes(), &ctx, a.addr, &mut over)?;
                            Some(k.keys_sorted())
                        })
                        .filter(|&sorted| named || sorted)
                        .map(|_| (s, shape))
                });
                if let Some(e) = over {
                    return Err(e.in_file(files[home].name.clone()));
                }
                let Some((s, shape)) = pick else {
                    let e = ctx.error(a.addr, "no keyframe skeleton fits the animation");
                    refuse(f, &files[home], &a, required, named, e)?;
                    continue;
                };
                a.skeleton = Some(s);
                a.joints = shape.joints();
                a.kind = AnimKind::KeyFrame { header, flex: shape.flex };
            }
        }
        // (A keyframe or curve animation's keys were read and checked above, as `validate`
        // reads them.)
        let checked = matches!(a.kind, AnimKind::KeyFrame { .. } | AnimKind::Curve { .. });
        match if checked { Ok(()) } else { a.validate(&ctx) } {
            Ok(()) => {
                if let (Some(first), Some(s)) = (among, a.skeleton) {
                    shared.entry(first).or_default().push((s, a.name.clone(), a.also.clone()));
                }
                keep.push(a)
            }
            Err(e) => refuse(f, &files[home], &a, required, named, e)?,
        }
    }
    // Which skeleton of several a clip plays on is a guess from the names: said, once for
    // each set of skeletons.
    for (first, clips) in shared {
        let limbs = f.skels[first].limbs.len();
        let same = &normal_by_len[&limbs];
        let names: Vec<&str> = same.iter().map(|&s| f.skels[s].name.as_str()).collect();
        let played: Vec<String> = same
            .iter()
            .filter_map(|&s| {
                let on: Vec<&str> = clips.iter().filter(|(k, ..)| *k == s).map(|(_, c, _)| c.as_str()).collect();
                let with = clips.iter().filter(|(.., also)| also.contains(&s)).count();
                let more = if on.len() > 3 { format!(" and {} more", on.len() - 3) } else { String::new() };
                let mut line = (!on.is_empty())
                    .then(|| format!("{}: {}{more}", f.skels[s].name, on[..on.len().min(3)].join(", ")));
                if with > 0 {
                    let also = format!("{} also: {with} of them", f.skels[s].name);
                    line = Some(line.map_or(also.clone(), |l| format!("{l}; {also}")));
                }
                line
            })
            .collect();
        f.warnings.push(Warning::at(
            files[home].name.clone(),
            u64::from(f.skels[first].addr & 0xFF_FFFF),
            format!(
                "skeletons {} have {limbs} limbs each, and {} clips fit them all: each is played on the one whose \
                 name says the clip's most, and where none says more on the first and written with each of \
                 them: {}",
                names.join(", "),
                clips.len(),
                played.join("; ")
            ),
        ));
    }
    f.per_file[home].1 = keep.len();
    f.anims.extend(keep);
    Ok(())
}

/// How many skeletons of one limb count a file's clips are told apart among; past these, a
/// clip that fits them goes to one of the first (a crafted file of thousands of skeletons of
/// one size must not cost clips x skeletons).
const SAME_SIZE_SKELETONS: usize = 8;

/// Of skeletons `same` (which all fit the clip), the one whose name says the clip's most: the
/// most words of the skeleton's name (`gCowTailSkel`: Cow, Tail) found among the clip's
/// (`gCowTailSwishAnim`), so gameplay_keep's `gDoorChildOpeningLeftAnim` goes with `gDoorSkel`,
/// not `gArrowSkel`, and the Moblin's `gEnMbClubStrikeDownAnim` with `gEnMbClubSkel`. The
/// first of them where none says more, and then the others that say as much: the clip is
/// written with each (`gGibdoRedeadWalkAnim` names the Gibdo and the Redead).
fn closest_named(skels: &[SkelDef], same: &[usize], clip: &str) -> (usize, Vec<usize>) {
    // (Most clips fit one skeleton: no words are made for them.)
    if let [only] = same {
        return (*only, Vec::new());
    }
    let clip_words = name_words(clip);
    let said: Vec<usize> =
        same.iter().map(|&s| name_words(&skels[s].name).iter().filter(|w| clip_words.contains(w)).count()).collect();
    let most = said.iter().copied().max().unwrap_or(0);
    let mut tied = same.iter().zip(&said).filter(|&(_, &n)| n == most).map(|(&s, _)| s);
    let best = tied.next().unwrap_or(same[0]);
    (best, tied.collect())
}

/// The words of a decomp name, lower-cased, without the ones every such name has: split at
/// `_`, where a capital follows a small letter or a digit and where a digit follows a letter
/// (`gEnMbClubSkel`: en, mb, club; `gArrow1_Anim`: arrow, 1).
fn name_words(name: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut prev: Option<char> = None;
    for c in name.chars() {
        let boundary = c == '_'
            || (c.is_ascii_uppercase() && prev.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit()))
            || (c.is_ascii_digit() && prev.is_some_and(|p| p.is_ascii_alphabetic()));
        if boundary && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        if c != '_' {
            word.push(c.to_ascii_lowercase());
        }
        prev = Some(c);
    }
    if !word.is_empty() {
        words.push(word);
    }
    words.retain(|w| !matches!(w.as_str(), "g" | "skel" | "anim" | "limb" | "limbs"));
    words.dedup();
    words
}
/// An animation that does not fit its skeleton or data: an error when the caller asked for it
/// (`required`), a warning when the asset table named it (the table's claim did not hold),
/// nothing for a scan candidate (only a candidate).
fn refuse(f: &mut Found, file: &SegFile, a: &AnimDef, required: bool, named: bool, e: Error) -> Result<()> {
    if required {
        return Err(e.in_file(file.name.clone()));
    }
    if named {
        let offset = e.offset.unwrap_or((a.addr & 0xFF_FFFF) as u64);
        let what = if matches!(a.kind, AnimKind::Link { .. }) { "player animation" } else { "animation" };
        f.warnings.push(Warning::at(
            e.file.clone().unwrap_or_else(|| file.name.clone()),
            offset,
            format!("the decomp asset table's {what} {} at {:#X} is left out: {}", a.name, a.addr & 0xFF_FFFF, e.kind),
        ));
    }
    Ok(())
}

/// Charge a keyframe or curve table's `bytes` to the document's budget: None past it, with
/// the error (at the animation's header) in `over` for the caller to return.
fn charge(budget: &mut Budget, bytes: usize, ctx: &Ctx, addr: u32, over: &mut Option<Error>) -> Option<()> {
    match budget.spend(bytes as u64) {
        Ok(()) => Some(()),
        Err(e) => {
            let at = ctx.home_offset(addr);
            *over = Some(Error::at(at, e.kind));
            None
        }
    }
}

/// Take `units` from a scan work budget; false when it has not that many, and then the budget
/// is used up (nothing more is tried, and the file's warning names the limit).
pub(crate) fn spend(budget: &mut Budget, units: usize) -> bool {
    budget.spend(units as u64).is_ok()
}

/// How many JointIndex entries fit between jointIndices and the header (same file, in order).
fn gap_joints(ctx: &Ctx, header: u32, ji: u32) -> Option<usize> {
    let (f1, o1) = ctx.resolve(header, 0, 0).ok()?;
    let (f2, o2) = ctx.resolve(ji, 0, 0).ok()?;
    (f1 == f2 && o2 < o1).then(|| (o1 - o2) / JOINT_INDEX_SIZE)
}

/// An error for an input set that has nothing to read.
pub fn nothing_found(name: &str) -> Error {
    Error::invalid(0, "no skeleton or animation found (not a Zelda 64 object?)").in_file(name.to_string())
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    /// The words a name is compared by, as the decomp's names are made.
    #[test]
    fn name_words_split_as_the_decomp_names_are_made() {
        let w = |n: &str| super::name_words(n);
        assert_eq!(w("gEnMbClubSkel"), ["en", "mb", "club"]);
        assert_eq!(w("gArrow1_Anim"), ["arrow", "1"]);
        assert_eq!(w("gGibdoRedeadWalkAnim"), ["gibdo", "redead", "walk"]);
        assert_eq!(w("object_rd_Skel_003DD8"), ["object", "rd", "003", "dd", "8"]);
        assert_eq!(w("gPlayerAnim_link_normal_walk"), ["player", "link", "normal", "walk"]);
        assert!(w("").is_empty() && w("__").is_empty() && w("gSkel").is_empty());
    }

    /// Two readings that both verify on a file give only what they agree on: entries at the
    /// same offset, of the same kind and name, in both (no real file of the shared data has
    /// two such readings since the XML's implicit offsets are placed: gameplay_keep's NTSC
    /// reading no longer verifies on the PAL bytes).
    #[test]
    fn readings_that_both_fit_give_what_they_agree_on() {
        use crate::names::{Asset, Variant};
        use std::sync::Arc;
        let at = |offset: u32, name: &'static str| Asset { offset, kind: 'A', name, attrs: "", versions: "" };
        let a: &'static Arc<Variant> = Box::leak(Box::new(Arc::new(Variant::new(
            "xml for a".into(),
            vec!["ntsc-1.0"],
            vec![at(0x10, "gShared"), at(0x20, "gOnlyA"), at(0x30, "gMovedA")],
        ))));
        let b: &'static Arc<Variant> = Box::leak(Box::new(Arc::new(Variant::new(
            "xml for b".into(),
            vec!["pal-1.0"],
            vec![at(0x10, "gShared"), at(0x40, "gMovedA"), at(0x30, "gRenamed")],
        ))));
        let common = super::common_reading(&[a, b]);
        assert_eq!(common.label, "what the readings that fit agree on (xml for a; xml for b)");
        assert_eq!(common.versions, vec!["ntsc-1.0", "pal-1.0"]);
        let names: Vec<&str> = common.assets.iter().map(|x| x.name).collect();
        assert_eq!(names, ["gShared"]);
    }

    proptest! {
        /// The scan's names are what `format!` made.
        #[test]
        fn scanned_names_match_format(stem in "[a-z_]{0,12}", h in any::<u64>(), small in 0u64..0x100_0000) {
            prop_assert_eq!(super::scanned_name(&stem, "kf_anim", h), format!("{stem}_kf_anim_{h:06X}"));
            prop_assert_eq!(super::scanned_name(&stem, "Skel", small), format!("{stem}_Skel_{small:06X}"));
            let spaced = format!("{stem} x\ty");
            prop_assert_eq!(super::scanned_name(&spaced, "Skel", small), format!("{stem}_x_y_Skel_{small:06X}"));
        }
    }
}
