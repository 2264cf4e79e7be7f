use crate::args::{usage, Format};
use crate::output::{claim, ensure_dir, out_path, write_atomic};
use anyhow::Result;
use boneyard_core::Document;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

#[derive(Clone)]
pub struct Request {
    pub anims: Vec<String>,
    pub skeleton: Option<String>,
    pub format: Format,
    pub out: PathBuf,
    pub frame: f64,
    pub in_place: bool,
    /// Keys per engine frame of the clips the engine evaluates between frames.
    pub subframes: u32,
    pub size: (u32, u32),
    /// Every length multiplied by this (1 = engine units).
    pub scale: f32,
}

/// The export flags that only some formats use, as given (`None`/`false`: not given).
pub struct Flags {
    pub frame: Option<f64>,
    pub size: bool,
    pub in_place: bool,
    pub subframes: Option<u32>,
    pub scale: Option<f32>,
}

/// Flags `format` does not use are each a warning, not an error (a script may pass one set of
/// flags to every format), but never ignored without a word. `--frame` without `--anim` for an
/// obj is a usage error: the rest pose it draws has no frames, so F would change nothing (a png
/// without `--anim` draws a clip, at F).
pub fn check_flags(format: Format, anims: bool, flags: &Flags) -> Result<()> {
    let stills = matches!(format, Format::Png | Format::Obj);
    if flags.frame.is_some() && format == Format::Obj && !anims {
        return Err(usage("--frame needs --anim: without a clip, obj draws the rest pose, which has no frames"));
    }
    let unused = [
        (flags.frame.is_some() && !stills, "--frame", "png and obj"),
        (flags.size && !matches!(format, Format::Png | Format::Gif | Format::Apng), "--size", "png, gif and apng"),
        (flags.in_place && !matches!(format, Format::Glb | Format::Bvh), "--in-place", "glb and bvh"),
        (
            flags.subframes.is_some_and(|n| n != 1) && !matches!(format, Format::Glb | Format::Bvh),
            "--subframes",
            "glb and bvh",
        ),
        (
            flags.scale.is_some_and(|f| f != 1.0) && !matches!(format, Format::Glb | Format::Bvh | Format::Obj),
            "--scale",
            "glb, bvh and obj (a picture is framed on the model whatever its size)",
        ),
    ];
    for (_, flag, used_by) in unused.iter().filter(|u| u.0) {
        crate::progress::eprint(&format!(
            "boneyard: warning: {flag} is for {used_by}; {} does not use it",
            format.extension()
        ));
    }
    Ok(())
}

