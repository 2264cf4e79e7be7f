//! The Oni document: every TRAM of the files given, every body (ONCC → TRBS → TRCM, or a
//! TRBS or TRCM alone), sampling and posing as the engine does.

use crate::body::{part_name, Body};
use crate::container::{checksum_name, InstanceFile, Version};
use crate::layout::{self, array as arr, oncc, trbs, ONCC, TRAC, TRAM, TRBS, TRCM};
use crate::math::{to_glam, EQuat, Matrix43};
use crate::notes::Notes;
use crate::resolve::{Files, Ref};
use crate::tram::Tram;
use boneyard_core::{
    limit, AnimInfo, Bone, Channel, Document, Error, FileSummary, Interpolation, Limits, Mesh, Result, Sample,
    Skeleton, SkeletonInfo, Transform, Warning,
};
use glam::{Mat4, Vec3};
use serde_json::{json, Map, Value};
use std::collections::HashMap;

/// Oni instance files opened together: their TRAMs with the engine's frame walk, their bodies
/// (ONCC, TRBS, TRCM with M3GM) and which body each animation plays on.
pub struct OniDocument {
    pub(crate) files: Files,
    pub(crate) trams: Vec<Tram>,
    anims: Vec<AnimInfo>,
    pub(crate) bodies: Vec<Body>,
    skeletons: Vec<SkeletonInfo>,
    warnings: Vec<Warning>,
    /// Per animation: given the files' first body of its part count because no character
    /// class lists it (not from its TRAC), so any other body of that count is as much its.
    untied: Vec<bool>,
    /// The files' bodies of each part count after the first that have no clip of their own
    /// from a character class (what an untied animation is also written with:
    /// [`Document::also_plays_on`]).
    later_of_parts: HashMap<usize, Vec<usize>>,
}

// TRAC parent links are followed `Limits::max_trac_depth` deep. At most
// `Limits::max_trac_entries` are walked for all character classes together: every ONCC walks
// its TRAC and the TRAC's parents; descriptors can make thousands of classes share one TRAC of
// 65535 entries (billions of lookups, a list of names each). The retail game walks about 200,000.
/// Bytes charged per animation on top of its arrays (its struct, name and `list` fields):
/// descriptors can all point at the same small TRAM, so without it a 20 MB file of a
/// million descriptors would hold a million decoded animations. The retail level0_Final
/// (about 2,500 TRAMs) needs 1/25 of the limit.
const TRAM_OVERHEAD: usize = 4096;
// At most `Limits::max_bodies` bodies (ONCC, TRBS, TRCM and named M3GM entries together) in
// one document: the retail game has a few hundred; descriptors sharing one body's data could
// make a million.

impl OniDocument {
    /// Read the TRAMs and bodies of these files (links across them resolved by name).
    pub fn new(files: Vec<InstanceFile>) -> Result<OniDocument> {
        Self::with_limits(files, &Limits::default())
    }

