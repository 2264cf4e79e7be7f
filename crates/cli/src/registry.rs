//! The game families boneyard reads. Adding a family: one crate, one line here.

use boneyard_core::Family;

pub static FAMILIES: &[&dyn Family] = &[];
