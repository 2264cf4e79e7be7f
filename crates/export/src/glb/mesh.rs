//! Meshes as glTF: every mesh becomes a skinned primitive over the one skin of the skeleton.
//!
//! Rigid meshes (positions in their bone's local space) are moved to model space at rest
//! (`rest_world[bone] * p`) and weighted 1.0 to their bone, so that glTF skinning
//! (`joint_world * inverse_bind * p`, with `inverse_bind = rest_world⁻¹`) puts them back on
//! the bone at every frame. Skinned meshes are already in model space at rest.
//!
//! A mesh's texture is embedded as a PNG with `TEXCOORD_0` from its uvs, written as given:
//! glTF puts uv (0, 0) at the image's first (top) row, which the model's RGBA rows follow.
//! Its sampler follows the texture's filter (LINEAR for bilinear formats, NEAREST for point
//! sampled ones), repeating. The material is `base_color` times the texture times the
//! vertex colours (`COLOR_0`), which is how the families hand their materials over (Zelda
//! 64: the colour combiner's formula). The mesh's alpha mode becomes the material's: MASK
//! (cutoff 0.5) for cut-outs, BLEND for translucent meshes (and for a base colour whose alpha
//! is below 1), else OPAQUE.

use std::collections::BTreeMap;

use boneyard_core::error::ErrorKind;
use boneyard_core::model::{TextureFilter, TextureWrap};
use boneyard_core::{Error, Mesh, MeshBinding, Result};
use glam::{Mat3, Mat4, Vec3};
use gltf_json as json;
use json::accessor::{ComponentType, Type};
use json::buffer::Target;
use json::validation::Checked::Valid;

use super::buffer::{f32_bytes, min_max, Builder};

/// One vertex's joints and weights, cleaned so that glTF accepts them: weights finite and
/// positive, each joint at most once, summing to 1 (unused slots are joint 0, weight 0).
pub(crate) fn clean_influences(joints: [u16; 4], weights: [f32; 4], bones: usize) -> ([u16; 4], [f32; 4]) {
    let mut j = [0u16; 4];
    let mut w = [0f32; 4];
    let mut n = 0;
    for (&jj, &ww) in joints.iter().zip(&weights) {
        if !(ww.is_finite() && ww > 0.0) || jj as usize >= bones {
            continue;
        }
        match j[..n].iter().position(|&x| x == jj) {
            Some(k) => w[k] += ww,
            None => {
                j[n] = jj;
                w[n] = ww;
                n += 1;
            }
        }
    }
    if n == 0 {
        // Nothing usable: follow the first listed joint (in range) fully.
        j[0] = joints.iter().copied().find(|&x| (x as usize) < bones).unwrap_or(0);
        w[0] = 1.0;
        return (j, w);
    }
    let sum: f32 = w.iter().sum();
    for x in &mut w[..n] {
        *x /= sum;
    }
    (j, w)
}

/// Normals transformed by `m` (the inverse transpose of a model matrix), or None when any
/// normal cannot be made unit (glTF requires unit normals; better none than wrong ones).
fn unit_normals(normals: &[Vec3], m: impl Fn(usize) -> Mat3) -> Option<Vec<f32>> {
    let mut out = Vec::with_capacity(normals.len() * 3);
    for (i, n) in normals.iter().enumerate() {
        let v = (m(i) * *n).normalize_or_zero();
        if v == Vec3::ZERO || !v.is_finite() {
            return None;
        }
        out.extend(v.to_array());
    }
    Some(out)
}

/// The mesh's texture encoded as PNG, when it has one and uvs to map it (shared by the glb
/// and the OBJ's material files).
pub(crate) fn texture_png(mesh: &Mesh) -> Result<Option<Vec<u8>>> {
    let Some(tex) = &mesh.texture else { return Ok(None) };
    let ok_size = (tex.width as u64) * (tex.height as u64) * 4 == tex.rgba.len() as u64;
    if mesh.uvs.is_none() || tex.width == 0 || tex.height == 0 || !ok_size {
        return Ok(None);
    }
    let mut png_bytes = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut png_bytes, tex.width, tex.height);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        // fdeflate: the game textures are small and flat, and png's zlib path (flate2) clears
        // its 32 KB output buffer on every row it writes, which was a fifth of a Link export.
        enc.set_compression(png::Compression::Fast);
        let fail = |e: png::EncodingError| Error::new(ErrorKind::Invalid(format!("mesh {}: texture: {e}", mesh.name)));
        let mut w = enc.write_header().map_err(fail)?;
        w.write_image_data(&tex.rgba).map_err(fail)?;
    }
    Ok(Some(png_bytes))
}