    /// [`OniDocument::new`] within the caller's limits.
    pub fn with_limits(files: Vec<InstanceFile>, limits: &Limits) -> Result<OniDocument> {
        let limits = *limits;
        let files = Files::with_limits(files, limits);
        // Every TRAM with data, file by file, in descriptor order.
        let mut budget = 0usize;
        let mut trams = Vec::new();
        // By file and instance: the animation a TRAM became (a table, not a map: a CD's level
        // hashed every TRAM's reference).
        let mut tram_index: Vec<Vec<Option<usize>>> =
            files.files.iter().map(|f| vec![None; f.descriptors.len()]).collect();
        let mut warnings = Notes::new(&limits);
        for (fi, f) in files.files.iter().enumerate() {
            // A level's TRAMs keep their keys, heights and velocities in the .raw: without it
            // each is left out with a word (the level's bodies and meshes are in the .dat).
            let no_raw = !f.has_raw();
            for i in f.with_tag(TRAM) {
                if no_raw {
                    let name = f.descriptors[i].short_name().unwrap_or("(unnamed)");
                    warnings.push(Warning::at(
                        &f.name,
                        f.struct_offset(i).unwrap_or(0),
                        format!("TRAM {name}: left out: its data is in the .raw, which was not found beside the .dat"),
                    ));
                    continue;
                }
                // Direct-animation links that do not name an instance of the files given.
                let unnamed = std::cell::RefCell::new(Vec::new());
                let link_name = |l: u32, at: u64| -> Option<String> {
                    let n = files
                        .resolve(fi, l, at)
                        .ok()
                        .flatten()
                        .and_then(|r| files.name(r))
                        .map(|n| n.get(4..).unwrap_or(n).to_string());
                    if l != 0 && n.is_none() {
                        unnamed.borrow_mut().push(at);
                    }
                    n
                };
                let t = Tram::read(f, i, &link_name, &limits)?;
                // An overlay (ONrAnimFlag 0x2000) is played by the engine over the character's
                // running animation, on the parts it uses; boneyard plays it on its own.
                if t.flags & layout::tram::FLAG_OVERLAY != 0 {
                    warnings.push(Warning::at(
                        &f.name,
                        f.struct_offset(i).unwrap_or(0) + layout::tram::FLAGS as u64,
                        format!(
                            "TRAM {}: an overlay (flags {:#x}): the game plays its parts {:#x} over another animation (replacing {:#x}); sampled and exported here on its own, every part as its tracks give it",
                            t.name, t.flags, t.used_parts, t.replace_parts
                        ),
                    ));
                }
                for at in unnamed.into_inner() {
                    warnings.push(Warning::at(
                        &f.name,
                        at,
                        format!(
                            "TRAM {}: a direct-animation link does not name an animation of the files given; left out",
                            t.name
                        ),
                    ));
                }
                // Keys are charged per part (as decoded quaternions): parts may share one
                // stream, so the bytes alone do not bound the walking and sampling.
                let keys: usize = t.streams.iter().map(|s| s.keys).sum();
                budget += TRAM_OVERHEAD + t.rotations.len() + 12 * t.frames + 16 * keys;
                let at = f.struct_offset(i).unwrap_or(0);
                limit!(limits, max_animation_bytes)
                    .check(budget as u64, at, "bytes of decoded animations")
                    .map_err(|e| e.in_file(&f.name))?;
                tram_index[fi][i] = Some(trams.len());
                trams.push(t);
            }
        }

        // Bodies: each ONCC's (with its TRAC), each TRBS no class uses, each TRCM no set uses.
        let mut bodies: Vec<Body> = Vec::new();
        let mut extras: Vec<Map<String, Value>> = Vec::new();
        let mut ids: Vec<String> = Vec::new();
        // By animation (they are numbered densely): the body each plays on.
        let mut anim_skeleton: Vec<Option<usize>> = vec![None; trams.len()];
        let mut used_trbs = std::collections::HashSet::new();
        let mut used_trcm = std::collections::HashSet::new();
        let mut held = 0usize;
        let mut trac_walked = 0usize;
        for (fi, f) in files.files.iter().enumerate() {
            for i in f.with_tag(ONCC) {
                let r = Ref { file: fi, index: i };
                let s = files.instance_of(r, ONCC)?;
                let link = |off: usize| -> Result<Option<Ref>> {
                    let mut x = s.clone();
                    x.seek(off).map_err(|e| e.in_file(&f.name))?;
                    let l = x.u32().map_err(|e| e.in_file(&f.name))?;
                    files.resolve(fi, l, s.base() + off as u64)
                };
                let Some(set) = link(oncc::BODY_SET)? else {
                    warnings.push(Warning::at(
                        &f.name,
                        s.base() + oncc::BODY_SET as u64,
                        format!(
                            "character class {}: its body set (TRBS) is missing or not found in the files given; the class is left out",
                            files.name(r).unwrap_or("(unnamed)")
                        ),
                    ),);
                    continue;
                };
                used_trbs.insert(set);
                let (body, mut extra) = read_set(&files, set, &mut used_trcm, &mut warnings)?;
                let sk = bodies.len();
                if let Some(trac) = link(oncc::ANIMATIONS)? {
                    let mut names = Vec::new();
                    for tr in trac_animations(&files, trac, &mut trac_walked, &mut warnings)? {
                        if let Some(a) = tram_index.get(tr.file).and_then(|f| f.get(tr.index)).copied().flatten() {
                            if let Some(slot @ None) = anim_skeleton.get_mut(a) {
                                *slot = Some(sk);
                            }
                            names.push(trams[a].name.clone());
                        }
                    }
                    extra.insert("animations".into(), json!(names));
                }
                extra.insert("class".into(), json!(files.name(r)));
                ids.push(files.name(r).map(str::to_string).unwrap_or_else(|| format!("ONCC#{i}")));
                account(&mut held, &bodies, &body, &limits)?;
                bodies.push(body);
                extras.push(extra);
            }
        }
        for (fi, f) in files.files.iter().enumerate() {
            for i in f.with_tag(TRBS) {
                let r = Ref { file: fi, index: i };
                if used_trbs.contains(&r) {
                    continue;
                }
                let (body, extra) = read_set(&files, r, &mut used_trcm, &mut warnings)?;
                ids.push(files.name(r).map(str::to_string).unwrap_or_else(|| format!("TRBS#{i}")));
                account(&mut held, &bodies, &body, &limits)?;
                bodies.push(body);
                extras.push(extra);
            }
        }
        for (fi, f) in files.files.iter().enumerate() {
            for i in f.with_tag(TRCM) {
                let r = Ref { file: fi, index: i };
                if used_trcm.contains(&r) {
                    continue;
                }
                let body = Body::read_full(&files, r, &mut warnings)?;
                let mut extra = Map::new();
                extra.insert("trcm".into(), json!(body.source));
                ids.push(files.name(r).map(str::to_string).unwrap_or_else(|| format!("TRCM#{i}")));
                account(&mut held, &bodies, &body, &limits)?;
                bodies.push(body);
                extras.push(extra);
            }
        }
        // Named geometries (a standalone M3GM, e.g. an OniSplit -create:m3gm file): one rigid
        // part each, so they can be listed and exported. Body geometries are unnamed.
        for (fi, f) in files.files.iter().enumerate() {
            for i in f.with_tag(layout::M3GM) {
                let r = Ref { file: fi, index: i };
                let Some(full) = files.name(r).map(str::to_string) else { continue };
                let short = full.get(4..).unwrap_or(&full).to_string();
                let (mesh, strips) = crate::body::read_geometry_full(&files, r, 0, short.clone(), &mut warnings)?;
                let mut extra = Map::new();
                extra.insert("geometry".into(), json!(true));
                ids.push(full);
                let body = Body {
                    name: short,
                    source: format!("{}#{i}", f.file_name()),
                    translations: vec![[0.0; 3]],
                    index_blocks: vec![[0; 4]],
                    parents: vec![None],
                    meshes: vec![mesh],
                    strips: vec![strips],
                    polygon_count: 0,
                    debug_name: String::new(),
                    generic: false,
                };
                account(&mut held, &bodies, &body, &limits)?;
                bodies.push(body);
                extras.push(extra);
            }
        }
        // Animations without a body of their part count get boneyard's generic one.
        // (The files' first body of each part count, found once: a search of every body for
        // every animation is 65,536 x 4,096 steps at the limits.)
        // A character's body with clips of its own (from its TRAC) is not given the untied
        // ones too: a retail level's hundreds of characters would each carry them all.
        let mut tied = vec![false; bodies.len()];
        for &sk in anim_skeleton.iter().flatten() {
            if let Some(t) = tied.get_mut(sk) {
                *t = true;
            }
        }
        let mut first_of_parts: HashMap<usize, usize> = HashMap::new();
        let mut later_of_parts: HashMap<usize, Vec<usize>> = HashMap::new();
        for (i, b) in bodies.iter().enumerate() {
            match first_of_parts.entry(b.parts()) {
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(i);
                }
                std::collections::hash_map::Entry::Occupied(_) if !tied[i] => {
                    later_of_parts.entry(b.parts()).or_default().push(i)
                }
                std::collections::hash_map::Entry::Occupied(_) => {}
            }
        }
        let mut untied = vec![false; trams.len()];
        let mut generic_for: HashMap<usize, usize> = HashMap::new();
        for (a, t) in trams.iter().enumerate() {
            if anim_skeleton[a].is_some() {
                continue;
            }
            if let Some(&sk) = first_of_parts.get(&t.parts) {
                anim_skeleton[a] = Some(sk);
                untied[a] = true;
                continue;
            }
            let sk = *generic_for.entry(t.parts).or_insert_with(|| {
                let b = Body::generic(t.parts);
                let mut extra = Map::new();
                extra.insert("generic".into(), json!(true));
                extra.insert(
                    "note".into(),
                    json!(if t.parts == 19 {
                        "not from the files: boneyard's generic 19-part Oni skeleton (Oni's part order, the demo character's proportions), given because no body came with the animations"
                    } else {
                        "not from the files: boneyard's generic chain skeleton, given because no body came with the animations"
                    }),
                );
                ids.push(format!("generic{}", t.parts));
                bodies.push(b);
                extras.push(extra);
                bodies.len() - 1
            });
            anim_skeleton[a] = Some(sk);
        }

