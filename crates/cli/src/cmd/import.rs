//! `boneyard import GLTF... --into FILE... --out DIR`: glTF animations written back in the
//! format of the `--into` files, through `Family::import_clips` (cli.md, "Import").
//!
//! The `--into` files are opened as one document by their family; its skeleton (`--skeleton`,
//! else the first) is the target the glTF's nodes are matched to by name (`--map` renames
//! them first) and its family's frame rate the rate clips are sampled at
//! (`boneyard_export::gltf_in`). Every clip is encoded (and read back by the family) before
//! anything is written: a bad clip is exit 1 with nothing written. Oni writes one
//! `TRAM<clip>.oni` per clip; Zelda 64 a copy of the object file with the animations appended
//! (Link's: copies of gameplay_keep and link_animetion), plus decomp C and asset XML.

use crate::args::usage;
use crate::output::{ensure_dir, safe_name};
use anyhow::{Context, Result};
use boneyard_core::{Document, Family, ImportOptions, InputFile, Warning};
use boneyard_export::gltf_in::{read_map, GltfSource};
use serde_json::json;
use std::collections::HashMap;
use std::path::PathBuf;

/// What `import` was asked.
pub struct Request {
    pub gltf: Vec<PathBuf>,
    pub into: Vec<PathBuf>,
    pub anims: Vec<String>,
    pub skeleton: Option<String>,
    pub map: Option<PathBuf>,
    pub json: bool,
    pub out: PathBuf,
    /// Replace files already in `out` (else their names are an error, nothing written).
    pub force: bool,
    pub key_size: Option<u16>,
    pub tolerance: Option<f64>,
    pub like: Option<String>,
}

impl crate::args::ImportArgs {
    /// The request, flags checked.
    pub fn request(self) -> Result<Request> {
        Ok(Request {
            key_size: self.oni_keys.as_deref().map(|k| k.parse::<u16>()).transpose()?,
            tolerance: self.tolerance.as_deref().map(parse_tolerance).transpose()?,
            gltf: self.gltf,
            into: self.into,
            anims: self.anim,
            skeleton: self.skeleton,
            map: self.map,
            json: self.json,
            out: self.out,
            force: self.force,
            like: self.like,
        })
    }
}

/// `--tolerance`: radians, or degrees with a `deg` (or `°`) suffix.
pub fn parse_tolerance(s: &str) -> Result<f64> {
    let t = s.trim();
    let (num, scale) = match t.strip_suffix("deg").or_else(|| t.strip_suffix('°')) {
        Some(n) => (n.trim(), std::f64::consts::PI / 180.0),
        None => (t.strip_suffix("rad").unwrap_or(t).trim(), 1.0),
    };
    let radians =
        num.parse::<f64>().ok().filter(|v| v.is_finite() && *v >= 0.0).map(|v| v * scale).ok_or_else(|| {
            usage(format!("--tolerance {s:?}: expected an angle such as 0.0003 (radians) or 0.02deg"))
        })?;
    // No two rotations are more than half a turn apart, so a larger bound would drop every key
    // between a clip's first and last: most likely a unit slip (degrees given as radians).
    if radians > std::f64::consts::PI {
        return Err(usage(format!(
            "--tolerance {s:?} is more than half a turn (3.14159 radians, 180deg): every key between a clip's ends would be dropped"
        )));
    }
    Ok(radians)
}

pub fn run(req: &Request) -> Result<()> {
    let mut warnings: Vec<Warning> = Vec::new();
    let result = write(req, &mut warnings);
    // A program asking for JSON gets JSON when the import fails too: the error (as stderr has
    // it, with the exit status) and every warning said before it (they reached stderr only).
    if let (Err(e), true) = (&result, req.json) {
        let w: Vec<_> = warnings.iter().map(|w| tagged(w, "import")).collect();
        super::print_json(&json!({
            "written": [],
            "warnings": w,
            "error": {"message": crate::one_line(e), "exit": crate::exit_code(e)},
        }))?;
    }
    result
}

