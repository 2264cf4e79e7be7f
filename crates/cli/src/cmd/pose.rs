use anyhow::Result;
use boneyard_core::Document;
use serde_json::json;
use std::path::PathBuf;

pub fn run(
    files: &[PathBuf],
    anim: Option<&str>,
    frame: Option<f64>,
    all_frames: bool,
    skeleton: Option<&str>,
    json: bool,
    options: &boneyard_core::OpenOptions,
) -> Result<()> {
    let opened = crate::inputs::open_single(files, options)?;
    let doc: &dyn Document = opened.as_ref();
    let a = anim.map(|s| doc.find_animation(s)).transpose()?;
    let sk = match (skeleton, a) {
        (Some(s), a) => {
            let sk = doc.find_skeleton(s)?;
            if let Some(a) = a {
                super::export::check_plays_on(doc, a, sk)?;
            }
            sk
        }
        (None, Some(a)) => super::skeleton_of(doc, a)?,
        (None, None) => doc.find_skeleton("#0")?,
    };
    let info = &doc.skeletons()[sk];
    let frames: Vec<f64> = match (all_frames, a) {
        (true, Some(a)) => (0..doc.animations()[a].frames).map(f64::from).collect(),
        _ => vec![super::check_frame(frame.unwrap_or(0.0))?],
    };
    // The frame the engine plays for each one asked for (wrapped, rounded: as `sample` says
    // it), and how it got there: `--frame 40` of an 18-frame clip is posed as frame 4.
    let played = |f: f64| -> Result<Option<(f64, Option<serde_json::Value>)>> {
        let Some(a) = a else { return Ok(None) };
        let s = doc.sample(a, f).map_err(|e| super::in_document(e, files))?;
        Ok(Some((s.frame, s.extra.get("frame_rounding").cloned())))
    };
    if json {
        let mut out = Vec::with_capacity(frames.len());
        for &f in &frames {
            let w = doc.pose(sk, a, f).map_err(|e| super::in_document(e, files))?;
            let mut v = json!({"frame": f, "bones": crate::json::pose_bones(info, &w)});
            // (Every frame of the clip is a frame it plays: said as it is.)
            let said = if all_frames { None } else { played(f)? };
            if let (Some((p, rounding)), Some(o)) = (said, v.as_object_mut()) {
                o.insert("requested_frame".into(), json!(f));
                o.insert("frame".into(), json!(p));
                if let Some(r) = rounding {
                    o.insert("frame_rounding".into(), r);
                }
            }
            out.push(v);
        }
        let anim_v = a.map(|a| crate::json::anim_header(&doc.animations()[a]));
        let warnings: Vec<_> = doc.warnings().iter().map(crate::json::warning).collect();
        let v = if all_frames {
            json!({"animation": anim_v, "skeleton": info.id, "frames": out, "warnings": warnings})
        } else {
            let mut one = out.pop().unwrap_or_default();
            if let Some(o) = one.as_object_mut() {
                o.insert("animation".into(), anim_v.unwrap_or_default());
                o.insert("skeleton".into(), json!(info.id));
                o.insert("warnings".into(), json!(warnings));
            }
            one
        };
        return super::print_json(&v);
    }
    for &f in &frames {
        let w = doc.pose(sk, a, f).map_err(|e| super::in_document(e, files))?;
        match a {
            Some(a) => match played(f)?.map(|p| p.0) {
                Some(p) if p != f => println!("{} frame {p:?} (asked for {f:?}):", doc.animations()[a].name),
                _ => println!("{} frame {f:?}:", doc.animations()[a].name),
            },
            None => println!("{} rest pose:", info.name),
        }
        // Rows of the 3x4 matrix (rotation columns then translation), 3 decimals.
        for (i, (b, m)) in info.skeleton.bones.iter().zip(&w).enumerate() {
            let c = m.to_cols_array_2d();
            let row = |r: usize| format!("{:9.3} {:9.3} {:9.3} {:9.3}", c[0][r], c[1][r], c[2][r], c[3][r]);
            println!("  {i:3} {:<20} [{}]", b.name, row(0));
            println!("  {:3} {:<20} [{}]", "", "", row(1));
            println!("  {:3} {:<20} [{}]", "", "", row(2));
        }
    }
    Ok(())
}