        // Each body's meshes move into its skeleton: the document holds them once.
        let mut skeletons = Vec::with_capacity(bodies.len());
        for ((b, extra), id) in bodies.iter_mut().zip(extras).zip(ids) {
            skeletons.push(skeleton_info(b, id, extra)?);
        }
        let anims = trams
            .iter()
            .enumerate()
            .map(|(i, t)| AnimInfo {
                index: i,
                name: t.name.clone(),
                frames: t.frames as u32,
                fps: layout::tram::ENGINE_FPS as f64,
                bones: t.parts,
                format: t.format(),
                source: {
                    // `format!("{}#{}", file name, t.descriptor)` by hand (once per TRAM).
                    let file = boneyard_core::text::file_name(&t.file);
                    let mut source = String::with_capacity(file.len() + 8);
                    source.push_str(file);
                    source.push('#');
                    boneyard_core::text::push_decimal(&mut source, t.descriptor as u64, 1);
                    source
                },
                skeleton: anim_skeleton[i],
                // The engine plays whole frames (`engine_frame`: the floor), each computed
                // from the keys around it: between two of its frames it holds the first.
                interpolation: Interpolation::Step,
                // Built when asked for (`animation_extra`): a CD's worth of TRAMs would hold
                // over 50 MB of JSON trees otherwise.
                extra: Map::new(),
            })
            .collect();
        // (A body read twice, a set used by two classes, said the same things twice: `Notes`
        // kept them once.)
        let warnings = warnings.into_list();
        Ok(OniDocument { files, trams, anims, bodies, skeletons, warnings, untied, later_of_parts })
    }

    /// The five TRCM bodies of body set (TRBS) `index` of file `file`, lowest detail first:
    /// the distinct bodies in slot order, and for each slot the index of its body (None for
    /// a slot whose link is 0 or not found). A TRBS whose slots all link one TRCM (as
    /// OniSplit's `-create:trbs` writes) gives one body.
    pub fn body_set_lods(&self, file: usize, index: usize) -> Result<(Vec<Body>, [Option<usize>; trbs::LODS])> {
        let set = Ref { file, index };
        let f = self.files.file(file)?;
        let s = self.files.instance_of(set, TRBS)?;
        let mut r = s.clone();
        let mut refs: Vec<Ref> = Vec::new();
        let mut bodies = Vec::new();
        let mut slots = [None; trbs::LODS];
        for slot in &mut slots {
            let at = r.offset();
            let l = r.u32().map_err(|e| e.in_file(&f.name))?;
            if let Some(t) = self.files.resolve(file, l, at)? {
                let k = match refs.iter().position(|&x| x == t) {
                    Some(k) => k,
                    None => {
                        refs.push(t);
                        bodies.push(Body::read(&self.files, t)?);
                        refs.len() - 1
                    }
                };
                *slot = Some(k);
            }
        }
        Ok((bodies, slots))
    }

    fn tram(&self, anim: usize) -> Result<&Tram> {
        self.trams
            .get(anim)
            .ok_or_else(|| Error::not_found(format!("no animation #{anim} (there are {})", self.trams.len())))
    }

    /// The engine's frame for a requested (real) frame: whole frames, rounded down, clamped
    /// (NaN reads frame 0; +∞ the last frame, like any frame past the end).
    pub fn engine_frame(t: &Tram, frame: f64) -> usize {
        if frame.is_nan() || frame <= 0.0 {
            0
        } else {
            // `as` saturates (+∞ and 1e300 give usize::MAX); `frames >= 1` (checked at load).
            (frame.floor() as usize).min(t.frames.saturating_sub(1))
        }
    }

    /// The character base matrix at `frame`: translate to the root's position (the summed
    /// motion), facing 0, then up by the frame's height (`ONrCharacter_BuildMatricies`).
    pub fn base_matrix(t: &Tram, frame: usize) -> Matrix43 {
        let p = t.position(frame);
        let mut m = Matrix43::IDENTITY;
        m.translate([p[0], 0.0, p[1]]);
        m.translate([0.0, t.height(frame), 0.0]);
        m
    }

    /// The local transforms of `body` at whole frame `f` of `t` (rotations `rots`): each part
    /// turned by its rotation at its offset from its parent, the root at the base matrix's
    /// place (position, then height, then the part's offset), as the engine poses a body.
    fn locals_on(body: &Body, t: &Tram, f: usize, rots: &[EQuat], locals: &mut Vec<Transform>) {
        let pos = t.position(f);
        locals.clear();
        locals.extend((0..body.parts()).map(|i| {
            let mut tr = Vec3::from(body.translations[i]);
            if body.parents[i].is_none() {
                tr = Vec3::new(pos[0], 0.0, pos[1]) + Vec3::new(0.0, t.height(f), 0.0) + tr;
            }
            let q = rots.get(i).copied().unwrap_or([0.0, 0.0, 0.0, 1.0]);
            Transform::new(tr, to_glam(q))
        }));
    }

    /// Engine matrices (3×4) of skeleton `skeleton` posed by `anim` at `frame`.
    pub fn engine_pose(&self, skeleton: usize, anim: Option<usize>, frame: f64) -> Result<Vec<Matrix43>> {
        let body = self.bodies.get(skeleton).ok_or_else(|| Error::not_found(format!("no skeleton #{skeleton}")))?;
        match anim {
            None => Ok(body.pose(&Matrix43::IDENTITY, &[])),
            Some(a) => {
                let t = self.tram(a)?;
                let f = Self::engine_frame(t, frame);
                let rots = t.rotations_at(f)?;
                Ok(body.pose(&Self::base_matrix(t, f), &rots))
            }
        }
    }

    /// The instance files as parsed.
    pub fn instance_files(&self) -> &[InstanceFile] {
        &self.files.files
    }
    /// Every TRAM read, in the order of [`Document::animations`].
    pub fn trams(&self) -> &[Tram] {
        &self.trams
    }
    /// Every body read (and boneyard's generic one for bodiless animations), in the order of
    /// [`Document::skeletons`]. Their `meshes` are empty: each body's meshes were moved into
    /// its skeleton, so that the document holds them once ([`OniDocument::body_meshes`]).
    pub fn bodies(&self) -> &[Body] {
        &self.bodies
    }
    /// The meshes of body `body` (those of skeleton `body`: see [`OniDocument::bodies`]);
    /// empty past the last body.
    pub fn body_meshes(&self, body: usize) -> &[Mesh] {
        self.skeletons.get(body).map_or(&[], |s| &s.meshes)
    }
}

