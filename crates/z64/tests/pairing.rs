//! Animation files given with the object whose skeleton plays them (`object_zl2_anime1` and
//! `_anime2` with `object_zl2`, as `En_Zl2` loads them): every clip of the animation files plays
//! on Zelda's 14-limb skeleton, said once a file, and its joint table is the one the bytes
//! give, read here by hand from the animation header (frame count, frame data, joint indices,
//! static index max) as `SkelAnime_GetFrameData` reads them.

use boneyard_core::testdata::shared_data;
use boneyard_core::{Document, InputFile};

fn be16(d: &[u8], at: usize) -> u16 {
    u16::from_be_bytes([d[at], d[at + 1]])
}

fn be32(d: &[u8], at: usize) -> usize {
    u32::from_be_bytes([d[at], d[at + 1], d[at + 2], d[at + 3]]) as usize & 0xFF_FFFF
}

/// Joint `j`'s (x, y, z) at `frame` of the normal animation whose header is at `header`.
fn joint_by_hand(d: &[u8], header: usize, j: usize, frame: usize) -> [i16; 3] {
    let (data, indices, static_max) = (be32(d, header + 4), be32(d, header + 8), usize::from(be16(d, header + 12)));
    std::array::from_fn(|c| {
        let i = usize::from(be16(d, indices + 6 * j + 2 * c));
        let at = if i >= static_max { i + frame } else { i };
        be16(d, data + 2 * at) as i16
    })
}

#[test]
fn animation_files_play_on_the_skeleton_given_with_them() {
    let test = "animation_files_play_on_the_skeleton_given_with_them";
    let Some(dir) = shared_data("z64/oot-gc-eu-mq-dbg", test) else { return };
    let names = ["object_zl2", "object_zl2_anime1", "object_zl2_anime2"];
    let files: Vec<InputFile> = names.iter().map(|n| InputFile::read(&dir.join(n)).unwrap()).collect();
    let bytes: Vec<Vec<u8>> = files.iter().map(|f| f.data.to_vec()).collect();
    let doc = boneyard_z64::open_files(files).unwrap();
    let zelda = (&doc as &dyn Document).find_skeleton("gZelda2Skel").unwrap();
    assert_eq!(doc.skeletons()[zelda].skeleton.len(), 14);
    // The game loads these banks with object_zl2 (En_Zl2): the pairing is no guess, so no
    // warning says it (an undocumented pairing is said once a file: below).
    for file in ["object_zl2_anime1", "object_zl2_anime2"] {
        let said: Vec<_> = doc.warnings().iter().filter(|w| w.file.ends_with(file)).collect();
        assert!(said.iter().all(|w| !w.message.contains("animation(s) of this file play on")), "{file}: {said:?}");
    }
    let (mut clips, mut values) = (0, 0);
    for a in doc.animations() {
        let src = a.source.split('@').next().unwrap();
        let Some(f) = names.iter().position(|n| *n == src).filter(|&f| f > 0) else { continue };
        assert_eq!(a.skeleton, Some(zelda), "{}", a.name);
        let header = usize::from_str_radix(a.source.split("@0x").nth(1).unwrap(), 16).unwrap();
        for frame in [0, a.frames as usize / 2, a.frames as usize - 1] {
            let t = doc.joint_table(a.index, frame).unwrap();
            // The root's translation and 14 limbs' rotations.
            assert_eq!(t.joints.len(), 15, "{}", a.name);
            for (j, got) in t.joints.iter().enumerate() {
                assert_eq!(*got, joint_by_hand(&bytes[f], header, j, frame), "{} frame {frame} joint {j}", a.name);
                values += 3;
            }
        }
        // It poses on Zelda's skeleton.
        Document::pose(&doc, zelda, Some(a.index), 0.0).unwrap();
        clips += 1;
    }
    assert_eq!(clips, 62);
    println!("zl2 animation files: {clips}/62 clips on gZelda2Skel, {values} joint values as the bytes give them");
}