/// The mesh's texture as an embedded PNG, when it has one and uvs to map it; an image and a
/// sampler the glb holds already (the same pixels, the same filters and wraps) are shared.
fn texture(b: &mut Builder, mesh: &Mesh) -> Result<Option<json::Index<json::Texture>>> {
    let Some(tex) = &mesh.texture else { return Ok(None) };
    let key = (tex.width, tex.height, tex.rgba.clone());
    let image = match b.images.get(&key) {
        Some(&image) => image,
        None => {
            let Some(png_bytes) = texture_png(mesh)? else { return Ok(None) };
            let view = b.view(&png_bytes, None)?;
            let image = b.root.push(json::Image {
                buffer_view: Some(view),
                mime_type: Some(json::image::MimeType("image/png".into())),
                name: Some(mesh.name.clone()),
                uri: None,
                extensions: None,
                extras: Default::default(),
            });
            b.images.insert(key, image);
            image
        }
    };
    // (An image is shared only with a mesh that has uvs too: `texture_png` gave it.)
    if mesh.uvs.is_none() {
        return Ok(None);
    }
    // The format's filtering: bilinear (the N64's 3-point filter, which LINEAR approximates)
    // or the nearest texel; and its wrapping past the image (repeated, mirrored or clamped).
    let filter = mesh.texture.as_ref().map(|t| t.filter).unwrap_or_default();
    let wrap = mesh.texture.as_ref().map(|t| t.wrap).unwrap_or_default().map(|w| match w {
        TextureWrap::Repeat => json::texture::WrappingMode::Repeat,
        TextureWrap::MirroredRepeat => json::texture::WrappingMode::MirroredRepeat,
        TextureWrap::ClampToEdge => json::texture::WrappingMode::ClampToEdge,
    });
    let (mag, min) = match filter {
        TextureFilter::Point => (json::texture::MagFilter::Nearest, json::texture::MinFilter::Nearest),
        TextureFilter::ThreePoint => (json::texture::MagFilter::Linear, json::texture::MinFilter::Linear),
    };
    let sampler_key = [mag.as_gl_enum(), min.as_gl_enum(), wrap[0].as_gl_enum(), wrap[1].as_gl_enum()];
    let sampler = match b.samplers.get(&sampler_key) {
        Some(&sampler) => sampler,
        None => {
            let sampler = b.root.push(json::texture::Sampler {
                mag_filter: Some(Valid(mag)),
                min_filter: Some(Valid(min)),
                name: None,
                wrap_s: Valid(wrap[0]),
                wrap_t: Valid(wrap[1]),
                extensions: None,
                extras: Default::default(),
            });
            b.samplers.insert(sampler_key, sampler);
            sampler
        }
    };
    Ok(Some(b.root.push(json::Texture {
        name: Some(mesh.name.clone()),
        sampler: Some(sampler),
        source: image,
        extensions: None,
        extras: Default::default(),
    })))
}

fn material(b: &mut Builder, mesh: &Mesh, texture: Option<json::Index<json::Texture>>) -> json::Index<json::Material> {
    let c = mesh.base_color.map(|x| if x.is_finite() { x.clamp(0.0, 1.0) } else { 1.0 });
    use boneyard_core::model::AlphaMode;
    let (alpha_mode, alpha_cutoff) = match mesh.alpha_mode {
        AlphaMode::Mask => (json::material::AlphaMode::Mask, Some(json::material::AlphaCutoff(0.5))),
        AlphaMode::Blend => (json::material::AlphaMode::Blend, None),
        AlphaMode::Opaque if c[3] < 1.0 => (json::material::AlphaMode::Blend, None),
        AlphaMode::Opaque => (json::material::AlphaMode::Opaque, None),
    };
    b.root.push(json::Material {
        name: Some(mesh.name.clone()),
        alpha_mode: Valid(alpha_mode),
        alpha_cutoff,
        pbr_metallic_roughness: json::material::PbrMetallicRoughness {
            base_color_factor: json::material::PbrBaseColorFactor(c),
            metallic_factor: json::material::StrengthFactor(0.0),
            roughness_factor: json::material::StrengthFactor(1.0),
            base_color_texture: texture.map(|index| json::texture::Info {
                index,
                tex_coord: 0,
                extensions: None,
                extras: Default::default(),
            }),
            ..Default::default()
        },
        ..Default::default()
    })
}

