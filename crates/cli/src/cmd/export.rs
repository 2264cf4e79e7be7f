use crate::args::{usage, Format};
use crate::output::{ensure_dir, out_path, write_atomic};
use anyhow::Result;
use boneyard_core::Document;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

pub struct Request {
    pub anims: Vec<String>,
    pub skeleton: Option<String>,
    pub format: Format,
    pub out: PathBuf,
    pub frame: f64,
    pub in_place: bool,
    pub size: (u32, u32),
}

pub fn run(files: &[PathBuf], req: &Request) -> Result<()> {
    let opened = crate::inputs::open(files)?;
    let doc: &dyn Document = opened.single()?;
    let stem = files.first().and_then(|p| p.file_stem()).map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    for path in write(doc, &stem, req)? {
        println!("wrote {}", path.display());
    }
    Ok(())
}

/// Resolve the skeleton and animations of a request.
pub fn selection(doc: &dyn Document, anims: &[String], skeleton: Option<&str>) -> Result<(usize, Vec<usize>)> {
    let chosen: Vec<usize> = anims.iter().map(|a| doc.find_animation(a)).collect::<Result<_, _>>()?;
    let sk = match (skeleton, chosen.first()) {
        (Some(s), _) => doc.find_skeleton(s)?,
        (None, Some(&a)) => doc.skeleton_for(a).ok_or_else(|| usage("no skeleton found to play this animation on"))?,
        (None, None) => {
            if doc.skeletons().is_empty() {
                return Err(usage("the files hold no skeleton to export"));
            }
            0
        }
    };
    let anims = if anims.is_empty() {
        (0..doc.animations().len()).filter(|&a| doc.skeleton_for(a) == Some(sk)).collect()
    } else {
        chosen
    };
    Ok((sk, anims))
}

/// Write the requested outputs into `req.out`; returns the files written.
pub fn write(doc: &dyn Document, stem: &str, req: &Request) -> Result<Vec<PathBuf>> {
    let (sk, anims) = selection(doc, &req.anims, req.skeleton.as_deref())?;
    let frame = super::check_frame(req.frame)?;
    ensure_dir(&req.out)?;
    let opts = boneyard_export::ExportOptions { in_place: req.in_place };
    let render = boneyard_preview::RenderOptions { width: req.size.0, height: req.size.1, ..Default::default() };
    let name_of = |a: usize| format!("{stem}_{}", doc.animations()[a].name);
    let need_anims = || -> Result<()> {
        if anims.is_empty() {
            Err(usage("no animation plays on this skeleton; name one with --anim"))
        } else {
            Ok(())
        }
    };
    let one = |path: PathBuf, bytes: Vec<u8>| -> Result<PathBuf> {
        write_atomic(&path, &bytes)?;
        Ok(path)
    };
    let out: &Path = &req.out;
    match req.format {
        Format::Glb if req.anims.is_empty() => {
            // Every animation by default: one clip that cannot be baked (a layout boneyard
            // does not decode) is left out and reported rather than failing the whole file.
            let exported = boneyard_export::glb_skipping(doc, sk, &anims, &opts)?;
            for (a, e) in &exported.skipped {
                eprintln!("boneyard: warning: animation #{a} {} left out: {e}", doc.animations()[*a].name);
            }
            Ok(vec![one(out_path(out, stem, "glb"), exported.bytes)?])
        }
        Format::Glb => Ok(vec![one(out_path(out, stem, "glb"), boneyard_export::glb(doc, sk, &anims, &opts)?)?]),
        Format::Obj => {
            let a = if req.anims.is_empty() { None } else { anims.first().copied() };
            let name = a.map(|a| format!("{}_f{frame}", name_of(a))).unwrap_or_else(|| stem.to_string());
            Ok(vec![one(out_path(out, &name, "obj"), boneyard_export::obj(doc, sk, a, frame)?.into_bytes())?])
        }
        Format::Png if req.anims.is_empty() => {
            Ok(vec![one(out_path(out, stem, "png"), boneyard_preview::png(doc, sk, None, frame, &render)?)?])
        }
        Format::Png => anims
            .par_iter()
            .map(|&a| {
                let bytes = boneyard_preview::png(doc, sk, Some(a), frame, &render)?;
                one(out_path(out, &format!("{}_f{frame}", name_of(a)), "png"), bytes)
            })
            .collect(),
        Format::Bvh => {
            need_anims()?;
            anims
                .par_iter()
                .map(|&a| one(out_path(out, &name_of(a), "bvh"), boneyard_export::bvh(doc, sk, a, &opts)?.into_bytes()))
                .collect()
        }
        Format::Gif | Format::Apng => {
            need_anims()?;
            let (ext, f): (&str, fn(_, _, _, _) -> _) = if req.format == Format::Gif {
                ("gif", boneyard_preview::gif)
            } else {
                ("png", boneyard_preview::apng)
            };
            anims.par_iter().map(|&a| one(out_path(out, &name_of(a), ext), f(doc, sk, a, &render)?)).collect()
        }
    }
}