/// The import, every warning into `warnings` as it is said.
fn write(req: &Request, warnings: &mut Vec<Warning>) -> Result<()> {
    // The target: the --into files, one document of one family (read as every command
    // reads its files).
    let mut units = crate::inputs::plan(&req.into)?.into_units()?;
    if units.len() > 1 {
        // Named by their files, the first few (a folder's 202 were 202 times "z64").
        let mut names: Vec<String> = units.iter().take(3).map(|u| u.name.clone()).collect();
        if units.len() > 3 {
            names.push(format!("and {} more", units.len() - 3));
        }
        return Err(usage(format!(
            "--into files of {} documents ({}; a folder's files are each their own, files of several games too): give the files of one",
            units.len(),
            names.join(", ")
        )));
    }
    // (A folder of nothing readable is invalid input, as for every command.)
    let unit = units.pop().ok_or_else(|| anyhow::Error::from(crate::inputs::nothing_readable()).context("--into"))?;
    let family: &'static dyn Family = unit.family;
    let into: Vec<InputFile> = unit.into_files()?;
    let fps = family.import_fps().ok_or_else(|| {
        boneyard_core::Error::unsupported(format!(
            "writing animations back is not supported for {} files",
            family.name()
        ))
    })?;
    let companions = crate::inputs::companions();
    let doc = family.open(into.clone(), &boneyard_core::OpenOptions::default(), &companions)?;
    let d: &dyn Document = doc.as_ref();
    let map = match &req.map {
        Some(p) => {
            let bytes = std::fs::read(p).with_context(|| format!("{}: cannot read", p.display()))?;
            read_map(&p.display().to_string(), &bytes)?
        }
        None => HashMap::new(),
    };

    // The clips.
    let mut sources = Vec::new();
    // A glTF given twice is read once, as every command reads its inputs (its clips were
    // written twice: exit 1, "a second clip would also be written as ...").
    let mut given = crate::inputs::ReadOnce::default();
    for p in &req.gltf {
        if !given.first(p) {
            crate::progress::eprint(&format!("boneyard: warning: {}: given twice, read once", p.display()));
            continue;
        }
        let bytes = std::fs::read(p).map_err(|e| boneyard_core::Error::io(p, e))?;
        let src = GltfSource::read(&p.display().to_string(), &bytes, p.parent())?;
        warnings.extend(src.warnings.iter().cloned());
        sources.push(src);
    }
    let sk = match &req.skeleton {
        Some(s) => d.find_skeleton(s)?,
        None if d.skeletons().is_empty() => {
            return Err(boneyard_core::Error::unplaced("the --into files hold no skeleton to import onto")
                .in_file(into[0].name())
                .into())
        }
        None => {
            let (best, foreign) = best_skeleton(d, &sources, &map, warnings);
            // Another character's animation (its skeleton is not in the --into files, and its
            // bones, though named alike, hang otherwise: Zelda's `limb_NN`) is refused unless
            // asked for by --skeleton or --map (object_zl2's clip had been written into
            // object_dekunuts, exit 0).
            if let (Some(claimed), None) = (foreign, &req.map) {
                let target = &d.skeletons()[best];
                let differ: Vec<String> =
                    sources.iter().flat_map(|s| s.hierarchy_differences(&target.skeleton, &map)).collect();
                if !differ.is_empty() {
                    let mut shown: Vec<&str> = differ.iter().map(String::as_str).take(3).collect();
                    let more = format!("and {} more", differ.len().saturating_sub(3));
                    if differ.len() > 3 {
                        shown.push(&more);
                    }
                    return Err(boneyard_core::Error::unplaced(format!(
                        "the glTF was exported from skeleton {claimed}, which the --into files do not hold, and its bones hang otherwise than those of {} ({}), the skeleton its nodes name most: {}. Another skeleton's animation would play as nonsense; nothing written (--skeleton ID imports onto a skeleton regardless, --map renames the glTF's nodes)",
                        target.id,
                        target.name,
                        shown.join("; ")
                    ))
                    .in_file(sources.first().map_or(String::new(), |s| s.file.clone()))
                    .into());
                }
            }
            best
        }
    };
    let target = &d.skeletons()[sk];
    // A map entry that can match nothing is said (a misspelt name read as no entry at all).
    if let Some(p) = &req.map {
        let file = p.display().to_string();
        let mut entries: Vec<(&String, &String)> = map.iter().collect();
        entries.sort();
        for (from, to) in entries {
            if !sources.iter().any(|s| s.nodes.iter().any(|n| n.name.as_deref() == Some(from.as_str()))) {
                warnings.push(Warning::in_file(&file, format!("--map: {from:?} names no node of the glTF files")));
            }
            // A bone that is not there would drop the node's channels: an error (it was a
            // warning, and the clip written without them, exit 0).
            if !target.skeleton.bones.iter().any(|b| &b.name == to) {
                return Err(usage(format!(
                    "{file}: --map: {to:?} (for {from:?}) names no bone of skeleton {} ({}){}",
                    target.id,
                    target.name,
                    boneyard_core::document::did_you_mean(to, target.skeleton.bones.iter().map(|b| b.name.as_str()))
                )));
            }
        }
    }
    let fps = family.import_fps_for(d, sk).unwrap_or(fps);
    let mut picked: Vec<(usize, usize)> = Vec::new();
    if req.anims.is_empty() {
        for (s, src) in sources.iter().enumerate() {
            picked.extend((0..src.animations.len()).map(|a| (s, a)));
        }
    } else {
        for spec in &req.anims {
            let mut found = false;
            for (s, src) in sources.iter().enumerate() {
                if let Ok(v) = src.select(std::slice::from_ref(spec)) {
                    picked.extend(v.into_iter().map(|a| (s, a)));
                    found = true;
                }
            }
            if !found {
                // The error of the first file names the animations it has.
                sources[0].select(std::slice::from_ref(spec))?;
            }
        }
    }
    // A clip named twice (by name and by `#index`) is written once.
    let mut seen = std::collections::HashSet::new();
    picked.retain(|p| seen.insert(*p));
    if picked.is_empty() {
        return Err(boneyard_core::Error::unplaced("holds no animation")
            .in_file(req.gltf[0].display().to_string())
            .into());
    }
    let mut clips = Vec::with_capacity(picked.len());
    for (s, a) in picked {
        clips.push(sources[s].clip(a, &target.skeleton, fps, &map, warnings)?);
    }

    // Encode (and read back) everything, then write.
    let options = ImportOptions {
        skeleton: Some(target.id.clone()),
        key_size: req.key_size,
        tolerance: req.tolerance,
        like: req.like.clone(),
    };
    let imported = family.import_clips(into, &clips, &options, &companions)?;
    warnings.extend(imported.warnings.iter().cloned());
    if !req.json {
        // What the writing guessed or changed, every one; then what reading the game's files
        // said, as `list` would (the first few and a count: MOTION.BIN's 32 each time).
        for w in warnings.iter() {
            crate::progress::eprint(&format!("boneyard: warning: {w}"));
        }
        crate::progress::warnings(&imported.read_warnings);
    }
    // Never over the game's own data: not a file given, and not beside one (an Oni import
    // into `GameDataFolder/` wrote `TRAM<clip>.oni` over the game's TRAM of that name).
    let given = |p: &PathBuf| std::fs::canonicalize(p).ok();
    if let Ok(out) = std::fs::canonicalize(&req.out) {
        for f in &req.into {
            if given(f).and_then(|c| c.parent().map(PathBuf::from)).is_some_and(|dir| dir == out) {
                return Err(usage(format!(
                    "--out {} is the folder of the --into file {}: the game's files there could be replaced; choose another --out",
                    req.out.display(),
                    f.display()
                )));
            }
        }
    }
    let inputs: Vec<PathBuf> = req.into.iter().chain(&req.gltf).filter_map(given).collect();
    let mut outputs: Vec<(PathBuf, &[u8])> = Vec::with_capacity(imported.files.len());
    for f in &imported.files {
        let path = req.out.join(safe_name(&f.name));
        if std::fs::canonicalize(&path).is_ok_and(|c| inputs.contains(&c)) {
            return Err(usage(format!(
                "{} would be replaced: it is a file given; choose another --out",
                path.display()
            )));
        }
        crate::output::check_file_name(&path)?;
        outputs.push((path, &f.bytes));
    }
    // Not over an earlier import's files without a word (a re-run wrote object_dekunuts and its
    // `_imported.c`/`.xml` again, over whatever was edited in them): every name already taken
    // in --out is said, nothing is written, unless --force.
    let existing: Vec<String> = outputs
        .iter()
        // (A folder of such a name is write_all_atomic's error: no --force replaces it.)
        .filter(|(p, _)| std::fs::symlink_metadata(p).is_ok_and(|m| !m.is_dir()))
        .map(|(p, _)| p.display().to_string())
        .collect();
    if !existing.is_empty() && !req.force {
        return Err(usage(format!(
            "{} already exist{} in --out (an earlier import?): nothing written; --force replaces {}, or choose another --out",
            existing.join(", "),
            if existing.len() == 1 { "s" } else { "" },
            if existing.len() == 1 { "it" } else { "them" },
        )));
    }
    // Every file or none: a clip whose file cannot be made (a name too long for the file
    // system) left the clips before it written, exit 1.
    ensure_dir(&req.out)?;
    crate::output::write_all_atomic(&outputs)?;
    let mut written = Vec::new();
    for f in &imported.files {
        let name = safe_name(&f.name);
        let path = req.out.join(&name);
        crate::progress::wrote(&path);
        if !req.json && !crate::progress::verbose() && !crate::progress::quiet() {
            let what: Vec<String> = f
                .animations
                .iter()
                .map(|a| {
                    let mut frames = format!("{} frame{}", a.frames, if a.frames == 1 { "" } else { "s" });
                    // A family that kept the stored numbers of the animation the clip came from
                    // where the game computes the same (Zelda's angles) says how many.
                    // (Zelda: rotations; Oni: keys; Shenmue: channels.)
                    let n = |k: &str| a.extra.get(k).and_then(|v| v.as_u64());
                    let from = a.extra.get("original").and_then(|v| v.as_str());
                    let counts = ["rotations", "keys", "channels"]
                        .into_iter()
                        .find_map(|what| Some((n(&format!("original_{what}_kept"))?, n(what)?, what)));
                    if let (Some(from), Some((kept, all, what))) = (from, counts) {
                        frames.push_str(&format!("; {kept} of {all} {what} as {from} stores them"));
                    }
                    // The name `list` will give it, where the game's files know it otherwise
                    // (a Zelda clip appended is named by its offset until the decomp names it).
                    match a.extra.get("read_back_name").and_then(|n| n.as_str()).filter(|n| *n != a.name) {
                        Some(listed) => format!("{} ({frames}; `list` calls it {listed})", a.name),
                        None => format!("{} ({frames})", a.name),
                    }
                })
                .collect();
            if what.is_empty() {
                println!("wrote {}", path.display());
            } else {
                println!("wrote {} ({})", path.display(), what.join(", "));
            }
        }
        written.push(json!({
            "path": name,
            "format": f.format,
            "animations": f.animations.iter().map(|a| {
                let mut m = serde_json::Map::new();
                m.insert("name".into(), json!(a.name));
                m.insert("index".into(), json!(a.index));
                m.insert("offset".into(), json!(a.offset));
                m.insert("frames".into(), json!(a.frames));
                m.insert("fps".into(), json!(a.fps));
                for (k, v) in &a.extra {
                    m.entry(k.clone()).or_insert(v.clone());
                }
                serde_json::Value::Object(m)
            }).collect::<Vec<_>>(),
        }));
    }
    if req.json {
        // Every one: the game's files' own, then the writing's, each saying which (`"from"`:
        // `"into"`, what reading the --into files said, as `list` gives it; `"import"`, what
        // writing the clips said), so that a program can keep the ones about its clips.
        let w: Vec<_> = imported
            .read_warnings
            .iter()
            .map(|w| tagged(w, "into"))
            .chain(warnings.iter().map(|w| tagged(w, "import")))
            .collect();
        super::print_json(&json!({"written": written, "warnings": w}))?;
    } else {
        let counted = crate::progress::counted;
        crate::progress::summary(&format!(
            "boneyard: imported {} into {}",
            counted(clips.len(), "clip", "clips"),
            counted(imported.files.len(), "file", "files")
        ));
    }
    Ok(())
}

