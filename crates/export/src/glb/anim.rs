//! One baked clip as a glTF animation.

use boneyard_core::Interpolation;
use gltf_json as json;
use json::accessor::{ComponentType, Type};
use json::animation::{Interpolation as GltfInterpolation, Property};
use json::validation::Checked::Valid;

use super::buffer::{f32_bytes, AccessorDesc, Builder};
use crate::bake::Baked;
use crate::ExportOptions;
use boneyard_core::Result;

/// The values of one channel (one bone, one property), `n` floats per key.
struct Track {
    bone: usize,
    property: Property,
    /// Every frame's value, or the single value when it never changes.
    values: Vec<f32>,
    constant: bool,
}

fn track<const N: usize>(bone: usize, property: Property, frames: usize, value: impl Fn(usize) -> [f32; N]) -> Track {
    let first = value(0);
    let same = |v: [f32; N]| v.iter().zip(&first).all(|(a, b)| a.to_bits() == b.to_bits());
    let constant = (1..frames).all(|f| same(value(f)));
    let values = if constant { first.to_vec() } else { (0..frames).flat_map(&value).collect() };
    Track { bone, property, values, constant }
}

/// Add `clip` as animation `name`. `rest_scales` are the bones' node scales: a scale channel is
/// only written where the clip's scale differs from them.
pub(crate) fn add(
    b: &mut Builder,
    clip: &Baked,
    name: String,
    rest_scales: &[glam::Vec3],
    opts: &ExportOptions,
) -> Result<()> {
    // Tracks hold a value per key (one a frame, or `subframes` a frame for a LINEAR clip).
    let frames = clip.keys;
    let mut tracks = Vec::new();
    for bone in 0..clip.bones {
        tracks.push(track(bone, Property::Translation, frames, |f| clip.translation(bone, f).to_array()));
        let mut r = track(bone, Property::Rotation, frames, |f| clip.rotation(bone, f).to_array());
        if bone == 0 && r.constant && frames > 1 {
            // Keep one full-length channel so that importers see the clip's duration.
            r = Track { values: r.values.repeat(frames), constant: false, ..r };
        }
        tracks.push(r);
        let s = track(bone, Property::Scale, frames, |f| clip.scale(bone, f).to_array());
        let rest = rest_scales.get(bone).copied().unwrap_or(glam::Vec3::ONE).to_array();
        if !(s.constant && s.values == rest) {
            tracks.push(s);
        }
    }

    let first = clip.times[0];
    let last = *clip.times.last().unwrap_or(&first);
    let times = b.data(
        f32_bytes(&clip.times),
        None,
        ComponentType::F32,
        Type::Scalar,
        frames,
        Some((vec![first], vec![last])),
    )?;
    let constant_time = if frames > 1 && tracks.iter().any(|t| t.constant) {
        Some(b.data(f32_bytes(&[0.0]), None, ComponentType::F32, Type::Scalar, 1, Some((vec![0.0], vec![0.0])))?)
    } else {
        None
    };

    // One buffer view per property, one accessor per track inside it.
    let mut samplers = Vec::new();
    let mut channels = Vec::new();
    let interpolation = match clip.interpolation {
        Interpolation::Linear => GltfInterpolation::Linear,
        Interpolation::Step => GltfInterpolation::Step,
    };
    for property in [Property::Translation, Property::Rotation, Property::Scale] {
        let group: Vec<&Track> = tracks.iter().filter(|t| t.property == property).collect();
        if group.is_empty() {
            continue;
        }
        let (n, ty) = if property == Property::Rotation { (4, Type::Vec4) } else { (3, Type::Vec3) };
        let data: Vec<f32> = group.iter().flat_map(|t| t.values.iter().copied()).collect();
        let view = b.view(f32_bytes(&data), None)?;
        let mut offset = 0;
        for t in group {
            let count = t.values.len() / n;
            let output = b.accessor(
                view,
                AccessorDesc { component: ComponentType::F32, ty, count, byte_offset: offset, min_max: None },
            );
            offset += t.values.len() * 4;
            let input = if count == 1 { constant_time.unwrap_or(times) } else { times };
            samplers.push(json::animation::Sampler {
                extensions: None,
                extras: Default::default(),
                input,
                interpolation: Valid(interpolation),
                output,
            });
            channels.push(json::animation::Channel {
                sampler: json::Index::new((samplers.len() - 1) as u32),
                target: json::animation::Target {
                    extensions: None,
                    extras: Default::default(),
                    node: json::Index::new(t.bone as u32),
                    path: Valid(property),
                },
                extensions: None,
                extras: Default::default(),
            });
        }
    }
    let info = &clip.info;
    let mut extras = serde_json::json!({
            "fps": clip.fps,
            "frames": clip.frames,
            "index": clip.index,
            "interpolation": match clip.interpolation { Interpolation::Linear => "LINEAR", Interpolation::Step => "STEP" },
            "format": info.format,
            "source": info.source,
            "in_place": opts.in_place,
    });
    if clip.subframes > 1 {
        // Named only where it applies, so that files of one key a frame are as they were.
        extras["subframes"] = clip.subframes.into();
    }
    b.root.push(json::Animation {
        extensions: None,
        extras: super::extras(extras),
        channels,
        name: Some(name),
        samplers,
    });
    Ok(())
}
