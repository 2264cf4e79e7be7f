//! Our own encoder for MM keyframe fixtures (no MM file is in the shared data): objects laid
//! out as z64keyframe.h describes them, bound to segment 6.
#![allow(dead_code)]

/// A big-endian byte writer with segment-6 pointers.
pub struct Obj(pub Vec<u8>);

impl Obj {
    pub fn at(&mut self, off: usize) -> &mut Self {
        assert!(off >= self.0.len(), "fixture layout overlaps at {off:#x}");
        self.0.resize(off, 0);
        self
    }
    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.0.push(v);
        self
    }
    pub fn s16(&mut self, v: i16) -> &mut Self {
        self.0.extend_from_slice(&v.to_be_bytes());
        self
    }
    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.0.extend_from_slice(&v.to_be_bytes());
        self
    }
    pub fn ptr(&mut self, off: u32) -> &mut Self {
        self.0.extend_from_slice(&(0x0600_0000 | off).to_be_bytes());
        self
    }
    /// `KeyFrame {frame, value, velocity}`.
    pub fn key(&mut self, frame: i16, value: i16, velocity: i16) -> &mut Self {
        self.s16(frame).s16(value).s16(velocity)
    }
}

/// A display list holding only G_ENDDL at 0 (so limbs have valid, empty display lists).
fn start() -> Obj {
    let mut o = Obj(Vec::new());
    o.0.extend_from_slice(&[0xDF, 0, 0, 0, 0, 0, 0, 0]);
    o
}

/// Standard keyframe skeleton (header at 0x34, 3 limbs: 0 with children 1 and 2) and one
/// animation (header at 0x7C, 11 frames):
/// * limb 0: jointPos (0,0,0), dList; limb 1: jointPos (100,0,0), dList; limb 2: (0,50,0), none.
/// * bitFlags [0x21, 0x04, 0x00]: root tx animated, limb 0 rz animated, limb 1 rx animated.
/// * keys: tx (1,0,0)(11,100,0); limb 0 rz (1,0,0)(11,900,0); limb 1 rx (1,-450,0).
/// * fixed: ty 20, tz -5, limb 0 rx 0 ry 0, limb 1 ry 1800 rz 0, limb 2 rx 0 ry 0 rz 3600.
pub fn kf_standard_object() -> Vec<u8> {
    let mut o = start();
    o.at(0x10);
    o.ptr(0).u8(2).u8(0).s16(0).s16(0).s16(0);
    o.ptr(0).u8(0).u8(0).s16(100).s16(0).s16(0);
    o.0.extend_from_slice(&[0, 0, 0, 0]);
    o.u8(0).u8(0).s16(0).s16(50).s16(0);
    o.at(0x34).u8(3).u8(2).s16(0).ptr(0x10);
    o.at(0x40).u8(0x21).u8(0x04).u8(0x00);
    o.at(0x44).key(1, 0, 0).key(11, 100, 0).key(1, 0, 0).key(11, 900, 0).key(1, -450, 0);
    o.at(0x62).s16(2).s16(2).s16(1);
    o.at(0x68);
    for v in [20, -5, 0, 0, 1800, 0, 0, 0, 3600] {
        o.s16(v);
    }
    o.at(0x7C).ptr(0x40).ptr(0x44).ptr(0x62).ptr(0x68).s16(0).s16(11);
    o.at(0x90);
    o.0
}

/// Flex keyframe skeleton (header at 0x20, 2 limbs, 1 the child of 0) and one animation
/// (header at 0x74, 5 frames):
/// * bitFlags [0x102, 0x008]: limb 0 scale x and translation y animated, limb 1 rotation z.
/// * keys: sx (1,100,0)(5,200,0); ty (1,0,0)(5,40,0); limb 1 rz (1,0,0)(5,900,0).
/// * fixed: limb 0 sy 100 sz 100 rx ry rz 0 tx 0 tz 0; limb 1 sx sy sz 100, rx ry 0,
///   tx 30 ty 0 tz 0.
pub fn kf_flex_object() -> Vec<u8> {
    let mut o = start();
    o.at(0x10);
    o.ptr(0).u8(1).u8(0).u8(0xFF).u8(0);
    o.ptr(0).u8(0).u8(0).u8(0xFF).u8(0);
    o.at(0x20).u8(2).u8(2).s16(0).ptr(0x10);
    o.at(0x28).s16(0x102).s16(0x008);
    o.at(0x2C).key(1, 100, 0).key(5, 200, 0).key(1, 0, 0).key(5, 40, 0).key(1, 0, 0).key(5, 900, 0);
    o.at(0x50).s16(2).s16(2).s16(2);
    o.at(0x56);
    for v in [100, 100, 0, 0, 0, 0, 0, 100, 100, 100, 0, 0, 30, 0, 0] {
        o.s16(v);
    }
    o.at(0x74).ptr(0x28).ptr(0x2C).ptr(0x50).ptr(0x56).s16(0).s16(5);
    o.at(0x88);
    o.0
}

