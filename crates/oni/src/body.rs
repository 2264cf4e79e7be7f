//! Bodies: TRCM (parts, TRGA geometries, TRTA offsets, TRIA hierarchy), M3GM geometry, and
//! posing as `iBuildMatriciesRecursive` (0x427570).

use crate::layout::{array as arr, m3gm as g, trcm, IDXA, M3GM, PNTA, TRCM, TRGA, TRIA, TRTA, TXCA, VCRA};
use crate::math::{EQuat, Matrix43};
use crate::notes::Notes;
use crate::resolve::{Files, Ref};
use boneyard_core::limit;
use boneyard_core::{Error, Mesh, MeshBinding, Reader, Result, Warning};
use glam::{Vec2, Vec3};

/// Oni's body-part names, in part order (OniSplit's table; the engine has no names).
pub const PART_NAMES: [&str; 19] = [
    "pelvis",
    "left_thigh",
    "left_calf",
    "left_foot",
    "right_thigh",
    "right_calf",
    "right_foot",
    "mid",
    "chest",
    "neck",
    "head",
    "left_shoulder",
    "left_biceps",
    "left_wrist",
    "left_handfist",
    "right_shoulder",
    "right_biceps",
    "right_wrist",
    "right_handfist",
];

/// The name of part `i` of a body of `parts` parts: Oni's biped names ("pelvis",
/// "left_thigh"...) for a 19-part body, `part<i>` otherwise.
pub fn part_name(i: usize, parts: usize) -> String {
    match PART_NAMES.get(i) {
        Some(n) if parts == PART_NAMES.len() => n.to_string(),
        _ => format!("part{i}"),
    }
}

/// A body ready to pose.
#[derive(Debug, Clone)]
pub struct Body {
    /// The body's name (the ONCC/TRBS instance's, without its tag).
    pub name: String,
    /// Where it came from: file and instance.
    pub source: String,
    /// Each part's offset from its parent (TRCM's TRTA), in world units.
    pub translations: Vec<[f32; 3]>,
    /// TRIA: parent, first child, next sibling, zero.
    pub index_blocks: Vec<[u8; 4]>,
    /// Parents as the child/sibling links give them (what the engine follows).
    pub parents: Vec<Option<usize>>,
    /// One M3GM mesh per part, rigid on that part. Empty in an [`crate::OniDocument`]'s
    /// bodies, whose meshes are their skeletons' ([`crate::OniDocument::body_meshes`]).
    pub meshes: Vec<Mesh>,
    /// The triangle strips (M3GM's first IDXA) as stored, one entry per mesh of `meshes`
    /// (empty for a mesh not read from a file). The encoder writes them back when they still
    /// describe the mesh's triangles, so a body read and written again keeps OniSplit's strips.
    pub strips: Vec<Vec<u32>>,
    /// TRCM's polygon count field, kept for the encoder.
    pub polygon_count: i32,
    /// TRCM's debug name field, kept for the encoder.
    pub debug_name: String,
    /// Not from a file: boneyard's generic skeleton for bodiless animations.
    pub generic: bool,
}

/// A list instance (TRGA/TRTA/TRIA: count at 0x16, elements at 0x18).
fn small_array<'a>(files: &'a Files, r: Ref, tag: u32, elem: usize, need: usize) -> Result<(Reader<'a>, usize)> {
    let f = files.file(r.file)?;
    let mut s = files.instance_of(r, tag)?;
    s.seek(arr::COUNT)?;
    let n = s.u16()? as usize;
    s.seek(arr::ELEMENTS)?;
    let n = s
        .check_count(n as u64, elem, limit!(files.limits, max_body_elements), crate::layout::tag_name(tag).as_str())
        .map_err(|e| e.in_file(&f.name))?;
    if n < need {
        return Err(Error::invalid(
            s.base() + arr::COUNT as u64,
            format!("{} has {n} elements for {need} parts", crate::layout::tag_name(tag)),
        )
        .in_file(&f.name));
    }
    Ok((s, n))
}

