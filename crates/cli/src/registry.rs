//! The game families boneyard reads. Adding a family: one crate, one line here.

use boneyard_core::Family;

pub static FAMILIES: &[&dyn Family] = &[&boneyard_oni::Oni, &boneyard_z64::Z64, &boneyard_shenmue::Shenmue];
