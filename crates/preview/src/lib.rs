//! boneyard-preview: pictures of posed skeletons, made by a small deterministic software
//! rasterizer and written as PNG, animated GIF or APNG.
//!
//! * The camera is orthographic, orbits the Y axis (Y is up) and is framed on the bounding box
//!   of the posed character over the *whole clip*, so a walk with root motion stays in view.
//!   Yaw 0 looks from +Z towards -Z: a character facing +Z (the demo walks along +Z) shows its
//!   front; the default yaw of 25° turns it slightly so the boxes read as solids.
//! * Meshes are posed with the document's own world matrices (`Document::pose`): rigid meshes
//!   as `world[bone] * p`, skinned ones as `Σ w · world[j] · inverse(rest_world[j]) · p`; they
//!   are filled with a z-buffer and lit flat from the face normal with a fixed light, in
//!   `Mesh::base_color` times the vertex colours (interpolated across the face, as the RDP
//!   shades) times the texture sampled at the interpolated uvs, with the N64's 3-point
//!   filter when the texture says bilinear ([`boneyard_core::model::TextureFilter`]), the
//!   nearest texel otherwise; in cut-out and translucent meshes (`Mesh::alpha_mode`) texels
//!   of alpha below one half are not drawn, opaque meshes draw every texel, as the RDP's
//!   opaque render modes do. A
//!   texture without uvs counts as its mean colour. Textures the engine binds per frame
//!   (`Document::frame_textures`: Link's eyes and mouth from the face word) replace the
//!   meshes' own. Bones are drawn on top as lines with
//!   dots at the joints when asked, or when there is no mesh.
//! * Same input, same bytes: integer edge functions, no threads, no hash-order iteration.
//! * Animations: every frame of the clip, at most [`MAX_ANIMATION_FRAMES`]; a longer clip
//!   keeps every k-th frame (k = ceil(frames / 600)) and shows each k times as long.
//!   GIF delays are whole hundredths of a second, each frame ending at the hundredth nearest
//!   its true end (30 fps: 3, 4, 3), so a loop lasts as long as the clip; a delay is at least
//!   2 (browsers play 0 or 1 as 10), so past 50 fps a GIF keeps every other frame (a 60 fps
//!   clip shows at 30 fps, on time; the APNG has every frame). APNG delays are exact
//!   fractions `k / fps` (`1/60`, `1/30`, `1/20`, `100/2997` for 29.97 fps). GIF frames carry
//!   their own palette (exact when a frame has at most 256 colours, as untextured flat shading
//!   gives; else a median cut, as textured models need: every frame of `object_dekunuts` has
//!   some 16,000). In both GIF and APNG every frame after the first holds only the rectangle
//!   that changed. Width x height x frames is capped at [`MAX_ANIMATION_PIXELS`].
#![deny(missing_docs)]

mod camera;
mod encode;
mod palette;
mod raster;
mod sample;
mod scene;

pub use camera::{Bounds, Camera};
pub use encode::{apng_delay, gif_delays_centiseconds, gif_step};
pub use raster::Canvas;

use boneyard_core::{Document, Error, Result};
use glam::Vec3;
use scene::Scene;

/// The most frames an animated preview holds (see the crate docs for longer clips).
pub const MAX_ANIMATION_FRAMES: u32 = 600;
/// The largest image side accepted, in pixels.
pub const MAX_SIDE: u32 = 4096;
/// The most pixels an animated preview may render in all (1024 x 1024 x 1000).
pub const MAX_ANIMATION_PIXELS: u64 = 1024 * 1024 * 1000;

/// How to draw a preview.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderOptions {
    /// Image width in pixels.
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
    /// Camera orbit around the Y axis in degrees; 0 looks from +Z towards -Z.
    pub yaw_degrees: f32,
    /// Camera elevation in degrees; positive looks down on the character.
    pub pitch_degrees: f32,
    /// Background colour (RGB).
    pub background: [u8; 3],
    /// Draw bones and joints over the mesh (always done when there is no mesh).
    pub draw_bones: bool,
    /// Draw the meshes (when the skeleton has any).
    pub draw_mesh: bool,
    /// Frame the camera on the whole clip (true) or only on the frame drawn (false). Animated
    /// previews always frame the whole clip.
    pub fit_clip: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            width: 512,
            height: 512,
            yaw_degrees: 25.0,
            pitch_degrees: 12.0,
            background: [36, 40, 48],
            draw_bones: false,
            draw_mesh: true,
            fit_clip: true,
        }
    }
}