/// A VCRA/TXCA/IDXA list: (reader at the elements, count).
fn list<'a>(files: &'a Files, r: Ref, tag: u32, elem: usize) -> Result<(Reader<'a>, usize)> {
    let f = files.file(r.file)?;
    let mut s = files.instance_of(r, tag)?;
    let (count_at, elems_at) =
        if tag == PNTA { (g::PNTA_COUNT, g::PNTA_ELEMENTS) } else { (g::LIST_COUNT, g::LIST_ELEMENTS) };
    s.seek(count_at)?;
    let n = s.u32()? as u64;
    s.seek(elems_at)?;
    let n = s
        .check_count(n, elem, limit!(files.limits, max_body_elements), crate::layout::tag_name(tag).as_str())
        .map_err(|e| e.in_file(&f.name))?;
    Ok((s, n))
}

fn vec3s(mut r: Reader<'_>, n: usize, file: &str) -> Result<Vec<Vec3>> {
    // Read at once (one check of the bytes, one allocation of the known length; an element
    // at a time was most of a level's open), then the first non-finite coordinate named at
    // its element's offset: the error a walk element by element meets first, as every
    // element is there when the read succeeds.
    let start = r.offset();
    let out = r.f32_groups(n, Vec3::from).map_err(|e| e.in_file(file))?;
    if let Some(k) = out.iter().position(|v| !v.is_finite()) {
        return Err(Error::invalid(start + 12 * k as u64, "coordinate is not finite").in_file(file));
    }
    Ok(out)
}

/// `n` u32s (an IDXA's elements), into a vector of that length.
fn u32s(r: &mut Reader<'_>, n: usize) -> Result<Vec<u32>> {
    r.u32_vec(n)
}

/// Read an M3GM into a rigid mesh of part `bone` (what it skips is not reported; see
/// `read_geometry_full`).
pub fn read_geometry(files: &Files, gref: Ref, bone: usize, name: String) -> Result<Mesh> {
    Ok(read_geometry_full(files, gref, bone, name, &mut Notes::new(&files.limits))?.0)
}

/// The M3GM links by slot, with the tag OniSplit's `GeometryDatReader` expects there (it
/// reads all six without checking).
pub const M3GM_SLOTS: [(usize, u32, &str); 6] = [
    (g::POINTS, PNTA, "points"),
    (g::VERTEX_NORMALS, VCRA, "vertex normals"),
    (g::TRIANGLE_NORMALS, VCRA, "triangle normals"),
    (g::TEXCOORDS, TXCA, "texture coordinates"),
    (g::STRIPS, IDXA, "triangle strips"),
    (g::TRIANGLE_NORMAL_INDICES, IDXA, "triangle normal indices"),
];