/// Vertices and indices of a body's meshes.
pub(crate) fn body_elements(b: &Body) -> usize {
    b.meshes.iter().map(|m| m.positions.len() + m.indices.len()).sum()
}

/// Bodies may share geometry (and descriptors may share a body's data); bound what the
/// document holds before `body` joins `bodies`. `held` is the running count of vertices and
/// indices (a running total, so adding N bodies costs O(N), not O(N²)).
fn account(held: &mut usize, bodies: &[Body], body: &Body, limits: &Limits) -> Result<()> {
    limit!(limits, max_bodies).check(bodies.len() as u64 + 1, 0, "bodies").map_err(|e| e.in_file(&body.source))?;
    *held = held.saturating_add(body_elements(body));
    limit!(limits, max_body_vertices)
        .check(*held as u64, 0, "vertices and indices in the bodies")
        .map_err(|e| e.in_file(&body.source))?;
    Ok(())
}

/// A TRBS: its five links (lowest detail first) and the highest-detail body, as the engine
/// poses.
fn read_set(
    files: &Files,
    set: Ref,
    used_trcm: &mut std::collections::HashSet<Ref>,
    warnings: &mut Notes,
) -> Result<(Body, Map<String, Value>)> {
    let f = files.file(set.file)?;
    let s = files.instance_of(set, TRBS)?;
    let mut r = s.clone();
    let mut lods = Vec::with_capacity(trbs::LODS);
    for k in 0..trbs::LODS {
        let at = r.offset();
        let l = r.u32().map_err(|e| e.in_file(&f.name))?;
        let t = files.resolve(set.file, l, at)?;
        if t.is_none() {
            let why = if l == 0 { "is empty (link 0)" } else { "links a TRCM not found in the files given" };
            warnings.push(Warning::at(
                &f.name,
                at,
                format!("body set {}: detail slot {k} {why}", files.name(set).unwrap_or("(unnamed)")),
            ));
        }
        lods.push(t);
    }
    for l in lods.iter().flatten() {
        used_trcm.insert(*l);
    }
    let high = lods
        .iter()
        .rev()
        .flatten()
        .next()
        .copied()
        .ok_or_else(|| Error::invalid(s.base(), "TRBS without any TRCM found").in_file(&f.name))?;
    let mut body = Body::read_full(files, high, warnings)?;
    if let Some(n) = files.name(set) {
        body.name = n.get(4..).unwrap_or(n).to_string();
    }
    let mut extra = Map::new();
    extra.insert("body_set".into(), json!(files.name(set)));
    extra.insert(
        "lods".into(),
        json!(lods
            .iter()
            .map(|l| l.map(|r| format!("{}#{}", files.files[r.file].file_name(), r.index)))
            .collect::<Vec<_>>()),
    );
    extra.insert("posed_lod".into(), json!(format!("{}#{}", files.files[high.file].file_name(), high.index)));
    Ok((body, extra))
}