/// Add `mesh` as a glTF mesh skinned over the skeleton whose rest world matrices are
/// `rest_world`. Returns None for a mesh with no triangles (nothing to draw). `index`, the
/// mesh's place in `SkeletonInfo::meshes`, goes in the glTF mesh's extras as `mesh`.
pub(crate) fn add(
    b: &mut Builder,
    mesh: &Mesh,
    rest_world: &[Mat4],
    index: Option<usize>,
) -> Result<Option<json::Index<json::Mesh>>> {
    let bones = rest_world.len();
    mesh.validate(bones).map_err(|e| Error::new(ErrorKind::Invalid(format!("cannot export: {}", e.kind))))?;
    if mesh.indices.is_empty() || mesh.positions.is_empty() {
        return Ok(None);
    }
    let nv = mesh.positions.len();
    type Influences = (Vec<[u16; 4]>, Vec<[f32; 4]>);
    let (positions, normals, (joints, weights)): (Vec<f32>, Option<Vec<f32>>, Influences) = match &mesh.binding {
        MeshBinding::Rigid { bone } => {
            let m = rest_world[*bone];
            let nm = Mat3::from_mat4(m).inverse().transpose();
            let p = mesh.positions.iter().flat_map(|p| m.transform_point3(*p).to_array()).collect();
            let n = mesh.normals.as_ref().and_then(|n| unit_normals(n, |_| nm));
            (p, n, (vec![[*bone as u16, 0, 0, 0]; nv], vec![[1.0, 0.0, 0.0, 0.0]; nv]))
        }
        MeshBinding::Skinned { joints, weights } => {
            let p = mesh.positions.iter().flat_map(|p| p.to_array()).collect();
            let n = mesh.normals.as_ref().and_then(|n| unit_normals(n, |_| Mat3::IDENTITY));
            let (j, w) = joints.iter().zip(weights).map(|(j, w)| clean_influences(*j, *w, bones)).unzip();
            (p, n, (j, w))
        }
    };
    if positions.iter().any(|x| !x.is_finite()) {
        return Err(Error::new(ErrorKind::Invalid(format!("mesh {}: a vertex position is not finite", mesh.name))));
    }

    let mut attributes = BTreeMap::new();
    let va = Some(Target::ArrayBuffer);
    let pos = b.data(f32_bytes(&positions), va, ComponentType::F32, Type::Vec3, nv, Some(min_max(&positions, 3)))?;
    attributes.insert(Valid(json::mesh::Semantic::Positions), pos);
    if let Some(n) = normals {
        let acc = b.data(f32_bytes(&n), va, ComponentType::F32, Type::Vec3, nv, None)?;
        attributes.insert(Valid(json::mesh::Semantic::Normals), acc);
    }
    if let Some(colors) = &mesh.colors {
        let c: Vec<f32> =
            colors.iter().flatten().map(|x| if x.is_finite() { x.clamp(0.0, 1.0) } else { 1.0 }).collect();
        let acc = b.data(f32_bytes(&c), va, ComponentType::F32, Type::Vec4, nv, None)?;
        attributes.insert(Valid(json::mesh::Semantic::Colors(0)), acc);
    }
    let texture = texture(b, mesh)?;
    if let (Some(_), Some(uvs)) = (texture, &mesh.uvs) {
        let uv: Vec<f32> = uvs.iter().flat_map(|v| v.to_array()).map(|x| if x.is_finite() { x } else { 0.0 }).collect();
        let acc = b.data(f32_bytes(&uv), va, ComponentType::F32, Type::Vec2, nv, None)?;
        attributes.insert(Valid(json::mesh::Semantic::TexCoords(0)), acc);
    }
    let joints_acc = if bones <= 256 {
        let j: Vec<u8> = joints.iter().flatten().map(|&x| x as u8).collect();
        b.data(&j, va, ComponentType::U8, Type::Vec4, nv, None)?
    } else {
        let j: Vec<u16> = joints.iter().flatten().copied().collect();
        b.data(bytemuck::cast_slice(&j), va, ComponentType::U16, Type::Vec4, nv, None)?
    };
    attributes.insert(Valid(json::mesh::Semantic::Joints(0)), joints_acc);
    let w: Vec<f32> = weights.iter().flatten().copied().collect();
    let weights_acc = b.data(f32_bytes(&w), va, ComponentType::F32, Type::Vec4, nv, None)?;
    attributes.insert(Valid(json::mesh::Semantic::Weights(0)), weights_acc);

    let ia = Some(Target::ElementArrayBuffer);
    let ni = mesh.indices.len();
    // 0xFFFF is the primitive-restart value glTF forbids in u16 indices.
    let indices = if nv < 0xFFFF {
        let i: Vec<u16> = mesh.indices.iter().map(|&x| x as u16).collect();
        b.data(bytemuck::cast_slice(&i), ia, ComponentType::U16, Type::Scalar, ni, None)?
    } else {
        b.data(bytemuck::cast_slice(&mesh.indices), ia, ComponentType::U32, Type::Scalar, ni, None)?
    };
    let material = material(b, mesh, texture);
    Ok(Some(b.root.push(json::Mesh {
        extensions: None,
        extras: index.map(|i| super::extras(serde_json::json!({ "mesh": i }))).unwrap_or_default(),
        name: Some(mesh.name.clone()),
        primitives: vec![json::mesh::Primitive {
            attributes,
            extensions: None,
            extras: Default::default(),
            indices: Some(indices),
            material: Some(material),
            mode: Valid(json::mesh::Mode::Triangles),
            targets: None,
        }],
        weights: None,
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn influences_are_merged_and_normalized() {
        let (j, w) = clean_influences([3, 3, 1, 9], [0.25, 0.25, 1.5, 1.0], 4);
        assert_eq!(j, [3, 1, 0, 0]);
        assert_eq!(w, [0.25, 0.75, 0.0, 0.0]);
        let (j, w) = clean_influences([2, 1, 0, 0], [0.0, f32::NAN, -1.0, 0.0], 4);
        assert_eq!((j, w), ([2, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]));
    }
}