/// Read an M3GM into a rigid mesh of part `bone` and its triangle strips as stored; what is
/// left out (a missing or unresolved array, normals or texture coordinates of the wrong
/// count, a texture not decoded) goes to `warnings`.
pub(crate) fn read_geometry_full(
    files: &Files,
    gref: Ref,
    bone: usize,
    name: String,
    warnings: &mut Notes,
) -> Result<(Mesh, Vec<u32>)> {
    let f = files.file(gref.file)?;
    let fname = f.name.clone();
    let s = files.instance_of(gref, M3GM)?;
    let raw_link = |off: usize| -> Result<u32> {
        let mut r = s.clone();
        r.seek(off)?;
        r.u32()
    };
    for (off, _, what) in M3GM_SLOTS.iter().skip(1) {
        let at = s.base() + *off as u64;
        let l = raw_link(*off)?;
        if l == 0 {
            warnings.push(Warning::at(
                &fname,
                at,
                format!("M3GM {name}: no {what} (link 0); OniSplit's reader cannot read such a geometry"),
            ));
        } else if files.resolve(gref.file, l, at)?.is_none() {
            warnings.push(Warning::at(
                &fname,
                at,
                format!("M3GM {name}: the {what} link is a placeholder not defined in the files given; left out"),
            ));
        }
    }
    // Textures: one warning per file (a retail level has thousands of textured geometries).
    const TEXTURE: &str = "links a texture (TXMP), which boneyard does not decode";
    // (A struct too short to hold the texture link was read as before, up to the strips.)
    let textured = raw_link(g::BASE_MAP).is_ok_and(|l| l != 0);
    if textured && warnings.first_texture_of(gref.file) {
        warnings.push(Warning::at(
            &fname,
            s.base() + g::BASE_MAP as u64,
            format!(
                "M3GM {name} {TEXTURE} (the first such geometry of this file; there may be more): drawn untextured"
            ),
        ));
    }
    let link_at = |off: usize| -> Result<Option<Ref>> {
        let l = raw_link(off)?;
        files.resolve(gref.file, l, s.base() + off as u64)
    };
    let pnta = link_at(g::POINTS)?
        .ok_or_else(|| Error::invalid(s.base() + g::POINTS as u64, "M3GM without points (PNTA)").in_file(&fname))?;
    let (pr, n) = list(files, pnta, PNTA, 12)?;
    let positions = vec3s(pr, n, &fname)?;
    let normals = match link_at(g::VERTEX_NORMALS)? {
        Some(v) => {
            let (r, k) = list(files, v, VCRA, 12)?;
            if k == n {
                Some(vec3s(r, k, &fname)?)
            } else {
                warnings.push(Warning::at(
                    &fname,
                    s.base() + g::VERTEX_NORMALS as u64,
                    format!("M3GM {name}: {k} vertex normals for {n} points; the normals are left out"),
                ));
                None
            }
        }
        None => None,
    };
    let uvs = match link_at(g::TEXCOORDS)? {
        Some(v) => {
            let (mut r, k) = list(files, v, TXCA, 8)?;
            if k >= n {
                Some(r.f32_groups(n, Vec2::from)?)
            } else {
                warnings.push(Warning::at(
                    &fname,
                    s.base() + g::TEXCOORDS as u64,
                    format!("M3GM {name}: {k} texture coordinates for {n} points; they are left out"),
                ));
                None
            }
        }
        None => None,
    };
    let tri_normals = match link_at(g::TRIANGLE_NORMALS)? {
        Some(v) => {
            let (r, k) = list(files, v, VCRA, 12)?;
            Some(vec3s(r, k, &fname)?)
        }
        None => None,
    };
    let tri_normal_idx: Option<Vec<u32>> = match link_at(g::TRIANGLE_NORMAL_INDICES)? {
        Some(v) => {
            let (mut r, k) = list(files, v, IDXA, 4)?;
            Some(u32s(&mut r, k)?)
        }
        None => None,
    };
    let strips: Vec<u32> = match link_at(g::STRIPS)? {
        Some(v) => {
            let (mut r, k) = list(files, v, IDXA, 4)?;
            u32s(&mut r, k)?
        }
        None => Vec::new(),
    };
    let mut indices = walk_strips(&strips, tri_normal_idx.as_ref().map(|v| v.len()), n)
        .map_err(|m| Error::invalid(s.base() + g::STRIPS as u64, format!("M3GM {name}: {m}")).in_file(&fname))?;
    // The engine walks the strips without flipping every other triangle; it draws both
    // sides unless the geometry asks for backface removal. For a consistent winding, orient
    // each triangle by its vertices' normals (OniSplit's triangle normals are not reliable:
    // the box fixture's bottom face has one up and one down), else by its triangle normal.
    for (t, tri) in indices.chunks_exact_mut(3).enumerate() {
        let reference = match (&normals, &tri_normals, &tri_normal_idx) {
            (Some(vn), _, _) => Some(tri.iter().filter_map(|&i| vn.get(i as usize)).copied().sum::<Vec3>()),
            (None, Some(tn), Some(ti)) => ti.get(t).and_then(|&k| tn.get(k as usize)).copied(),
            _ => None,
        };
        let Some(nrm) = reference else { continue };
        let [a, b, c] = [tri[0], tri[1], tri[2]].map(|i| positions.get(i as usize).copied().unwrap_or(Vec3::ZERO));
        if (b - a).cross(c - a).dot(nrm) < 0.0 {
            tri.swap(1, 2);
        }
    }
    let mesh = Mesh {
        name,
        positions,
        normals,
        uvs,
        colors: None,
        indices,
        binding: MeshBinding::Rigid { bone },
        base_color: [0.75, 0.72, 0.68, 1.0],
        texture: None,
        alpha_mode: boneyard_core::model::AlphaMode::Opaque,
    };
    Ok((mesh, strips))
}