pub fn run(files: &[PathBuf], req: &Request, options: &boneyard_core::OpenOptions) -> Result<()> {
    if req.out.exists() && !req.out.is_dir() {
        // Said once, not once a document.
        return Err(usage(format!("--out {}: is a file, not a folder", req.out.display())));
    }
    let plan = crate::inputs::plan(files)?;
    let batch = plan.batch;
    // The `--anim` names some document of a folder holds (the others are said at the end).
    let held_names: std::sync::Mutex<std::collections::HashSet<String>> = Default::default();
    // Names close to an `--anim` a document does not hold, from every document: the closest
    // are offered when no document holds it.
    let close: std::sync::Mutex<Vec<String>> = Default::default();

    let run = crate::batch::run(plan, options, false, |d: crate::batch::Doc| {
        let doc = d.doc;
        // Nothing of the file's own: no skeleton but a family's built-in one without meshes
        // (Shenmue's human rig comes with every MOTN file), and no animation that samples (a
        // listed, undecoded sequence does not). Otherwise a MOTN file of undecodable sequences
        // would export the bare rig with every clip left out, exit 0.
        let own_skeleton = doc.skeletons().iter().any(|s| !s.meshes.is_empty() || !s.source.starts_with("built-in"));
        if !own_skeleton && !(0..doc.animations().len()).any(|a| doc.sample(a, 0.0).is_ok()) {
            // Named by the user: nothing to export is an error (exit 1), beside others too
            // (cli.md). Found by a folder walk (a baserom/ is mostly files without skeletons):
            // counted in the summary.
            if d.walked {
                return Ok((Vec::new(), Some(Nothing::ToExport)));
            }
            let e = boneyard_core::Error::unplaced("holds no skeleton or animation").in_file(d.label);
            return Err(e.into());
        }
        // A folder walk with `--anim`/`--skeleton`: a document none of whose names is there
        // is counted, not failed (81 of a baserom/'s 207 objects failed for not holding one
        // scrub's clip); named files still must hold what is asked.
        // Of several names, each document writes those it holds.
        let mut own_req = None;
        if batch {
            let absent = |e: &boneyard_core::Error| e.is_not_found();
            let held: Vec<String> =
                req.anims.iter().filter(|a| !doc.find_animation(a).as_ref().is_err_and(absent)).cloned().collect();
            if let Ok(mut seen) = held_names.lock() {
                seen.extend(held.iter().cloned());
            }
            if let Ok(mut close) = close.lock() {
                for a in req.anims.iter().filter(|a| !held.contains(a)) {
                    let names = doc.animations().iter().map(|x| x.name.as_str());
                    close.extend(boneyard_core::document::close_names(a, names).into_iter().map(str::to_string));
                }
            }
            let anims_absent = !req.anims.is_empty() && held.is_empty();
            let skeleton_absent =
                req.skeleton.as_deref().is_some_and(|s| doc.find_skeleton(s).as_ref().is_err_and(absent));
            if anims_absent || skeleton_absent {
                return Ok((Vec::new(), Some(Nothing::NoneNamed)));
            }
            if held.len() < req.anims.len() {
                own_req = Some(Request { anims: held, ..req.clone() });
            }
        }
        let req = own_req.as_ref().unwrap_or(req);
        // A document with nothing this format can write: a baserom/'s animation-only objects
        // (their skeleton is in another object), and for bvh/gif/apng skeletons without
        // animations. Found by a folder walk it is counted and named, not a failure; named
        // by the user, it is an error naming it (exit 1).
        {
            let needs_anims = matches!(req.format, Format::Bvh | Format::Gif | Format::Apng);
            let nothing = if doc.skeletons().is_empty() {
                Some(Nothing::Skeleton)
            } else if needs_anims
                && req.anims.is_empty()
                && req.skeleton.is_none()
                && !(0..doc.animations().len()).any(|a| doc.skeleton_for(a).is_some())
            {
                Some(Nothing::Animation)
            } else {
                None
            };
            if let Some(n) = nothing {
                let why = match (n, doc.animations().len()) {
                    (Nothing::Skeleton, 1) => {
                        "an animation and no skeleton to play it on (give its skeleton's file with it)".to_string()
                    }
                    (Nothing::Skeleton, k) => {
                        format!("{k} animations and no skeleton to play them on (give their skeleton's file with it)")
                    }
                    _ => format!("no animation to write as {}", req.format.extension()),
                };
                if !d.walked {
                    return Err(boneyard_core::Error::unplaced(format!("nothing to write: {why}"))
                        .in_file(d.label)
                        .into());
                }
                crate::progress::eprint(&format!("boneyard: warning: {}: nothing written: {why}", d.label));
                return Ok((Vec::new(), Some(n)));
            }
        }
        let written = if req.scale == 1.0 {
            write_all(doc, d.label, d.stem, req)?
        } else {
            write_all(&boneyard_core::scaled::Scaled::new(doc, req.scale)?, d.label, d.stem, req)?
        };
        Ok((written, None))
    });
    let done = run.collect()?;
    let mut outputs = 0;
    let mut nothing = [0usize; 4];
    for (_, (paths, n)) in &done.ok {
        // Named as they were written with --verbose; listed here otherwise.
        if !crate::progress::verbose() && !crate::progress::quiet() {
            for p in paths {
                println!("wrote {}", p.display());
            }
        }
        outputs += paths.len();
        if let Some(n) = n {
            nothing[*n as usize] += 1;
        }
    }
    let mut what = format!("{} written", crate::progress::counted(outputs, "file", "files"));
    let [none, no_skeleton, no_animation, none_named] = nothing;
    // A name no document holds: a misspelt name, not a quiet success (an error when nothing
    // was written, else a warning naming it).
    let held = held_names.into_inner().unwrap_or_default();
    let close = close.into_inner().unwrap_or_default();
    let nowhere: Vec<String> = req
        .anims
        .iter()
        .filter(|a| batch && !held.contains(*a))
        .map(|a| match boneyard_core::document::close_names(a, close.iter().map(String::as_str)).as_slice() {
            [] => format!("{a:?}"),
            offer => {
                let offer: Vec<String> = offer.iter().map(|n| format!("{n:?}")).collect();
                format!("{a:?} (did you mean {}?)", offer.join(", "))
            }
        })
        .collect();
    if outputs == 0 && none_named > 0 && done.errors.is_empty() {
        let what = if !nowhere.is_empty() {
            format!("an animation named {}", nowhere.join(" or "))
        } else if let Some(s) = &req.skeleton {
            format!("a skeleton named {s:?} with those animations")
        } else {
            "what was named".to_string()
        };
        return Err(usage(format!("no document of these inputs holds {what} (`list` names what each holds)")));
    }
    if !nowhere.is_empty() {
        crate::progress::eprint(&format!(
            "boneyard: warning: no document of these inputs holds an animation named {}",
            nowhere.join(" or ")
        ));
    }
    if none > 0 {
        what.push_str(&format!("; {none} {} no skeleton or animation", holds(none)));
    }
    if no_skeleton > 0 {
        what.push_str(&format!("; {no_skeleton} {} animations but no skeleton", holds(no_skeleton)));
    }
    if no_animation > 0 {
        what.push_str(&format!(
            "; {no_animation} {} no animation to write as {}",
            holds(no_animation),
            req.format.extension()
        ));
    }
    if none_named > 0 {
        what.push_str(&format!("; {none_named} {} none of the --anim/--skeleton names", holds(none_named)));
    }
    // The documents that wrote files: those that hold nothing to write are counted beside.
    let exported = done.ok.iter().filter(|(_, (paths, _))| !paths.is_empty()).count();
    done.close_counting("exported", exported, &what)
}