/// A warning as `--json` gives it, with `"from"`: `"into"` (reading the --into files said it)
/// or `"import"` (writing the clips did).
fn tagged(w: &Warning, from: &str) -> serde_json::Value {
    let mut v = crate::json::warning(w);
    if let Some(m) = v.as_object_mut() {
        m.insert("from".into(), json!(from));
    }
    v
}

/// The skeleton to import onto without `--skeleton`: the one the glTF says it was exported from
/// (boneyard's glb exports name it in their scene's extras) when the `--into` files have one of
/// that id (a level's bodies, a MOTN file's families: the first is seldom the one an export of
/// another came from); else the one whose bones the glTF's nodes name most (after `--map`), the
/// first where none is named more (an editor's round trip may drop the extras: the Redead's
/// clips then went to the Gibdo's skeleton, the file's first, and were refused). Said on stderr
/// when the glTF chose; a warning when the extras name a skeleton the files lack, whose id is
/// returned with the choice.
fn best_skeleton(
    d: &dyn Document,
    sources: &[GltfSource],
    map: &HashMap<String, String>,
    warnings: &mut Vec<Warning>,
) -> (usize, Option<String>) {
    let skeletons = d.skeletons();
    let claimed: Vec<&String> = sources.iter().flat_map(|s| &s.skeletons).collect();
    let named = claimed.iter().find_map(|id| skeletons.iter().position(|k| &&k.id == id));
    if let Some(k) = named {
        if skeletons.len() > 1 {
            let s = &skeletons[k];
            crate::progress::note(&format!(
                "importing onto skeleton {} ({}), the skeleton the glTF was exported from (--skeleton picks another)",
                s.id, s.name
            ));
        }
        return (k, None);
    }
    let nodes: std::collections::HashSet<&str> = sources
        .iter()
        .flat_map(|s| s.nodes.iter().filter_map(|n| n.name.as_deref()))
        .map(|n| map.get(n).map_or(n, String::as_str))
        .collect();
    let matched = |k: usize| skeletons[k].skeleton.bones.iter().filter(|b| nodes.contains(b.name.as_str())).count();
    let best = (0..skeletons.len()).fold(0, |best, k| if matched(k) > matched(best) { k } else { best });
    if let (Some(first), Some(s)) = (claimed.first(), skeletons.get(best)) {
        warnings.push(Warning::in_file(
            sources.first().map_or("", |s| s.file.as_str()),
            format!(
                "the glTF was exported from skeleton {first}, which the --into files do not hold: importing onto {} ({}), whose bones its nodes name most ({} of {}; --skeleton picks another)",
                s.id,
                s.name,
                matched(best),
                s.skeleton.bones.len()
            ),
        ));
        return (best, Some(first.to_string()));
    } else if skeletons.len() > 1 && best != 0 {
        let s = &skeletons[best];
        crate::progress::note(&format!(
            "importing onto skeleton {} ({}), whose bones the glTF's nodes name most ({} of {}; --skeleton picks another)",
            s.id,
            s.name,
            matched(best),
            s.skeleton.bones.len()
        ));
    }
    (best, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tolerance_in_radians_or_degrees() {
        assert_eq!(parse_tolerance("0.001").unwrap(), 0.001);
        assert_eq!(parse_tolerance("0.001rad").unwrap(), 0.001);
        assert!((parse_tolerance("1deg").unwrap() - std::f64::consts::PI / 180.0).abs() < 1e-15);
        assert!((parse_tolerance("0.5°").unwrap() - std::f64::consts::PI / 360.0).abs() < 1e-15);
        assert!(parse_tolerance("-1").is_err() && parse_tolerance("x").is_err() && parse_tolerance("nan").is_err());
        // Half a turn is the largest bound that still keeps a key anywhere.
        assert_eq!(parse_tolerance("180deg").unwrap(), std::f64::consts::PI);
        assert!(
            parse_tolerance("3.2").is_err() && parse_tolerance("1e9").is_err() && parse_tolerance("181deg").is_err()
        );
    }
}