/// The engine's strip walk: for each of `tris` triangles, take the next index; one with the
/// high bit starts a strip (it and the next two are a fresh triangle); otherwise the new index
/// makes a triangle with the previous two. Without a triangle count, walk until the indices
/// run out.
pub fn walk_strips(strips: &[u32], tris: Option<usize>, points: usize) -> std::result::Result<Vec<u32>, String> {
    // Each triangle takes at least one index, so this bounds the output (no regrowth).
    let mut out = Vec::with_capacity(3 * tris.unwrap_or(strips.len()).min(strips.len()));
    let mut p = 0usize;
    let (mut i0, mut i1): (Option<u32>, Option<u32>) = (None, None);
    let mut t = 0usize;
    loop {
        match tris {
            Some(n) if t >= n => break,
            None if p >= strips.len() => break,
            _ => {}
        }
        let next = |p: &mut usize| -> std::result::Result<u32, String> {
            let v = strips.get(*p).copied().ok_or_else(|| format!("the strips end after {t} of {tris:?} triangles"))?;
            *p += 1;
            Ok(v)
        };
        let mut i2 = next(&mut p)?;
        if i2 & g::STRIP_START != 0 {
            i0 = Some(i2 & !g::STRIP_START);
            i1 = Some(next(&mut p)?);
            i2 = next(&mut p)?;
        }
        let (Some(a), Some(b)) = (i0, i1) else {
            return Err("the first strip index does not start a strip (high bit clear)".into());
        };
        for v in [a, b, i2] {
            if v as usize >= points {
                return Err(format!("strip index {v} is out of {points} points"));
            }
        }
        out.extend([a, b, i2]);
        i0 = Some(b);
        i1 = Some(i2);
        t += 1;
    }
    Ok(out)
}

/// Parents from the child/sibling links, walked as the engine walks them (from part 0,
/// siblings with the same parent, children with this part as parent), iteratively.
pub fn parents_from_links(blocks: &[[u8; 4]]) -> std::result::Result<Vec<Option<usize>>, String> {
    let n = blocks.len();
    let mut parents = vec![None; n];
    let mut seen = vec![false; n];
    let mut stack: Vec<(usize, Option<usize>)> = vec![(0, None)];
    while let Some((p, parent)) = stack.pop() {
        if p >= n {
            return Err(format!("TRIA links to part {p} of {n}"));
        }
        if seen[p] {
            return Err(format!("TRIA reaches part {p} twice (a cycle or a shared child)"));
        }
        seen[p] = true;
        parents[p] = parent;
        let [_, child, sibling, _] = blocks[p];
        if sibling != 0 {
            stack.push((sibling as usize, parent));
        }
        if child != 0 {
            stack.push((child as usize, Some(p)));
        }
    }
    if let Some(p) = seen.iter().position(|s| !s) {
        return Err(format!("part {p} is not reached from part 0 by the TRIA links"));
    }
    for (p, par) in parents.iter().enumerate() {
        if let Some(q) = *par {
            if q >= p {
                return Err(format!("part {p}'s parent {q} does not precede it (boneyard needs parents first)"));
            }
        }
    }
    Ok(parents)
}

/// Child/sibling links from parents (for the generic skeleton and the encoder).
pub fn links_from_parents(parents: &[Option<usize>]) -> Vec<[u8; 4]> {
    let n = parents.len();
    let mut blocks = vec![[0u8; 4]; n];
    for p in 0..n {
        let par = parents[p];
        blocks[p][0] = par.unwrap_or(0) as u8;
        blocks[p][1] = (0..n).find(|&c| parents[c] == Some(p)).unwrap_or(0) as u8;
        blocks[p][2] = (p + 1..n).find(|&s| parents[s] == par && par.is_some()).unwrap_or(0) as u8;
    }
    blocks
}