/// Curve skeleton (header at 0x30, limb table at 0x28: limb 0 with child 1) and one curve
/// animation (header at 0xB4, 10 frames, unk_0C 1):
/// * knotCounts: limb 0 rotation z 2 knots, position y 2 knots; limb 1 scale x 2 knots.
/// * knots (flags, abscissa, left, right, ordinate): rz (0,0,0,0,0.0)(0,10,0,0,90.0);
///   py (0,0,0,0,0.0)(0,10,0,0,2.5); limb 1 sx (2 = linear,0,0,0,1.0)(0,10,0,0,2.0).
/// * constants: limb 0 sx sy sz 1024, rx ry 0, px pz 0; limb 1 sy sz 1024, rx ry rz 0,
///   px 3000, py pz 0.
pub fn curve_object() -> Vec<u8> {
    let mut o = start();
    o.at(0x10).u8(1).u8(0xFF).s16(0).ptr(0).s16(0).s16(0);
    o.u8(0xFF).u8(0xFF).s16(0).ptr(0).s16(0).s16(0);
    o.at(0x28).ptr(0x10).ptr(0x1C);
    o.at(0x30).ptr(0x28).u8(2).u8(0).s16(0);
    o.at(0x38);
    for c in [0u8, 0, 0, 0, 0, 2, 0, 2, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0] {
        o.u8(c);
    }
    o.at(0x4C);
    for (flags, x, y) in [(0u16, 0i16, 0.0f32), (0, 10, 90.0), (0, 0, 0.0), (0, 10, 2.5), (2, 0, 1.0), (0, 10, 2.0)] {
        o.s16(flags as i16).s16(x).s16(0).s16(0);
        o.0.extend_from_slice(&y.to_bits().to_be_bytes());
    }
    o.at(0x94);
    for v in [1024, 1024, 1024, 0, 0, 0, 0, 1024, 1024, 0, 0, 0, 3000, 0, 0] {
        o.s16(v);
    }
    o.at(0xB4).ptr(0x38).ptr(0x4C).ptr(0x94).s16(1).s16(10);
    o.at(0xC4);
    o.0
}

/// A Skin skeleton (header at 0x10C, limb table at 0x100, limbs at 0xD0/0xE0/0xF0):
/// * limb 0: jointPos (10,20,30), child 1; limb 1: (100,0,0), sibling 2; limb 2: (0,50,0),
///   segmentType 4, `SkinAnimatedLimbData` at 0x20 {totalVtxCount 4, 3 modifications at 0x30,
///   dlist 0x00}.
/// * dlist at 0: G_VTX 4 from 0x08000000 into 0..4, G_TRI2 (0,1,2) (0,2,3), G_ENDDL.
/// * modification 0: vertex 0 (s 32, t 64, normal (0,127,0), alpha 255), one transformation
///   {limb 1, (5,-7,3), scale 100}.
/// * modification 1 (static index 1): vertices 1 (normal (127,0,0), alpha 200) and 3 (s 16,
///   t 16, normal (0,0,127), alpha 100); {limb 0, (1,2,3), 30}, {limb 1, (-4,5,7), 70}.
/// * modification 2 (static index 0): vertex 2 (normal (0,0,-128), alpha 50);
///   {limb 0, (-21,0,0), 50}, {limb 1, (-122,0,0), 50}.
pub fn skin_object() -> Vec<u8> {
    let mut o = Obj(Vec::new());
    for w in [0x0100_4008u32, 0x0800_0000, 0x0600_0204, 0x0000_0406, 0xDF00_0000, 0] {
        o.0.extend_from_slice(&w.to_be_bytes());
    }
    o.at(0x20).s16(4).s16(3).ptr(0x30).ptr(0);
    // SkinLimbModif {vtxCount, transformCount, unk_4, pad, skinVertices, limbTransformations}
    o.at(0x30).s16(1).s16(1).s16(0).s16(0).ptr(0x60).ptr(0x90);
    o.s16(2).s16(2).s16(1).s16(0).ptr(0x6A).ptr(0x9A);
    o.s16(1).s16(2).s16(0).s16(0).ptr(0x7E).ptr(0xAE);
    // SkinVertex {index, s, t, normX, normY, normZ, alpha}
    let vtx = |o: &mut Obj, i: i16, s: i16, t: i16, n: [i8; 3], a: u8| {
        o.s16(i).s16(s).s16(t).u8(n[0] as u8).u8(n[1] as u8).u8(n[2] as u8).u8(a);
    };
    o.at(0x60);
    vtx(&mut o, 0, 32, 64, [0, 127, 0], 255);
    vtx(&mut o, 1, 0, 0, [127, 0, 0], 200);
    vtx(&mut o, 3, 16, 16, [0, 0, 127], 100);
    vtx(&mut o, 2, 0, 0, [0, 0, -128], 50);
    // SkinTransformation {limbIndex, pad, x, y, z, scale, pad}
    let tr = |o: &mut Obj, l: u8, p: [i16; 3], scale: u8| {
        o.u8(l).u8(0).s16(p[0]).s16(p[1]).s16(p[2]).u8(scale).u8(0);
    };
    o.at(0x90);
    tr(&mut o, 1, [5, -7, 3], 100);
    tr(&mut o, 0, [1, 2, 3], 30);
    tr(&mut o, 1, [-4, 5, 7], 70);
    tr(&mut o, 0, [-21, 0, 0], 50);
    tr(&mut o, 1, [-122, 0, 0], 50);
    // SkinLimb {jointPos, child, sibling, segmentType, segment}
    o.at(0xD0).s16(10).s16(20).s16(30).u8(1).u8(0xFF).s16(0).s16(0).s16(0).s16(0);
    o.s16(100).s16(0).s16(0).u8(0xFF).u8(2).s16(0).s16(0).s16(0).s16(0);
    o.s16(0).s16(50).s16(0).u8(0xFF).u8(0xFF).s16(0).s16(4).ptr(0x20);
    o.at(0x100).ptr(0xD0).ptr(0xE0).ptr(0xF0);
    o.ptr(0x100).u8(3).u8(0).s16(0);
    o.at(0x120);
    o.0
}