/// The verb for `n` documents: "1 holds", "2 hold".
fn holds(n: usize) -> &'static str {
    if n == 1 {
        "holds"
    } else {
        "hold"
    }
}

/// Why a document found by a folder walk wrote nothing (counted in the summary).
#[derive(Clone, Copy)]
enum Nothing {
    /// No skeleton or animation of its own.
    ToExport = 0,
    /// Animations, but no skeleton to play them on.
    Skeleton = 1,
    /// Skeletons, but no animation for a format that writes clips.
    Animation = 2,
    /// None of the animations or the skeleton named (a folder walk with `--anim`).
    NoneNamed = 3,
}

/// The skeletons a request writes, each with its animations: `--skeleton S` alone; the
/// skeletons the `--anim` clips play on; by default every skeleton of the document with the
/// clips that play on it.
pub fn targets(doc: &dyn Document, anims: &[String], skeleton: Option<&str>) -> Result<Vec<(usize, Vec<usize>)>> {
    if skeleton.is_some() || doc.skeletons().len() <= 1 {
        return Ok(vec![selection(doc, anims, skeleton)?]);
    }
    if anims.is_empty() {
        // The clips of every skeleton in one pass over the clips (not one a skeleton: a
        // crafted file's thousands of skeletons and clips made that a product).
        let mut per: Vec<Vec<usize>> = vec![Vec::new(); doc.skeletons().len()];
        for a in 0..doc.animations().len() {
            if let Some(clips) = doc.skeleton_for(a).and_then(|sk| per.get_mut(sk)) {
                clips.push(a);
            }
            for &sk in doc.also_plays_on(a) {
                if let Some(clips) = per.get_mut(sk) {
                    clips.push(a);
                }
            }
        }
        return Ok(per.into_iter().enumerate().collect());
    }
    let mut out: Vec<(usize, Vec<usize>)> = Vec::new();
    for a in resolve_anims(doc, anims)? {
        let sk = super::skeleton_of(doc, a)?;
        match out.iter_mut().find(|(s, _)| *s == sk) {
            Some((_, v)) => v.push(a),
            None => out.push((sk, vec![a])),
        }
    }
    Ok(out)
}