impl Body {
    /// Read TRCM `r` (what it skips is not reported: an open's documents list it among their
    /// warnings).
    pub fn read(files: &Files, r: Ref) -> Result<Body> {
        Body::read_full(files, r, &mut Notes::new(&files.limits))
    }

    /// Read TRCM `r`; parts whose geometry is missing or not found, and what the geometries
    /// leave out, go to `warnings`.
    pub(crate) fn read_full(files: &Files, r: Ref, warnings: &mut Notes) -> Result<Body> {
        let f = files.file(r.file)?;
        let fname = f.name.clone();
        let desc_name = f.descriptors.get(r.index).and_then(|d| d.short_name()).map(str::to_string);
        let s = files.instance_of(r, TRCM)?;
        let mut rd = s.clone();
        rd.seek(trcm::POLYGON_COUNT)?;
        let polygon_count = rd.i32()?;
        let parts = rd.u16()? as usize;
        rd.seek(trcm::DEBUG_NAME)?;
        let debug_name = rd.name(trcm::DEBUG_NAME_LEN)?;
        if parts == 0 || parts > crate::layout::tram::MAX_PARTS {
            return Err(Error::invalid(
                s.base() + trcm::NUM_PARTS as u64,
                format!("TRCM with {parts} parts (the engine takes 1 to 32)"),
            )
            .in_file(&fname));
        }
        let link = |off: usize, tag: u32| -> Result<Ref> {
            let mut x = s.clone();
            x.seek(off)?;
            let l = x.u32()?;
            files.resolve(r.file, l, s.base() + off as u64)?.ok_or_else(|| {
                Error::invalid(
                    s.base() + off as u64,
                    format!(
                        "TRCM: the {} link is missing or not found in the files given",
                        crate::layout::tag_name(tag)
                    ),
                )
                .in_file(&fname)
            })
        };
        let (mut tr, _) = small_array(files, link(trcm::TRANSLATIONS, TRTA)?, TRTA, 12, parts)?;
        let mut translations = Vec::with_capacity(parts);
        for _ in 0..parts {
            let at = tr.offset();
            let v = tr.vec3()?;
            if !v.iter().all(|c| c.is_finite()) {
                return Err(Error::invalid(at, "TRTA offset is not finite").in_file(&fname));
            }
            translations.push(v);
        }
        let tria_ref = link(trcm::INDEX_BLOCKS, TRIA)?;
        let (mut ir, _) = small_array(files, tria_ref, TRIA, 4, parts)?;
        let tria_at = ir.offset();
        let mut index_blocks = Vec::with_capacity(parts);
        for _ in 0..parts {
            index_blocks.push(ir.array::<4>()?);
        }
        let parents = parents_from_links(&index_blocks).map_err(|m| {
            Error::invalid(tria_at, m).in_file(files.file(tria_ref.file).map(|f| f.name.clone()).unwrap_or_default())
        })?;
        let (mut gr, _) = small_array(files, link(trcm::GEOMETRIES, TRGA)?, TRGA, 4, parts)?;
        let mut meshes = Vec::new();
        let mut strips = Vec::new();
        // Parts may all link the same geometry: bound the copies as they are read, not after.
        let max = limit!(files.limits, max_body_vertices);
        let mut held = 0usize;
        for p in 0..parts {
            let at = gr.offset();
            let l = gr.u32()?;
            let Some(gref) = files.resolve(r.file, l, at)? else {
                let why =
                    if l == 0 { "has no geometry (link 0)" } else { "links a geometry not found in the files given" };
                warnings.push(Warning::at(
                    &fname,
                    at,
                    format!("TRCM part {p} ({}) {why}: not drawn", part_name(p, parts)),
                ));
                continue;
            };
            let (mesh, st) = read_geometry_full(files, gref, p, part_name(p, parts), warnings)?;
            held += mesh.positions.len() + mesh.indices.len();
            max.check(held as u64, at, &format!("vertices and indices in the TRCM's geometries up to part {p}"))
                .map_err(|e| e.in_file(&fname))?;
            meshes.push(mesh);
            strips.push(st);
        }
        let name = desc_name.unwrap_or_else(|| format!("TRCM#{}", r.index));
        Ok(Body {
            source: format!("{}#{}", boneyard_core::text::file_name(&fname), r.index),
            name,
            translations,
            index_blocks,
            parents,
            meshes,
            strips,
            polygon_count,
            debug_name,
            generic: false,
        })
    }