impl RenderOptions {
    fn check(&self) -> Result<()> {
        for (what, v) in [("width", self.width), ("height", self.height)] {
            if v == 0 || v > MAX_SIDE {
                return Err(Error::invalid(0, format!("preview {what} {v} is outside 1..={MAX_SIDE}")));
            }
        }
        if !self.yaw_degrees.is_finite() || !self.pitch_degrees.is_finite() {
            return Err(Error::invalid(0, "preview camera angles must be finite numbers"));
        }
        Ok(())
    }
}

/// Bones: orange lines, pale joints.
const BONE_COLOUR: [u8; 3] = [255, 150, 40];
const JOINT_COLOUR: [u8; 3] = [255, 236, 200];
/// The light, in view space (right, up, towards the viewer): from the upper left, in front.
const LIGHT: Vec3 = Vec3::new(-0.35, 0.55, 0.76);
/// Share of a face's colour it keeps when lit edge-on (so no face is black).
const AMBIENT: f32 = 0.3;
/// Margin around the framed character, as a fraction of the smaller image side.
const MARGIN: f32 = 0.06;

/// The frames an animated preview shows for a clip of `frames` frames, and the step k between
/// them (1 unless the clip is longer than [`MAX_ANIMATION_FRAMES`]).
pub fn clip_frames(frames: u32) -> (Vec<u32>, u32) {
    let step = frames.div_ceil(MAX_ANIMATION_FRAMES).max(1);
    ((0..frames).step_by(step as usize).collect(), step)
}

/// Everything needed to draw any frame of one skeleton with one framed camera.
struct Renderer<'a> {
    doc: &'a dyn Document,
    skeleton: usize,
    scene: Scene<'a>,
    camera: Camera,
    opts: &'a RenderOptions,
    draw_mesh: bool,
    draw_bones: bool,
}

impl<'a> Renderer<'a> {
    /// Check the inputs and frame the camera on the character at every frame of `framing`.
    fn new(
        doc: &'a dyn Document,
        skeleton: usize,
        anim: Option<usize>,
        framing: &[f64],
        opts: &'a RenderOptions,
    ) -> Result<Self> {
        opts.check()?;
        let scene = Scene::new(doc, skeleton)?;
        if let Some(a) = anim {
            let n = doc.animations().len();
            doc.animations().get(a).ok_or_else(|| Error::not_found(format!("no animation #{a} (there are {n})")))?;
        }
        let draw_mesh = opts.draw_mesh && scene.info.meshes.iter().any(|m| !m.indices.is_empty());
        let draw_bones = opts.draw_bones || !draw_mesh;
        let mut r = Renderer {
            doc,
            skeleton,
            scene,
            camera: Camera::orbit(opts.yaw_degrees, opts.pitch_degrees, opts.width, opts.height),
            opts,
            draw_mesh,
            draw_bones,
        };
        let mut bounds = Bounds::default();
        let mut posed = Vec::new();
        for &f in framing {
            let world = r.scene.world(doc, skeleton, anim, f)?;
            if r.draw_mesh {
                for m in &r.scene.info.meshes {
                    r.scene.pose_mesh(m, &world, &mut posed);
                    for &p in &posed {
                        bounds.add(r.camera.view(p).truncate());
                    }
                }
            }
            if r.draw_bones {
                for p in Scene::joints(&world) {
                    bounds.add(r.camera.view(p).truncate());
                }
            }
        }
        r.camera.fit(&bounds, MARGIN);
        Ok(r)
    }