/// Write one output set per target skeleton. With several skeletons in the document each
/// set is named `<file>_<skeleton>`; a skeleton without animations is skipped by the formats
/// that need one (bvh, gif, apng), said on stderr, and an error only when no skeleton has any.
/// Exporting every clip (no `--anim`, no `--skeleton`), a skeleton none of whose clips can be
/// made is a warning when another skeleton's files were written (object_box's chest lid, whose
/// only clip scales, as BVH) and clips that play on no skeleton of the document (Link's, in
/// `gameplay_keep` read alone) are named in a warning.
/// `label` names the document in messages (its file, as given), `stem` its outputs.
pub fn write_all(doc: &dyn Document, label: &str, stem: &str, req: &Request) -> Result<Vec<PathBuf>> {
    let mut targets = targets(doc, &req.anims, req.skeleton.as_deref())?;
    let several = doc.skeletons().len() > 1;
    let needs_anims = matches!(req.format, Format::Bvh | Format::Gif | Format::Apng);
    let every = req.anims.is_empty() && req.skeleton.is_none();
    // Every skeleton asked for: those of files read beside the ones given (a family marks them
    // `"companion": true`: Link's gameplay_keep) are those files' own to write, when the
    // document has skeletons of its own; said, and `--skeleton` writes one.
    let companion = |sk: usize| doc.skeletons()[sk].extra.get("companion").is_some_and(|v| v == true);
    if every && targets.iter().any(|&(sk, _)| !companion(sk)) {
        let left: Vec<String> =
            targets.iter().filter(|&&(sk, _)| companion(sk)).map(|&(sk, _)| skeleton_label(doc, sk)).collect();
        if !left.is_empty() {
            targets.retain(|&(sk, _)| !companion(sk));
            crate::progress::note(&format!(
                "{label}: {} skeletons of files read beside it left to those files ({}): --skeleton writes one with it",
                left.len(),
                left.join(", ")
            ));
        }
    }
    let mut written = Vec::new();
    let mut skipped = Vec::new();
    let mut failed = Vec::new();
    for (sk, anims) in &targets {
        let stem = own_file_stem(doc, *sk).unwrap_or_else(|| stem.to_string());
        let sk_stem = if several { format!("{stem}_{}", skeleton_label(doc, *sk)) } else { stem };
        if needs_anims && anims.is_empty() {
            skipped.push(skeleton_label(doc, *sk));
            continue;
        }
        let chosen: Vec<String> =
            if req.anims.is_empty() { Vec::new() } else { anims.iter().map(|a| format!("#{a}")).collect() };
        let one = Request { anims: chosen, skeleton: Some(format!("#{sk}")), ..req.clone() };
        match write(doc, label, &sk_stem, &one) {
            Ok(w) => written.extend(w),
            // (A write that fails is an I/O error, not a boneyard one: never passed over.)
            Err(e) if every && several && e.downcast_ref::<boneyard_core::Error>().is_some() => {
                failed.push((skeleton_label(doc, *sk), e))
            }
            Err(e) => return Err(e),
        }
    }
    if written.is_empty() {
        if let Some((_, e)) = failed.into_iter().next() {
            return Err(e);
        }
        if !skipped.is_empty() {
            return Err(usage("no animation plays on any skeleton of these files; name one with --anim"));
        }
        return Ok(written);
    }
    for (s, e) in failed {
        crate::progress::eprint(&format!(
            "boneyard: warning: {label}: nothing written for skeleton {s}: {}",
            crate::one_line(&e)
        ));
    }
    for s in skipped {
        crate::progress::note(&format!(
            "{label}: skeleton {s} has no animation to write as {}",
            req.format.extension()
        ));
    }
    if every {
        let orphans: Vec<usize> = (0..doc.animations().len()).filter(|&a| doc.skeleton_for(a).is_none()).collect();
        if !orphans.is_empty() {
            const SHOWN: usize = 8;
            let mut names: Vec<String> =
                orphans.iter().take(SHOWN).map(|&a| format!("#{a} {}", doc.animations()[a].name)).collect();
            if orphans.len() > SHOWN {
                names.push(format!("and {} more", orphans.len() - SHOWN));
            }
            crate::progress::eprint(&format!(
                "boneyard: warning: {label}: {} of {} animations have no skeleton to play on (not decoded, or their skeleton is in another file: give it with them), nothing written for them ({})",
                orphans.len(),
                doc.animations().len(),
                names.join(", ")
            ));
        }
    }
    Ok(written)
}