/// The TRAMs of a TRAC and its parents (a parent chain that comes back to a TRAC already
/// walked ends there). `walked` counts the entries walked by every call, against
/// `Limits::max_trac_entries`.
fn trac_animations(files: &Files, trac: Ref, walked: &mut usize, warnings: &mut Notes) -> Result<Vec<Ref>> {
    let mut out = Vec::new();
    let mut cur = Some(trac);
    let mut depth = 0;
    let mut seen = std::collections::HashSet::new();
    while let Some(c) = cur {
        depth += 1;
        if !seen.insert(c) {
            break;
        }
        if depth > files.limits.max_trac_depth {
            let name = &files.files[c.file].name;
            let at = files.files[c.file].struct_offset(c.index).unwrap_or(0);
            let lim = limit!(files.limits, max_trac_depth);
            warnings.push(Warning::at(
                name,
                at,
                format!("TRAC parent chain deeper than limit `{}` ({}): the rest left out", lim.name, lim.max),
            ));
            break;
        }
        let f = files.file(c.file)?;
        let s = files.instance_of(c, TRAC)?;
        let mut r = s.clone();
        let e = |e: Error| e.in_file(&f.name);
        r.seek(arr::TRAC_PARENT).map_err(e)?;
        let parent = r.u32().map_err(e)?;
        r.seek(arr::COUNT).map_err(e)?;
        let n = r.u16().map_err(e)? as u64;
        r.seek(arr::ELEMENTS).map_err(e)?;
        let n = r
            .check_count(n, arr::TRAC_ENTRY_SIZE, limit!(files.limits, max_trac_entries), "TRAC entries")
            .map_err(e)?;
        *walked = walked.saturating_add(n);
        limit!(files.limits, max_trac_entries)
            .check(*walked as u64, s.base() + arr::COUNT as u64, "TRAC entries listed by the character classes")
            .map_err(|e| e.in_file(&f.name))?;
        let (mut missing, mut first_missing) = (0usize, 0u64);
        for _ in 0..n {
            let entry = r.bytes(arr::TRAC_ENTRY_SIZE).map_err(e)?;
            let at = r.offset() - 4;
            let l = u32::from_le_bytes([entry[8], entry[9], entry[10], entry[11]]);
            if let Some(t) = files.resolve(c.file, l, at)? {
                out.push(t);
            } else {
                if missing == 0 {
                    first_missing = at;
                }
                missing += 1;
            }
        }
        if missing > 0 {
            warnings.push(Warning::at(
                &f.name,
                first_missing,
                format!(
                    "animation collection {}: {missing} of {n} entries link a TRAM that is missing or not found in the files given (give level0_Final too); they are left out",
                    files.name(c).unwrap_or("(unnamed)")
                ),
            ),);
        }
        cur = files.resolve(c.file, parent, s.base() + arr::TRAC_PARENT as u64)?;
    }
    Ok(out)
}

