//! Documents full of garbage (NaN and huge transforms, stray weights, odd colours, clips with
//! no frames or no frame rate) must give a picture or an error, never a panic or a hang.

use boneyard_core::document::{AnimInfo, Document, Interpolation, SkeletonInfo};
use boneyard_core::memory::{BakedClip, BakedDocument};
use boneyard_core::{Bone, Mesh, MeshBinding, Skeleton, Transform};
use boneyard_preview::{apng, gif, png, RenderOptions};
use glam::{Quat, Vec3};

/// xorshift64*: a fixed sequence, so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    /// Mostly ordinary numbers, sometimes NaN, infinities, huge or tiny values.
    fn float(&mut self) -> f32 {
        match self.below(12) {
            0 => f32::NAN,
            1 => f32::INFINITY,
            2 => -1e30,
            3 => 1e-30,
            4 => 0.0,
            _ => (self.below(2001) as f32 - 1000.0) / 10.0,
        }
    }
    fn vec3(&mut self) -> Vec3 {
        Vec3::new(self.float(), self.float(), self.float())
    }
}

fn garbage_document(rng: &mut Rng) -> BakedDocument {
    let bones = 1 + rng.below(6) as usize;
    let skel_bones = (0..bones)
        .map(|i| Bone {
            name: format!("b{i}"),
            parent: if i == 0 { None } else { Some(rng.below(i as u64) as usize) },
            rest: Transform {
                translation: rng.vec3(),
                rotation: Quat::from_xyzw(rng.float(), rng.float(), rng.float(), rng.float()),
                scale: rng.vec3(),
            },
        })
        .collect();
    let skeleton = Skeleton::new("garbage", skel_bones).unwrap();
    let mut meshes = Vec::new();
    for m in 0..rng.below(3) {
        let n = 3 + rng.below(8) as usize;
        let positions: Vec<Vec3> = (0..n).map(|_| rng.vec3()).collect();
        let indices: Vec<u32> = (0..3 * rng.below(6)).map(|_| rng.below(n as u64) as u32).collect();
        let binding = if rng.below(2) == 0 {
            MeshBinding::Rigid { bone: rng.below(bones as u64) as usize }
        } else {
            MeshBinding::Skinned {
                joints: (0..n).map(|_| [0; 4].map(|_: u16| rng.below(bones as u64) as u16)).collect(),
                weights: (0..n).map(|_| [0; 4].map(|_: u8| rng.float())).collect(),
            }
        };
        let mut mesh = Mesh::rigid(format!("m{m}"), 0, positions, indices);
        mesh.binding = binding;
        mesh.base_color = [rng.float(), rng.float(), rng.float(), rng.float()];
        meshes.push(mesh);
    }
    let frames = rng.below(4) as usize;
    let clip = BakedClip {
        info: AnimInfo {
            index: 0,
            name: "garbage".into(),
            frames: frames as u32,
            fps: [30.0, 0.0, f64::NAN, 1e-9, 1e9][rng.below(5) as usize],
            bones,
            format: "test".into(),
            source: String::new(),
            skeleton: Some(0),
            interpolation: Interpolation::Step,
            extra: Default::default(),
        },
        frames: (0..frames)
            .map(|_| {
                (0..bones)
                    .map(|_| Transform {
                        translation: rng.vec3(),
                        rotation: Quat::from_xyzw(rng.float(), rng.float(), rng.float(), rng.float()),
                        scale: rng.vec3(),
                    })
                    .collect()
            })
            .collect(),
        root_motion: None,
    };
    let info = SkeletonInfo {
        id: "g".into(),
        name: "garbage".into(),
        source: String::new(),
        skeleton,
        meshes,
        extra: Default::default(),
    };
    BakedDocument::new("test", vec![], vec![info], vec![clip])
}

#[test]
fn garbage_never_panics() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let o = RenderOptions { width: 24, height: 16, draw_bones: true, ..Default::default() };
    let mut pictures = 0;
    for _ in 0..300 {
        let d = garbage_document(&mut rng);
        let frame = rng.float() as f64;
        if let Ok(bytes) = png(&d, 0, Some(0), frame, &o) {
            assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
            pictures += 1;
        }
        let _ = png(&d, 0, None, 0.0, &o);
        let _ = gif(&d, 0, 0, &o);
        let _ = apng(&d, 0, 0, &o);
    }
    // Most garbage still makes a picture (of something); errors are for clips without frames.
    assert!(pictures > 100, "{pictures}");
}

/// A clip that claims u32::MAX frames (two stored) at odd frame rates, and one on a skeleton
/// with no meshes: previews sample at most MAX_ANIMATION_FRAMES frames, and answer a file or
/// an error, never a panic or an hours-long render.
#[test]
fn huge_frame_counts_and_odd_rates_are_bounded() {
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    let o = RenderOptions { width: 8, height: 8, ..Default::default() };
    let start = std::time::Instant::now();
    for fps in [30.0, 0.0, -1.0, f64::NAN, f64::INFINITY, 1e-300, 1e300] {
        // The document lists what `new` was given: change the parts, then build it again.
        let g = garbage_document(&mut rng);
        let (mut skeletons, mut clips) = (g.skeletons, g.clips);
        clips[0].info.frames = u32::MAX;
        clips[0].info.fps = fps;
        skeletons[0].meshes.clear();
        let d = BakedDocument::new("test", vec![], skeletons, clips);
        assert_eq!(d.animations()[0].frames, u32::MAX);
        for frame in [f64::NAN, f64::INFINITY, -1.0, 1e300, 4294967295.0] {
            let _ = png(&d, 0, Some(0), frame, &o);
        }
        let g = gif(&d, 0, 0, &o);
        let a = apng(&d, 0, 0, &o);
        if !(fps.is_finite() && fps > 0.0) {
            assert!(g.is_err() && a.is_err(), "fps {fps}");
        }
    }
    // Not an assertion (no timed tests): the figure, for whoever reads the log.
    eprintln!("took {:?}", start.elapsed());
}