/// A skeleton the clips' joint count fits exactly is chosen over one it fits only with the
/// joint table's padding: object_os_anime's 16-joint clips with object_ahg (15 limbs) and
/// object_zl2 (14) play on object_ahg's.
#[test]
fn an_exact_fit_is_chosen_before_a_padded_one() {
    let test = "an_exact_fit_is_chosen_before_a_padded_one";
    let Some(dir) = shared_data("z64/oot-gc-eu-mq-dbg", test) else { return };
    let open = |names: &[&str]| {
        boneyard_z64::open_files(names.iter().map(|n| InputFile::read(&dir.join(n)).unwrap()).collect()).unwrap()
    };
    let doc = open(&["object_os_anime", "object_ahg", "object_zl2"]);
    let ahg = (&doc as &dyn Document).find_skeleton("gHylianMan1Skel").unwrap();
    let clips: Vec<_> = doc.animations().iter().filter(|a| a.source.starts_with("object_os_anime@")).collect();
    assert_eq!(clips.len(), 65);
    assert!(
        clips.iter().all(|a| a.skeleton == Some(ahg)),
        "{:?}",
        clips.iter().map(|a| a.skeleton).collect::<Vec<_>>()
    );
    // En_Hy plays them on object_ahg's skeleton: no guess to say.
    assert!(!doc.warnings().iter().any(|w| w.message.contains("animation(s) of this file play on")));
    // With an object the game does not play them on (object_zl2's 14 limbs fit with the
    // table's padding), the pairing is said.
    let doc = open(&["object_os_anime", "object_zl2"]);
    let said: Vec<_> =
        doc.warnings().iter().filter(|w| w.message.contains("animation(s) of this file play on")).collect();
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].message.starts_with("65 animation(s) of this file play on skeleton gZelda2Skel of object_zl2"));
}

/// A file with several skeletons of one limb count (gameplay_keep's arrow and door, the cow's
/// body and tail, the Moblins' spear and club): a clip that fits them all plays on the one
/// whose decomp name shares the most with its own (the door's opening on the door, not on the
/// arrow, the file's first of four limbs), and the guess is said once for each such set,
/// naming the skeletons and where the clips went.
#[test]
fn clips_that_fit_several_skeletons_go_to_the_one_their_name_says() {
    let test = "clips_that_fit_several_skeletons_go_to_the_one_their_name_says";
    let Some(dir) = shared_data("z64/oot-gc-eu-mq-dbg", test) else { return };
    let cases = [
        ("gameplay_keep", "gDoorChildOpeningLeftAnim", "gDoorSkel"),
        ("gameplay_keep", "gDoorAdultOpeningRightAnim", "gDoorSkel"),
        ("gameplay_keep", "gArrow1_Anim", "gArrowSkel"),
        ("object_cow", "gCowTailSwishAnim", "gCowTailSkel"),
        ("object_cow", "gCowBodyChewAnim", "gCowBodySkel"),
        ("object_mb", "gEnMbClubStrikeDownAnim", "gEnMbClubSkel"),
        ("object_mb", "gEnMbSpearChargeAnim", "gEnMbSpearSkel"),
        // No name says more: the file's first of that size (and written with the other).
        ("object_wf", "gWolfosRunningAnim", "gWolfosWhiteSkel"),
        ("object_wf", "gWolfosWaitingAnim", "gWolfosWhiteSkel"),
        ("object_rd", "gGibdoRedeadWalkAnim", "gGibdoSkel"),
    ];
    for (file, clip, skeleton) in cases {
        let doc = boneyard_z64::open_files(vec![InputFile::read(&dir.join(file)).unwrap()]).unwrap();
        let a = doc.animations().iter().find(|a| a.name == clip).unwrap_or_else(|| panic!("{file}: {clip}"));
        let on = &doc.skeletons()[a.skeleton.expect("a skeleton")];
        assert_eq!(on.name, skeleton, "{file}: {clip}");
        let said = doc.warnings().iter().filter(|w| w.message.contains("limbs each, and")).count();
        assert_eq!(said, 1, "{file}: {:?}", doc.warnings());
        // Written with the others only where no name says which: the Wolfos' and the Gibdo's
        // and Redead's (whose clips name both), not the door's, the cow's or the Moblin's.
        let also: Vec<&str> = doc.also_plays_on(a.index).iter().map(|&s| doc.skeletons()[s].name.as_str()).collect();
        let want: &[&str] = match file {
            "object_wf" => &["gWolfosNormalSkel"],
            "object_rd" => &["gRedeadSkel"],
            _ => &[],
        };
        assert_eq!(also, want, "{file}: {clip}");
        assert!(also
            .iter()
            .all(|name| doc.plays_on(a.index, doc.skeletons().iter().position(|s| s.name == *name).unwrap())));
    }
}