    fn draw(&self, anim: Option<usize>, frame: f64) -> Result<Canvas> {
        let world = self.scene.world(self.doc, self.skeleton, anim, frame)?;
        let mut canvas = Canvas::new(self.opts.width, self.opts.height, self.opts.background);
        let light = LIGHT.normalize();
        if self.draw_mesh {
            let mut posed = Vec::new();
            let mut screen = Vec::new();
            // Textures the engine binds at this frame (Link's eyes and mouth).
            let swaps = self.doc.frame_textures(self.skeleton, anim, frame)?;
            for (mi, m) in self.scene.info.meshes.iter().enumerate() {
                self.scene.pose_mesh(m, &world, &mut posed);
                screen.clear();
                screen.extend(posed.iter().map(|&p| self.camera.project(p)));
                let swap = swaps.iter().rev().find(|(i, _)| *i == mi).map(|(_, t)| t);
                let mapped = mapped_texture(m, swap);
                let base = if mapped.is_some() { unit_colour(m) } else { mesh_colour(m) };
                let alpha = if base[3].is_finite() { base[3].clamp(0.0, 1.0) } else { 1.0 };
                for t in m.indices.chunks_exact(3) {
                    // `Mesh::validate` (in Scene::new) checked every index against the vertices.
                    let [a, b, c] = [t[0], t[1], t[2]].map(|i| i as usize);
                    let (va, vb, vc) = (posed[a], posed[b], posed[c]);
                    // Flat lighting, two-sided: game meshes do not all wind their faces alike.
                    let n = self.camera.view((vb - va).cross(vc - va)).normalize_or_zero();
                    let lit = AMBIENT + (1.0 - AMBIENT) * n.dot(light).abs();
                    let vc4 = [a, b, c].map(|v| vertex_colour(m, v));
                    let uvs = mapped.map(|(uvs, _)| [a, b, c].map(|v| uvs[v].to_array()));
                    canvas.fill_triangle_with([screen[a], screen[b], screen[c]], true, |w| {
                        let mix = |k: usize| w[0] * vc4[0][k] + w[1] * vc4[1][k] + w[2] * vc4[2][k];
                        let mut rgba = [mix(0) * base[0], mix(1) * base[1], mix(2) * base[2], mix(3) * alpha];
                        if let (Some(uv), Some((_, tex))) = (uvs, mapped) {
                            let at = [0, 1].map(|k| w[0] * uv[0][k] + w[1] * uv[1][k] + w[2] * uv[2][k]);
                            let texel = sample::sample(tex, at);
                            for (x, t) in rgba.iter_mut().zip(texel) {
                                *x *= t;
                            }
                        }
                        (cut_out_kept(m.alpha_mode, rgba[3]) || mapped.is_none())
                            .then(|| [0, 1, 2].map(|i| round_to_u8(rgba[i].clamp(0.0, 1.0) * lit * 255.0)))
                    });
                }
            }
        }
        if self.draw_bones {
            let joints: Vec<Vec3> = Scene::joints(&world).into_iter().map(|p| self.camera.project(p)).collect();
            let side = self.opts.width.min(self.opts.height) as f32;
            let thickness = (side / 256.0).max(1.0);
            for (i, b) in self.scene.info.skeleton.bones.iter().enumerate() {
                if let (Some(p), Some(&j)) = (b.parent.and_then(|p| joints.get(p)), joints.get(i)) {
                    canvas.line(*p, j, thickness, BONE_COLOUR);
                }
            }
            for &j in &joints {
                canvas.dot(j, thickness * 1.5 + 0.5, JOINT_COLOUR);
            }
        }
        Ok(canvas)
    }
}

/// The mesh's texture and uvs, when it has both and the texture holds its texels.
/// `swap` replaces the mesh's own texture.
fn mapped_texture<'m>(
    m: &'m boneyard_core::Mesh,
    swap: Option<&'m boneyard_core::model::Texture>,
) -> Option<(&'m [glam::Vec2], &'m boneyard_core::model::Texture)> {
    let t = swap.or(m.texture.as_ref())?;
    let uvs = m.uvs.as_deref()?;
    let ok = t.width > 0 && t.height > 0 && t.rgba.len() == t.width as usize * t.height as usize * 4;
    (ok && uvs.len() == m.positions.len()).then_some((uvs, t))
}

/// `base_color`, each channel made finite and 0..1.
fn unit_colour(m: &boneyard_core::Mesh) -> [f32; 4] {
    m.base_color.map(|c| if c.is_finite() { c.clamp(0.0, 1.0) } else { 0.8 })
}

/// A mesh's colour when its texture cannot be mapped: `base_color` times the mean colour of
/// its texture, if it has one (the mean keeps a green tunic green).
fn mesh_colour(m: &boneyard_core::Mesh) -> [f32; 4] {
    let mut c = unit_colour(m);
    if let Some(t) = &m.texture {
        let texels = t.width as usize * t.height as usize;
        if texels > 0 && t.rgba.len() == texels * 4 {
            let mut sum = [0u64; 3];
            let mut n = 0u64;
            for px in t.rgba.chunks_exact(4).filter(|px| px[3] > 0) {
                for (s, &v) in sum.iter_mut().zip(px) {
                    *s += u64::from(v);
                }
                n += 1;
            }
            if n > 0 {
                for (ci, s) in c.iter_mut().zip(sum) {
                    *ci *= s as f32 / (n as f32 * 255.0);
                }
            }
        }
    }
    c
}