/// The stem of the file a skeleton comes from (its `source`, `object_link_boy@0x377F4`, Oni's
/// `TRBSfixture_body19.oni#1`), when
/// that is another of the document's files than the first, which names the document: outputs
/// are named after the file that holds the model, whatever order the files were given in
/// (`export gameplay_keep link_animetion object_link_boy` wrote adult Link as
/// `gameplay_keep_gLinkAdultSkel.glb`, and a clip file given before its model named the
/// model's glb).
pub(crate) fn own_file_stem(doc: &dyn Document, sk: usize) -> Option<String> {
    let (file, _) = doc.skeletons().get(sk)?.source.rsplit_once(['@', '#'])?;
    let files = doc.files();
    let path_of = |f: &boneyard_core::FileSummary| std::path::Path::new(&f.path).to_path_buf();
    let named = |p: &std::path::Path| {
        p.file_name().is_some_and(|n| n.to_string_lossy().eq_ignore_ascii_case(file))
            || p.file_stem().is_some_and(|n| n.to_string_lossy().eq_ignore_ascii_case(file))
    };
    let first = files.first().map(path_of)?;
    if named(&first) {
        return None;
    }
    let own = files.iter().skip(1).map(path_of).find(|p| named(p))?;
    own.file_stem().map(|s| crate::output::safe_name(&s.to_string_lossy()))
}

/// A skeleton's part of an output name: its name when that is a plain identifier no other
/// skeleton of the document has (`gTreasureChestCurveSkel`), else its id (`family_13`).
/// (Two files of one name given together can give two skeletons one id: then the id and the
/// skeleton's index, or both wrote one file.)
pub(crate) fn skeleton_label(doc: &dyn Document, sk: usize) -> String {
    let s = &doc.skeletons()[sk];
    let plain = !s.name.is_empty() && s.name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    let unique = plain && doc.skeletons().iter().filter(|o| o.name == s.name).count() == 1;
    if unique {
        s.name.clone()
    } else if doc.skeletons().iter().filter(|o| o.id == s.id).count() == 1 {
        s.id.clone()
    } else {
        format!("{}_{sk}", s.id)
    }
}

/// Resolve the skeleton and animations of a request.
pub fn selection(doc: &dyn Document, anims: &[String], skeleton: Option<&str>) -> Result<(usize, Vec<usize>)> {
    let chosen = resolve_anims(doc, anims)?;
    let sk = match (skeleton, chosen.first()) {
        (Some(s), _) => {
            let sk = doc.find_skeleton(s)?;
            for &a in &chosen {
                check_exports_on(doc, a, sk)?;
            }
            sk
        }
        (None, Some(&a)) => super::skeleton_of(doc, a)?,
        (None, None) => {
            if doc.skeletons().is_empty() {
                return Err(usage("the files hold no skeleton to export"));
            }
            0
        }
    };
    let anims = if anims.is_empty() {
        (0..doc.animations().len())
            .filter(|&a| doc.skeleton_for(a) == Some(sk) || doc.also_plays_on(a).contains(&sk))
            .collect()
    } else {
        chosen
    };
    Ok((sk, anims))
}

/// The `--anim` choices as animation indices; two choices naming one animation conflict
/// (usage error, exit 2), since the output would hold it twice or under two names.
pub fn resolve_anims(doc: &dyn Document, specs: &[String]) -> Result<Vec<usize>> {
    let mut out: Vec<usize> = Vec::with_capacity(specs.len());
    for (i, spec) in specs.iter().enumerate() {
        let a = doc.find_animation(spec)?;
        if let Some(j) = out.iter().position(|&b| b == a) {
            return Err(usage(format!(
                "--anim {:?} and --anim {spec:?} both name animation #{a} {}",
                specs[j],
                doc.animations()[a].name
            )));
        }
        debug_assert_eq!(out.len(), i);
        out.push(a);
    }
    Ok(out)
}