/// The whole folder given at once (as `boneyard list baserom/objects/*` does): Link's 573
/// animations play on Link's own skeleton, not on the first 21-limb skeleton of the folder
/// (the Gerudo's, `object_gla`, comes first by name), and the others that fit are named.
#[test]
fn link_clips_play_on_links_skeleton_in_a_whole_folder() {
    let test = "link_clips_play_on_links_skeleton_in_a_whole_folder";
    let Some(dir) = shared_data("z64/oot-gc-eu-mq-dbg", test) else { return };
    let mut paths: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    let files: Vec<InputFile> = paths.iter().map(|p| InputFile::read(p).unwrap()).collect();
    let doc = boneyard_z64::open_files(files).unwrap();
    let link: Vec<_> = doc.animations().iter().filter(|a| doc.animation_extra(a.index)["kind"] == "link").collect();
    assert_eq!(link.len(), 573);
    let on: std::collections::BTreeSet<_> =
        link.iter().map(|a| a.skeleton.map(|s| doc.skeletons()[s].name.clone())).collect();
    assert_eq!(on.into_iter().collect::<Vec<_>>(), [Some("gLinkAdultSkel".to_string())]);
    let said =
        doc.warnings().iter().find(|w| w.message.starts_with("Link's animations play on gLinkAdultSkel")).unwrap();
    assert!(
        said.message.contains("gGerudoPurpleSkel (object_gla)") && said.message.contains("gLinkChildSkel"),
        "{said}"
    );
    println!("z64 pairing: {} files at once, Link's {} clips on gLinkAdultSkel", paths.len(), link.len());
}

/// A clip plays on any skeleton of its kind and limb count, as the game draws one joint table
/// on the Gibdo and the Redead (En_Rd), or on both Wolfos (En_Wf): `sample_locals_on` gives,
/// through forward kinematics, the world matrices `pose` computes with the game's own walk on
/// that skeleton, at every frame of every shared clip; clips of other sizes do not play there.
#[test]
fn shared_clips_play_on_every_skeleton_of_their_size() {
    let test = "shared_clips_play_on_every_skeleton_of_their_size";
    let Some(dir) = shared_data("z64/oot-gc-eu-mq-dbg", test) else { return };
    let mut frames = 0;
    for (file, other) in [("object_rd", "gRedeadSkel"), ("object_wf", "gWolfosNormalSkel")] {
        let doc = boneyard_z64::open_files(vec![InputFile::read(&dir.join(file)).unwrap()]).unwrap();
        let s = doc.skeletons().iter().position(|k| k.name == other).unwrap();
        let shared: Vec<usize> =
            (0..doc.animations().len()).filter(|&a| doc.animations()[a].skeleton != Some(s)).collect();
        assert!(!shared.is_empty(), "{file}");
        let mut locals = Vec::new();
        for &a in &shared {
            assert!(doc.plays_on(a, s), "{file}: {}", doc.animations()[a].name);
            for f in 0..doc.animations()[a].frames {
                doc.sample_locals_on(a, s, f64::from(f), &mut locals).unwrap();
                let fk = boneyard_core::fk::world_matrices(&doc.skeletons()[s].skeleton, &locals);
                let game = doc.pose(s, Some(a), f64::from(f)).unwrap();
                // Within f32 rounding: the generic walk composes decomposed transforms, the game
                // its matrices (5e-5 of the model's reach: the clips on their own skeleton, the
                // Gibdo's, differ from `pose` as much, 0.06 units at most in 3,400).
                let reach = game.iter().map(|g| g.w_axis.truncate().abs().max_element()).fold(1.0f32, f32::max);
                for (m, g) in fk.iter().zip(&game) {
                    let axes = (0..3).all(|c| m.col(c).abs_diff_eq(g.col(c), 1e-4));
                    let at = m.w_axis.abs_diff_eq(g.w_axis, 5e-5 * reach);
                    assert!(axes && at, "{file} {} frame {f}: {m} vs {g}", doc.animations()[a].name);
                }
                frames += 1;
            }
        }
        // Its own clips play on it too; a clip of another skeleton size does not.
        let a0 = shared[0];
        assert!(doc.plays_on(a0, doc.animations()[a0].skeleton.unwrap()));
    }
    let doc = boneyard_z64::open_files(vec![InputFile::read(&dir.join("object_dekunuts")).unwrap()]).unwrap();
    let rd = boneyard_z64::open_files(vec![InputFile::read(&dir.join("object_rd")).unwrap()]).unwrap();
    assert!(doc.plays_on(0, doc.animations()[0].skeleton.unwrap()));
    assert!(rd.skeletons().len() == 2 && !doc.plays_on(0, 5) && !rd.plays_on(0, 7));
    println!("z64 shared clips: {frames} frames on the Redead and the other Wolfos, as pose walks them");
}
