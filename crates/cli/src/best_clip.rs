//! The clip a skeleton is best seen in: what the viewer opens on, what a picture without
//! `--anim` shows and what `info`'s standing height is measured in (rest poses are no pose
//! the games show: a Zelda skeleton's has every limb unturned).

use boneyard_core::glam::Mat4;
use boneyard_core::Document;

/// A name that looks like an error or placeholder clip rather than a motion ("ERROR", "dummy",
/// "null", "none", "unused", "blank", "empty", "placeholder", "test", or no name at all).
pub fn placeholder_name(name: &str) -> bool {
    let n = name.trim().to_ascii_lowercase();
    n.is_empty()
        || ["error", "dummy", "null", "none", "unused", "blank", "empty", "placeholder", "test", "nothing"]
            .iter()
            .any(|w| n.contains(w))
}

/// Whether clip `anim` moves anything on `skeleton`: some joint's world position differs
/// between frames 0, a third, two thirds and the last by more than 1e-4 of the figure's size.
pub fn clip_moves(doc: &dyn Document, skeleton: usize, anim: usize) -> bool {
    let frames = doc.animations()[anim].frames;
    if frames < 2 {
        return false;
    }
    let last = (frames - 1) as f64;
    let poses: Vec<Vec<Mat4>> = [0.0, (last / 3.0).floor(), (2.0 * last / 3.0).floor(), last]
        .iter()
        .filter_map(|&f| doc.pose(skeleton, Some(anim), f).ok())
        .collect();
    let Some(first) = poses.first() else { return false };
    let size = first.iter().map(|m| m.w_axis.truncate().abs().max_element()).fold(1e-6_f32, f32::max);
    poses[1..].iter().any(|p| p.iter().zip(first).any(|(a, b)| (a.w_axis - b.w_axis).abs().max_element() > 1e-4 * size))
}

/// The clip a still of `skeleton` shows without `--anim` (a png, `info`'s standing height):
/// [`moving_clip`] within 16 tries, else the first of `clips` (the skeleton's own), else none
/// (its rest pose).
pub fn shown_clip(doc: &dyn Document, skeleton: usize, clips: &[usize]) -> Option<usize> {
    moving_clip(doc, skeleton, &mut 16).or(clips.first().copied())
}

/// The clip skeleton `skeleton` is best seen in: its plainest walk that moves (the shortest
/// name with "walk": Link's `gPlayerAnim_link_normal_walk`, not `..._anchor_back_walk`;
/// `fixture_walk19`, not `fixture_walk19_overlay`), else its first clip that does not look
/// like a placeholder and moves. `budget` bounds the clips tried (each costs four poses) and
/// is spent by them; `None` when none qualifies within it.
pub fn moving_clip(doc: &dyn Document, skeleton: usize, budget: &mut usize) -> Option<usize> {
    let anims = doc.animations();
    let own: Vec<usize> = (0..anims.len())
        .filter(|&a| doc.skeleton_for(a) == Some(skeleton) && !placeholder_name(&anims[a].name))
        .collect();
    let mut walks: Vec<usize> =
        own.iter().copied().filter(|&a| anims[a].name.to_ascii_lowercase().contains("walk")).collect();
    walks.sort_by_key(|&a| (anims[a].name.len(), a));
    for &a in walks.iter().take(16) {
        if clip_moves(doc, skeleton, a) {
            return Some(a);
        }
    }
    for a in own {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        if clip_moves(doc, skeleton, a) {
            return Some(a);
        }
    }
    None
}