/// An animation asked to play on a skeleton it does not fit (its own skeleton is another one
/// with a different number of bones) is a usage error.
pub fn check_plays_on(doc: &dyn Document, anim: usize, skeleton: usize) -> Result<()> {
    let a = &doc.animations()[anim];
    let sk = &doc.skeletons()[skeleton];
    match a.skeleton {
        Some(own) if own != skeleton && doc.skeletons()[own].skeleton.len() != sk.skeleton.len() => {
            Err(usage(format!(
                "animation #{anim} {} plays on skeleton {} ({} bones), not on {} ({} bones)",
                a.name,
                doc.skeletons()[own].id,
                doc.skeletons()[own].skeleton.len(),
                sk.id,
                sk.skeleton.len()
            )))
        }
        // A clip of no skeleton of the files plays on one of as many bones (Phantom Ganon's
        // 40-joint clips were posed on his 25-limb skeleton).
        None if a.bones != sk.skeleton.len() => Err(usage(format!(
            "animation #{anim} {} has {} bones and no skeleton of these files; {} has {}",
            a.name,
            a.bones,
            sk.id,
            sk.skeleton.len()
        ))),
        _ => Ok(()),
    }
}

/// An export writes a clip with the skeleton it plays on, or another its family plays it on
/// ([`Document::plays_on`]: a Zelda clip on a skeleton of as many limbs); any other, even of
/// as many bones (two 19-part Oni bodies, a MOTN file's families), is a usage error naming
/// both (the exporter refused it later, exit 1, naming them by index).
pub fn check_exports_on(doc: &dyn Document, anim: usize, skeleton: usize) -> Result<()> {
    match doc.animations()[anim].skeleton {
        Some(own) if own != skeleton && !doc.plays_on(anim, skeleton) => Err(usage(format!(
            "animation #{anim} {} plays on skeleton {} ({} bones), not on {} ({} bones): an export writes a clip with its own skeleton, or one its game plays it on (Zelda 64: a skeleton of as many limbs)",
            doc.animations()[anim].name,
            doc.skeletons()[own].id,
            doc.skeletons()[own].skeleton.len(),
            doc.skeletons()[skeleton].id,
            doc.skeletons()[skeleton].skeleton.len()
        ))),
        _ => check_plays_on(doc, anim, skeleton),
    }
}

