//! The stable JSON shapes of cli.md (`list`, `sample`, `pose`, `info`), shared by the
//! commands and the viewer's API.

use boneyard_core::{AnimInfo, Document, FileSummary, Sample, SkeletonInfo, Warning};
use glam::Mat4;
use serde_json::{json, Map, Value};

pub fn file(f: &FileSummary) -> Value {
    let counts: Map<String, Value> = f.counts.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
    json!({"path": f.path, "format": f.format, "variant": f.variant, "counts": counts, "notes": f.notes})
}

pub fn skeleton(s: &SkeletonInfo) -> Value {
    let mut m = Map::new();
    m.insert("id".into(), json!(s.id));
    m.insert("name".into(), json!(s.name));
    m.insert("bones".into(), json!(s.skeleton.len()));
    m.insert("source".into(), json!(s.source));
    m.insert("meshes".into(), json!(s.meshes.len()));
    for (k, v) in &s.extra {
        m.entry(k.clone()).or_insert_with(|| v.clone());
    }
    Value::Object(m)
}

pub fn animation(position: usize, a: &AnimInfo, doc: &dyn Document) -> Value {
    let mut m = Map::new();
    m.insert("index".into(), json!(a.index));
    m.insert("name".into(), json!(a.name));
    m.insert("frames".into(), json!(a.frames));
    m.insert("fps".into(), json!(a.fps));
    m.insert("bones".into(), json!(a.bones));
    m.insert("format".into(), json!(a.format));
    m.insert("source".into(), json!(a.source));
    m.insert("skeleton".into(), json!(a.skeleton.and_then(|s| doc.skeletons().get(s)).map(|s| s.id.clone())));
    m.insert(
        "interpolation".into(),
        json!(match a.interpolation {
            boneyard_core::Interpolation::Linear => "linear",
            boneyard_core::Interpolation::Step => "step",
        }),
    );
    for (k, v) in doc.animation_extra(position) {
        m.entry(k).or_insert(v);
    }
    Value::Object(m)
}

/// A reader's warning: file, byte offset (null when it concerns the whole file), message.
pub fn warning(w: &Warning) -> Value {
    json!({"file": w.file, "offset": w.offset, "message": w.message})
}

/// Every warning of the documents, in document order.
pub fn warnings(docs: &[&dyn Document]) -> Value {
    Value::Array(docs.iter().flat_map(|d| d.warnings().iter().map(warning)).collect())
}

/// `list --json` of `docs` written element by element as it is serialized: one animation's
/// JSON is made, written and dropped before the next, so a level of thousands of animations
/// never exists as one tree (a CD's worth of TRAMs was 200 MB of it). The bytes are those
/// of [`list`]'s tree: the same keys in the same (a `serde_json::Map`'s sorted) order, each
/// element the same value.
pub struct ListStream<'a> {
    pub docs: &'a [&'a dyn Document],
    pub files: &'a [String],
}

/// A JSON array of what `items` makes, serialized as it is iterated (once per serialization).
struct Streamed<F>(F);

impl<F, I> serde::Serialize for Streamed<F>
where
    F: Fn() -> I,
    I: Iterator<Item = Value>,
{
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq((self.0)())
    }
}

impl serde::Serialize for ListStream<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let docs = self.docs;
        let mut m = s.serialize_map(Some(4))?;
        // In the order of the keys of `list`'s map (sorted).
        m.serialize_entry(
            "animations",
            &Streamed(|| {
                docs.iter().flat_map(|d| d.animations().iter().enumerate().map(move |(i, a)| animation(i, a, *d)))
            }),
        )?;
        m.serialize_entry("files", self.files)?;
        m.serialize_entry("skeletons", &Streamed(|| docs.iter().flat_map(|d| d.skeletons().iter().map(skeleton))))?;
        m.serialize_entry("warnings", &Streamed(|| docs.iter().flat_map(|d| d.warnings().iter().map(warning))))?;
        m.end()
    }
}

pub fn list(docs: &[&dyn Document], files: &[String]) -> Value {
    let mut skeletons = Vec::new();
    let mut animations = Vec::new();
    for d in docs {
        skeletons.extend(d.skeletons().iter().map(skeleton));
        animations.extend(d.animations().iter().enumerate().map(|(i, a)| animation(i, a, *d)));
    }
    json!({"files": files, "skeletons": skeletons, "animations": animations, "warnings": warnings(docs)})
}

pub fn anim_header(a: &AnimInfo) -> Value {
    json!({"index": a.index, "name": a.name, "frames": a.frames, "fps": a.fps})
}

pub fn sample(doc: &dyn Document, a: &AnimInfo, s: &Sample) -> Value {
    let names = a.skeleton.and_then(|i| doc.skeletons().get(i)).map(|sk| &sk.skeleton);
    let channels: Vec<Value> =
        s.channels.iter().map(|c| json!({"target": c.target, "path": c.path, "value": c.value})).collect();
    let bones: Vec<Value> = s
        .locals
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let name = names.and_then(|sk| sk.bones.get(i)).map(|b| b.name.clone()).unwrap_or_else(|| i.to_string());
            json!({"index": i, "name": name, "translation": t.translation.to_array(), "rotation": t.rotation.to_array(), "scale": t.scale.to_array()})
        })
        .collect();
    let mut m = Map::new();
    m.insert("format".into(), json!(a.format));
    m.insert("animation".into(), anim_header(a));
    m.insert("frame".into(), json!(s.frame));
    m.insert("channels".into(), Value::Array(channels));
    m.insert("bones".into(), Value::Array(bones));
    if let Some(r) = s.root_motion {
        m.insert("root_motion".into(), json!(r.to_array()));
    }
    // What the reader skipped or guessed, as every `--json` output carries it.
    m.insert("warnings".into(), Value::Array(doc.warnings().iter().map(warning).collect()));
    for (k, v) in &s.extra {
        m.entry(k.clone()).or_insert_with(|| v.clone());
    }
    Value::Object(m)
}

pub fn pose_bones(info: &SkeletonInfo, world: &[Mat4]) -> Value {
    let bones: Vec<Value> = info
        .skeleton
        .bones
        .iter()
        .zip(world)
        .enumerate()
        .map(|(i, (b, m))| json!({"index": i, "name": b.name, "parent": b.parent, "matrix": m.to_cols_array()}))
        .collect();
    Value::Array(bones)
}