    /// boneyard's generic body for animations that come without one: Oni's 19 parts in their
    /// order with the demo character's proportions (pelvis at the origin: the height track
    /// lifts it), or a chain of `parts` parts one unit apart for other part counts.
    pub fn generic(parts: usize) -> Body {
        // Oni's own part count is what loose animation files nearly always have: made once
        // (its 19 boxes and their names) and copied for each document that needs it.
        static ONI_PARTS: std::sync::OnceLock<Body> = std::sync::OnceLock::new();
        if parts == 19 {
            return ONI_PARTS.get_or_init(|| Body::make_generic(19)).clone();
        }
        Body::make_generic(parts)
    }

    /// [`Body::generic`], made.
    fn make_generic(parts: usize) -> Body {
        let (translations, parents): (Vec<[f32; 3]>, Vec<Option<usize>>) = if parts == 19 {
            boneyard_core::demo::BONES
                .iter()
                .enumerate()
                .map(|(i, &(_, p, o))| (if i == 0 { [0.0; 3] } else { o }, p))
                .unzip()
        } else {
            (0..parts).map(|i| (if i == 0 { [0.0; 3] } else { [0.0, 1.0, 0.0] }, i.checked_sub(1))).unzip()
        };
        let meshes = if parts == 19 {
            boneyard_core::demo::meshes(&boneyard_core::demo::skeleton())
        } else {
            (0..parts)
                .map(|i| {
                    let (p, idx) = boneyard_core::demo::cuboid(Vec3::new(-0.2, 0.0, -0.2), Vec3::new(0.2, 1.0, 0.2));
                    Mesh::rigid(part_name(i, parts), i, p, idx)
                })
                .collect()
        };
        Body {
            name: format!("generic_{parts}_parts"),
            source: "boneyard (generic)".into(),
            index_blocks: links_from_parents(&parents),
            translations,
            parents,
            strips: vec![Vec::new(); meshes.len()],
            meshes,
            polygon_count: 0,
            debug_name: String::new(),
            generic: true,
        }
    }

    /// Number of parts (bones).
    pub fn parts(&self) -> usize {
        self.translations.len()
    }

    /// World matrices as the engine builds them: part 0 from `base`, each part its parent's
    /// matrix, translated by its offset, times its rotation (`rots[p]`, the identity past the
    /// animation's parts). Iterating parts in index order gives the same matrices as the
    /// engine's recursion, because every part's matrix depends only on its parent's.
    pub fn pose(&self, base: &Matrix43, rots: &[EQuat]) -> Vec<Matrix43> {
        let mut out: Vec<Matrix43> = Vec::with_capacity(self.parts());
        for p in 0..self.parts() {
            let parent = match self.parents[p] {
                Some(q) => out.get(q).copied().unwrap_or(*base),
                None => *base,
            };
            let mut m = parent;
            m.translate(self.translations[p]);
            m.rotate_quat(rots.get(p).copied().unwrap_or([0.0, 0.0, 0.0, 1.0]));
            out.push(m);
        }
        out
    }
}

#[cfg(test)]
mod generic_tests {
    use super::*;

    #[test]
    fn the_shared_generic_body_is_the_one_made_fresh() {
        // Copied from the one made once, for every document, the same as making it each time.
        let fresh = format!("{:?}", Body::make_generic(19));
        assert_eq!(format!("{:?}", Body::generic(19)), fresh);
        assert_eq!(format!("{:?}", Body::generic(19)), fresh);
        assert_eq!(format!("{:?}", Body::generic(7)), format!("{:?}", Body::make_generic(7)));
    }
}