/// Write the requested outputs into `req.out`; returns the files written.
pub fn write(doc: &dyn Document, label: &str, stem: &str, req: &Request) -> Result<Vec<PathBuf>> {
    let (sk, anims) = selection(doc, &req.anims, req.skeleton.as_deref())?;
    let frame = super::check_frame(req.frame)?;
    // A still of a frame past the clip is drawn as the engine takes that frame (Zelda wraps
    // it, Oni clamps it): said, since the file is named after the frame asked for.
    if matches!(req.format, Format::Png | Format::Obj) && !req.anims.is_empty() {
        for &a in &anims {
            let info = &doc.animations()[a];
            if frame < 0.0 || frame >= f64::from(info.frames) {
                if let Ok(s) = doc.sample(a, frame) {
                    crate::progress::note(&format!(
                        "{label}: --frame {frame} is outside {}'s {} frames: drawn as the engine takes it, frame {}",
                        info.name, info.frames, s.frame
                    ));
                }
            }
        }
    }
    ensure_dir(&req.out)?;
    let opts = boneyard_export::ExportOptions { in_place: req.in_place, subframes: req.subframes };
    let render = boneyard_preview::RenderOptions { width: req.size.0, height: req.size.1, ..Default::default() };
    let name_of = |a: usize| format!("{stem}_{}", doc.animations()[a].name);
    let need_anims = || -> Result<()> {
        if anims.is_empty() {
            Err(usage("no animation plays on this skeleton; name one with --anim"))
        } else {
            Ok(())
        }
    };
    let outputs = match req.format {
        Format::Glb | Format::Obj => 1,
        Format::Png if req.anims.is_empty() => 1,
        _ => anims.len(),
    };
    crate::progress::add(outputs as u64, "files");
    // `path` as claimed ([`crate::output::claim`]): the outputs of one document are claimed in
    // the order of its clips, before any is made on rayon's threads.
    let one = |path: PathBuf, bytes: Vec<u8>| -> Result<PathBuf> {
        write_atomic(&path, &bytes)?;
        crate::progress::wrote(&path);
        crate::progress::step(1);
        Ok(path)
    };
    let out: &Path = &req.out;
    match req.format {
        Format::Glb if req.anims.is_empty() => {
            // Every animation by default: one clip that cannot be baked (a layout boneyard
            // does not decode) is left out and reported rather than failing the whole file.
            let exported = boneyard_export::glb_skipping(doc, sk, &anims, &opts)?;
            let path = one(claim(&out_path(out, stem, "glb"), label), exported.bytes)?;
            if !exported.skipped.is_empty() {
                // One line per file: the reasons are the reader's warnings, already printed.
                let names: Vec<String> =
                    exported.skipped.iter().map(|(a, _)| format!("#{a} {}", doc.animations()[*a].name)).collect();
                let first = &exported.skipped[0].1;
                crate::progress::eprint(&format!(
                    "boneyard: warning: {}: {} of {} animations left out ({}; e.g. {first})",
                    path.display(),
                    names.len(),
                    anims.len(),
                    names.join(", ")
                ));
            }
            Ok(vec![path])
        }
        Format::Glb => {
            // One clip chosen: named after it, so it never takes the all-clips file's name.
            let name = if anims.len() == 1 { name_of(anims[0]) } else { stem.to_string() };
            let bytes = boneyard_export::glb(doc, sk, &anims, &opts)?;
            Ok(vec![one(claim(&out_path(out, &name, "glb"), label), bytes)?])
        }
        Format::Obj => {
            let a = if req.anims.is_empty() { None } else { anims.first().copied() };
            let name = a.map(|a| format!("{}_f{frame}", name_of(a))).unwrap_or_else(|| stem.to_string());
            let name = crate::output::safe_name(&name);
            // The .obj names its .mtl, which names the textures: all beside each other, and
            // all under another name when one of them is another output's.
            let mut files = boneyard_export::obj_with_materials(doc, sk, a, frame, &name)?;
            let tails: Vec<String> =
                files.textures.iter().map(|(f, _)| f.strip_prefix(name.as_str()).unwrap_or(f).to_string()).collect();
            let named = crate::output::claim_names(&name, label, &|b| {
                let mut v = vec![out_path(out, b, "obj"), out_path(out, b, "mtl")];
                v.extend(tails.iter().map(|t| out.join(format!("{b}{t}"))));
                v
            });
            if named != name {
                files = boneyard_export::obj_with_materials(doc, sk, a, frame, &named)?;
            }
            let mut written = Vec::new();
            for (file, png) in files.textures {
                write_atomic(&out.join(file.as_str()), &png)?;
                written.push(out.join(file));
            }
            written.push(one(out_path(out, &named, "mtl"), files.mtl.into_bytes())?);
            written.push(one(out_path(out, &named, "obj"), files.obj.into_bytes())?);
            Ok(written)
        }
        Format::Png if req.anims.is_empty() => {
            // A picture of the figure as the game shows it: frame `--frame` (0 by default) of
            // the clip it is best seen in, where it has one. Rest poses are no pose the games show: a Zelda
            // skeleton's has every limb unturned (Link lay crumpled on his side in 90 of the
            // 91 pictures of a folder), a Shenmue controller family's every control at the
            // origin (a dot).
            let shown = crate::best_clip::shown_clip(doc, sk, &anims);
            if let Some(a) = shown {
                // The frame drawn, as the engine takes the one asked for (Oni floors and
                // clamps, Zelda truncates and wraps): `--frame 1e9` of a 40-frame clip is 39.
                let drawn = doc.sample(a, frame).map_or(frame, |s| s.frame);
                let asked =
                    if drawn == frame { String::new() } else { format!(" (--frame {frame} as the engine takes it)") };
                crate::progress::note(&format!(
                    "{label}: skeleton {} drawn at frame {drawn}{asked} of {} (no --anim: the clip it is best seen in, not its rest pose)",
                    skeleton_label(doc, sk),
                    doc.animations()[a].name
                ));
            }
            let bytes = boneyard_preview::png(doc, sk, shown, frame, &render)?;
            Ok(vec![one(claim(&out_path(out, stem, "png"), label), bytes)?])
        }
        Format::Png => {
            let paths: Vec<PathBuf> = anims
                .iter()
                .map(|&a| claim(&out_path(out, &format!("{}_f{frame}", name_of(a)), "png"), label))
                .collect();
            anims
                .par_iter()
                .zip(paths)
                .map(|(&a, path)| one(path, boneyard_preview::png(doc, sk, Some(a), frame, &render)?))
                .collect()
        }
        Format::Bvh => {
            need_anims()?;
            let encode = |a: usize| boneyard_export::bvh(doc, sk, a, &opts).map(String::into_bytes);
            per_clip(doc, label, &anims, req.anims.is_empty(), out, "bvh", &name_of, &encode, &one)
        }
        Format::Gif | Format::Apng => {
            need_anims()?;
            let (ext, f): (&str, fn(_, _, _, _) -> _) = if req.format == Format::Gif {
                ("gif", boneyard_preview::gif)
            } else {
                ("png", boneyard_preview::apng)
            };
            per_clip(doc, label, &anims, req.anims.is_empty(), out, ext, &name_of, &|a| f(doc, sk, a, &render), &one)
        }
    }
}