/// A vertex's colour, when the mesh has them (white otherwise), made finite and 0..1.
fn vertex_colour(m: &boneyard_core::Mesh, v: usize) -> [f32; 4] {
    // Mesh::validate checked that there is one colour per vertex.
    let c = m.colors.as_ref().and_then(|c| c.get(v).copied()).unwrap_or([1.0; 4]);
    c.map(|x| if x.is_finite() { x.clamp(0.0, 1.0) } else { 1.0 })
}

/// The frames a still picture is framed on: the whole clip (capped like an animation) plus the
/// frame drawn, or just that frame.
fn still_framing(doc: &dyn Document, anim: Option<usize>, frame: f64, opts: &RenderOptions) -> Vec<f64> {
    let mut out = vec![frame];
    if let (true, Some(info)) = (opts.fit_clip, anim.and_then(|a| doc.animations().get(a))) {
        out.extend(clip_frames(info.frames).0.into_iter().map(f64::from));
    }
    out
}

/// The camera a still picture of `skeleton` at `frame` of `anim` uses (for locating things in
/// the image: `camera(...).project(world_point)` is its pixel).
pub fn camera(
    doc: &dyn Document,
    skeleton: usize,
    anim: Option<usize>,
    frame: f64,
    opts: &RenderOptions,
) -> Result<Camera> {
    Ok(Renderer::new(doc, skeleton, anim, &still_framing(doc, anim, frame, opts), opts)?.camera)
}

/// The box (min, max corners) around `skeleton` posed at `frame` of `anim` (the rest pose when
/// `anim` is None): every joint and every mesh vertex as the pictures draw them, in engine
/// units; `None` for an empty skeleton. (`info`'s standing height: a Zelda skeleton's rest
/// pose has every limb unturned.)
pub fn posed_bounds(
    doc: &dyn Document,
    skeleton: usize,
    anim: Option<usize>,
    frame: f64,
) -> Result<Option<(glam::Vec3, glam::Vec3)>> {
    let scene = scene::Scene::new(doc, skeleton)?;
    let world = scene.world(doc, skeleton, anim, frame)?;
    let mut points = scene::Scene::joints(&world);
    let mut posed = Vec::new();
    for m in &scene.info.meshes {
        scene.pose_mesh(m, &world, &mut posed);
        points.extend_from_slice(&posed);
    }
    Ok(points.into_iter().filter(|p| p.is_finite()).fold(None, |acc, p| match acc {
        None => Some((p, p)),
        Some((lo, hi)) => Some((lo.min(p), hi.max(p))),
    }))
}

/// Render `skeleton` posed at `frame` of `anim` (the rest pose when `anim` is None).
pub fn render(
    doc: &dyn Document,
    skeleton: usize,
    anim: Option<usize>,
    frame: f64,
    opts: &RenderOptions,
) -> Result<Canvas> {
    Renderer::new(doc, skeleton, anim, &still_framing(doc, anim, frame, opts), opts)?.draw(anim, frame)
}

/// A PNG (RGB8) of `skeleton` posed at `frame` of `anim` (the rest pose when `anim` is None).
pub fn png(
    doc: &dyn Document,
    skeleton: usize,
    anim: Option<usize>,
    frame: f64,
    opts: &RenderOptions,
) -> Result<Vec<u8>> {
    encode::png(&render(doc, skeleton, anim, frame, opts)?)
}

/// The frames an animated preview of `anim` shows, the step between them, and the clip's fps.
fn clip_plan(doc: &dyn Document, anim: usize) -> Result<(Vec<u32>, u32, f64)> {
    let n = doc.animations().len();
    let info =
        doc.animations().get(anim).ok_or_else(|| Error::not_found(format!("no animation #{anim} (there are {n})")))?;
    if info.frames == 0 {
        return Err(Error::invalid(0, format!("animation {} has no frames", info.name)));
    }
    if !(info.fps.is_finite() && info.fps > 0.0) {
        return Err(Error::invalid(0, format!("animation {} has no usable frame rate ({})", info.name, info.fps)));
    }
    let (frames, step) = clip_frames(info.frames);
    Ok((frames, step, info.fps))
}