/// The skeleton of body `b`, which gives it its meshes (`b.meshes` is left empty).
fn skeleton_info(b: &mut Body, id: String, mut extra: Map<String, Value>) -> Result<SkeletonInfo> {
    let n = b.parts();
    let bones = (0..n)
        .map(|i| Bone {
            name: part_name(i, n),
            parent: b.parents[i],
            rest: Transform::new(Vec3::from(b.translations[i]), glam::Quat::IDENTITY),
        })
        .collect();
    let skeleton = Skeleton::new(b.name.clone(), bones)?;
    extra.insert("parts".into(), json!(n));
    extra.insert("tria".into(), json!(b.index_blocks));
    extra.insert("polygon_count".into(), json!(b.polygon_count));
    if !b.debug_name.is_empty() {
        extra.insert("debug_name".into(), json!(b.debug_name));
    }
    extra.entry("generic").or_insert(json!(b.generic));
    Ok(SkeletonInfo {
        id,
        name: b.name.clone(),
        source: b.source.clone(),
        skeleton,
        meshes: std::mem::take(&mut b.meshes),
        extra,
    })
}

impl Document for OniDocument {
    fn family(&self) -> &'static str {
        "oni"
    }

    fn files(&self) -> Vec<FileSummary> {
        self.files
            .files
            .iter()
            .enumerate()
            .flat_map(|(fi, f)| {
                let mut by_tag: std::collections::BTreeMap<String, u64> = Default::default();
                for d in &f.descriptors {
                    *by_tag.entry(layout::tag_name(d.tag)).or_default() += 1;
                }
                let mut counts = vec![
                    ("instances".to_string(), f.descriptors.len() as u64),
                    ("named".to_string(), f.descriptors.iter().filter(|d| d.name.is_some()).count() as u64),
                    ("placeholders".to_string(), f.descriptors.iter().filter(|d| d.placeholder).count() as u64),
                    ("templates".to_string(), f.num_templates as u64),
                ];
                counts.extend(by_tag);
                let mut notes = Vec::new();
                match f.version {
                    Version::Vr31 => {
                        if f.has_raw() {
                            notes.push(format!("raw data: {} ({} bytes)", f.raw_name(), f.raw_len()));
                        } else {
                            notes.push(
                                "no .raw found beside the .dat: its TRAMs are left out (their data is in the .raw)"
                                    .into(),
                            );
                        }
                        if let Some((n, b)) = &f.sep {
                            notes.push(format!("separate data: {n} ({} bytes)", b.len()));
                        }
                    }
                    Version::Vr32 => notes.push(format!("raw table inside the file ({} bytes)", f.raw_len())),
                }
                let un = self.files.unresolved(fi);
                if un > 0 {
                    notes.push(format!("{un} placeholders not defined by the files given (give level0_Final too)"));
                }
                for t in self.trams.iter().filter(|t| t.file == f.name) {
                    notes.push(format!(
                        "TRAM {}: {}, {} parts, key size {}, fps {}, type {}, from {} to {}",
                        t.name,
                        boneyard_core::text::counted(t.frames, "frame", "frames"),
                        t.parts,
                        t.key_size,
                        t.fps,
                        t.kind,
                        t.from_state,
                        t.to_state
                    ));
                }
                for tag in [ONCC, TRBS, TRCM] {
                    for i in f.with_tag(tag) {
                        let nm = f.descriptors[i].short_name().unwrap_or("(unnamed)").to_string();
                        notes.push(format!("{} #{i} {nm}", layout::tag_name(tag)));
                    }
                }
                let mut summaries = vec![FileSummary {
                    path: f.name.clone(),
                    format: match f.version {
                        Version::Vr31 => "Oni level file".into(),
                        Version::Vr32 => "Oni instance file (OniSplit .oni)".into(),
                    },
                    variant: format!("{} {}", f.version.name(), checksum_name(f.checksum)),
                    counts,
                    notes,
                }];
                // A level's companions are files of the document too (a folder's list named
                // none of them, where Zelda's gameplay_keep is named beside Link's objects).
                let companion = |path: String, format: &str, bytes: usize| FileSummary {
                    path,
                    format: format.into(),
                    variant: String::new(),
                    counts: vec![("bytes".into(), bytes as u64)],
                    notes: vec![format!("read with {}", f.name)],
                };
                if f.version == Version::Vr31 && f.has_raw() {
                    summaries.push(companion(f.raw_name().to_string(), "Oni level raw data (.raw)", f.raw_len()));
                }
                if let Some((n, b)) = &f.sep {
                    summaries.push(companion(n.clone(), "Oni level separate data (.sep)", b.len()));
                }
                summaries
            })
            .collect()
    }

    fn skeletons(&self) -> &[SkeletonInfo] {
        &self.skeletons
    }

    fn animations(&self) -> &[AnimInfo] {
        &self.anims
    }

    fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    fn animation_extra(&self, anim: usize) -> Map<String, Value> {
        self.trams.get(anim).map(Tram::info_json).unwrap_or_default()
    }

    /// Whole frames only (the engine's animation time is a frame number): the frame is
    /// rounded down and clamped to the clip.
    fn sample(&self, anim: usize, frame: f64) -> Result<Sample> {
        let t = self.tram(anim)?;
        let f = Self::engine_frame(t, frame);
        let rots: Vec<EQuat> = t.rotations_at(f)?;
        let mut channels: Vec<Channel> =
            rots.iter().enumerate().map(|(i, q)| Channel::new(i.to_string(), "rotation", json!(q))).collect();
        channels.push(Channel::new("root", "height", json!(t.height(f))));
        channels.push(Channel::new("root", "velocity", json!(t.velocities.get(f).copied().unwrap_or([0.0, 0.0]))));
        let pos = t.position(f);
        let sk = self.anims.get(anim).and_then(|a| a.skeleton);
        let mut locals = Vec::new();
        if let Some(body) = sk.and_then(|s| self.bodies.get(s)) {
            Self::locals_on(body, t, f, &rots, &mut locals);
        }
        Ok(Sample {
            frame: f as f64,
            channels,
            locals,
            root_motion: Some(Vec3::new(pos[0], 0.0, pos[1])),
            extra: {
                // cli.md: engines that play whole frames say how a real one is taken.
                let mut extra = t.frame_json(f);
                extra.insert(
                    "frame_rounding".into(),
                    json!("floor, clamped into 0..frames-1 (the engine plays whole frames)"),
                );
                extra
            },
        })
    }

    fn pose(&self, skeleton: usize, anim: Option<usize>, frame: f64) -> Result<Vec<Mat4>> {
        Ok(self.engine_pose(skeleton, anim, frame)?.iter().map(Matrix43::to_mat4).collect())
    }

    /// The engine plays a TRAM on any body of its part count (a character class's animations
    /// are shared by every class that lists its TRAC).
    fn plays_on(&self, anim: usize, skeleton: usize) -> bool {
        match (self.trams.get(anim), self.bodies.get(skeleton)) {
            (Some(t), Some(b)) => t.parts == b.parts(),
            _ => false,
        }
    }

    /// An animation no character class lists is the files' first body of its part count's
    /// by default only: every other body of that count (from the files) is as much its.
    fn also_plays_on(&self, anim: usize) -> &[usize] {
        match (self.untied.get(anim), self.trams.get(anim)) {
            (Some(true), Some(t)) => self.later_of_parts.get(&t.parts).map_or(&[], Vec::as_slice),
            _ => &[],
        }
    }

    fn sample_locals_on(
        &self,
        anim: usize,
        skeleton: usize,
        frame: f64,
        locals: &mut Vec<Transform>,
    ) -> Result<Option<Vec3>> {
        if !self.plays_on(anim, skeleton) {
            return Err(Error::unsupported(format!(
                "animation #{anim} has {} parts, skeleton #{skeleton} another count",
                self.trams.get(anim).map_or(0, |t| t.parts)
            )));
        }
        let t = self.tram(anim)?;
        let f = Self::engine_frame(t, frame);
        let rots = t.rotations_at(f)?;
        Self::locals_on(&self.bodies[skeleton], t, f, &rots, locals);
        let pos = t.position(f);
        Ok(Some(Vec3::new(pos[0], 0.0, pos[1])))
    }

    fn check(&self) -> Result<Vec<String>> {
        crate::check::lines(self)
    }
}