/// One file a clip of `anims`, made by `encode` on rayon's threads and written by `one` as it
/// is made. With every clip asked for (`every`, no `--anim`), a clip that cannot be made (a
/// layout boneyard lists but does not decode) is left out and reported in one line, as the
/// glb's are; with clips named, the first that fails, in the order given, fails the request.
/// Either way the results are taken in order, so what is reported does not depend on which
/// thread finished first (a write that fails always fails the request).
#[allow(clippy::too_many_arguments)]
fn per_clip(
    doc: &dyn Document,
    label: &str,
    anims: &[usize],
    every: bool,
    out: &Path,
    ext: &str,
    name_of: &(dyn Fn(usize) -> String + Sync),
    encode: &(dyn Fn(usize) -> boneyard_core::Result<Vec<u8>> + Sync),
    one: &(dyn Fn(PathBuf, Vec<u8>) -> Result<PathBuf> + Sync),
) -> Result<Vec<PathBuf>> {
    // Named in the clips' order first: which of two clips of one file name is `_2` is not
    // for the threads to decide.
    let paths: Vec<PathBuf> = anims.iter().map(|&a| claim(&out_path(out, &name_of(a), ext), label)).collect();
    let made: Vec<Result<std::result::Result<PathBuf, boneyard_core::Error>>> = anims
        .par_iter()
        .zip(paths)
        .map(|(&a, path)| match encode(a) {
            Ok(bytes) => one(path, bytes).map(Ok),
            Err(e) => {
                crate::progress::step(1);
                Ok(Err(e))
            }
        })
        .collect();
    let mut written = Vec::new();
    let mut skipped = Vec::new();
    for (&a, m) in anims.iter().zip(made) {
        match m? {
            Ok(path) => written.push(path),
            Err(e) if every => skipped.push((a, e)),
            Err(e) => return Err(e.into()),
        }
    }
    if let Some((_, first)) = skipped.first() {
        let names: Vec<String> = skipped.iter().map(|(a, _)| format!("#{a} {}", doc.animations()[*a].name)).collect();
        if written.is_empty() {
            if skipped.len() == 1 {
                return Err(skipped.swap_remove(0).1.into());
            }
            // Every clip named, not only the first that failed.
            return Err(boneyard_core::Error::unsupported(format!(
                "none of its {} clips can be written as .{ext} ({}); the first: {first}",
                names.len(),
                names.join(", ")
            ))
            .into());
        }
        crate::progress::eprint(&format!(
            "boneyard: warning: {label}: {} of {} animations left out, no .{ext} written for them ({}; e.g. {first})",
            names.len(),
            anims.len(),
            names.join(", ")
        ));
    }
    Ok(written)
}