/// Refuse animations that would take too long to render (the check comes before any work).
fn check_budget(opts: &RenderOptions, frames: usize) -> Result<()> {
    let total = u64::from(opts.width) * u64::from(opts.height) * frames as u64;
    if total > MAX_ANIMATION_PIXELS {
        return Err(Error::ceiling(
            0,
            format!(
                "{frames} frames of {}x{} is {total} pixels, over the {MAX_ANIMATION_PIXELS} an animated preview may \
                 render; choose a smaller size",
                opts.width, opts.height
            ),
        ));
    }
    Ok(())
}

/// An animated GIF of every frame of `anim` (see the crate docs for delays and long clips),
/// looping forever.
pub fn gif(doc: &dyn Document, skeleton: usize, anim: usize, opts: &RenderOptions) -> Result<Vec<u8>> {
    let (frames, step, fps) = clip_plan(doc, anim)?;
    // A GIF cannot show a frame for under 2 hundredths of a second: past 50 fps it keeps every
    // other frame (or fewer), each shown as long as the frames it stands for.
    let gif_step = encode::gif_step(fps, step);
    let frames: Vec<u32> = if gif_step == step {
        frames
    } else {
        let total = doc.animations()[anim].frames;
        (0..total).step_by(gif_step as usize).collect()
    };
    check_budget(opts, frames.len())?;
    let framing: Vec<f64> = frames.iter().map(|&f| f64::from(f)).collect();
    let r = Renderer::new(doc, skeleton, Some(anim), &framing, opts)?;
    let delays = encode::gif_delays_centiseconds(fps, gif_step, frames.len());
    encode::gif(opts.width, opts.height, &delays, frames.iter().map(|&f| r.draw(Some(anim), f64::from(f))))
}

/// An animated PNG of every frame of `anim` with exact frame delays `k / fps` (see the crate
/// docs), looping forever.
pub fn apng(doc: &dyn Document, skeleton: usize, anim: usize, opts: &RenderOptions) -> Result<Vec<u8>> {
    let (frames, step, fps) = clip_plan(doc, anim)?;
    check_budget(opts, frames.len())?;
    let framing: Vec<f64> = frames.iter().map(|&f| f64::from(f)).collect();
    let r = Renderer::new(doc, skeleton, Some(anim), &framing, opts)?;
    let delay = apng_delay(fps, step);
    encode::apng(opts.width, opts.height, frames.len(), delay, frames.iter().map(|&f| r.draw(Some(anim), f64::from(f))))
}

/// `x.round() as u8` (halves away from zero, saturating, NaN to 0) without the library call
/// that `round` is on x86-64's baseline. For `x >= 0.5` in the range of u8, `x + 0.5` is
/// exact in f32 (0.5 is a whole number of `x`'s units in the last place) unless it reaches the
/// next power of two, and then it rounds to at most that power plus one half: truncating gives
/// the rounded value either way. Below one half the sum can round up to 1, so it is answered
/// apart.
fn round_to_u8(x: f32) -> u8 {
    if x < 0.5 {
        0
    } else {
        (x + 0.5) as u8
    }
}

/// Whether a textured pixel of alpha `alpha` is drawn: opaque meshes draw every texel (the
/// RDP's opaque render modes ignore the texel's alpha); cut-outs and translucent meshes
/// (drawn without blending here) those of alpha at least one half.
fn cut_out_kept(mode: boneyard_core::model::AlphaMode, alpha: f32) -> bool {
    mode == boneyard_core::model::AlphaMode::Opaque || alpha >= 0.5
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_to_u8_is_rounding_then_converting() {
        // Every value at and near the halves and the ends, then a stride through every f32
        // (the whole range was compared once, all 2^32 of them, with no difference).
        let mut values = vec![f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -0.0, 0.0, f32::MIN_POSITIVE, 255.0, 300.0];
        for k in 0..=256u32 {
            let half = k as f32 + 0.5;
            for v in [half, k as f32] {
                let mut lo = v;
                let mut hi = v;
                for _ in 0..4 {
                    values.extend([lo, hi]);
                    lo = f32::from_bits(lo.to_bits().wrapping_sub(1));
                    hi = f32::from_bits(hi.to_bits() + 1);
                }
            }
        }
        values.extend((0..=u32::MAX).step_by(4_099).map(f32::from_bits));
        for x in values {
            assert_eq!(round_to_u8(x), x.round() as u8, "{x:e} ({:#x})", x.to_bits());
        }
    }
}
