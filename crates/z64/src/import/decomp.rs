//! The decomp-side files of an import: C as the zeldaret/oot decompilation writes animation
//! assets (`s16 ...FrameData[]`, `JointIndex ...JointIndices[]`, `AnimationHeader ... = {
//! { frames }, frameData, jointIndices, staticIndexMax };`, `LinkAnimationHeader ... = {
//! { frames }, data };`), and the asset XML entries in ZAPD's format (`<Animation>`,
//! `<PlayerAnimation>`, `<PlayerAnimationData FrameCount=...>`) with the offsets of the written
//! files.

use super::Placed;
use std::fmt::Write;

/// A C identifier for a clip name: characters other than letters, digits and `_` become `_`;
/// a leading digit (or an empty name) gets a `g` in front, as the decomp's globals have.
pub fn c_symbol(name: &str) -> String {
    let s: String = name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    if s.chars().next().is_none_or(|c| c.is_ascii_digit()) {
        format!("g{s}")
    } else {
        s
    }
}

/// `values` as the decomp lays out s16 arrays: hex, 14 to a line, indented 4.
fn s16_rows(out: &mut String, values: impl Iterator<Item = i16>, per_line: usize) {
    let v: Vec<i16> = values.collect();
    for chunk in v.chunks(per_line) {
        out.push_str("    ");
        for x in chunk {
            let _ = write!(out, "0x{:04X}, ", *x as u16);
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
}

/// The C and the XML of normal animations appended to `stem` (bound to `segment`).
pub fn normal_files(stem: &str, segment: u8, placed: &[Placed]) -> (String, String) {
    let mut c = String::new();
    let _ = writeln!(c, "// Written by boneyard import: animations appended to {stem} (offsets in its written copy).");
    c.push_str("#include \"ultra64.h\"\n#include \"z64animation.h\"\n");
    let mut xml = String::new();
    xml.push_str("<Root>\n");
    let _ = writeln!(
        xml,
        "    <!-- boneyard import: entries for assets/xml/objects/{stem}.xml, offsets in the written {stem} -->"
    );
    let _ = writeln!(xml, "    <File Name=\"{stem}\" Segment=\"{segment}\">");
    for p in placed {
        let Some(nd) = &p.normal else { continue };
        let sym = &p.enc.symbol;
        let _ = writeln!(c, "\n// {}: {} frames at 20 fps, header at 0x{:X}", p.enc.name, p.enc.joints.len(), p.header);
        let _ = writeln!(c, "s16 {sym}FrameData[] = {{");
        s16_rows(&mut c, nd.frame_data.iter().copied(), 14);
        c.push_str("};\n\n");
        let _ = writeln!(c, "JointIndex {sym}JointIndices[] = {{");
        for j in &nd.joint_indices {
            let _ = writeln!(c, "    {{ 0x{:04X}, 0x{:04X}, 0x{:04X} }},", j[0], j[1], j[2]);
        }
        c.push_str("};\n\n");
        let _ = writeln!(
            c,
            "AnimationHeader {sym} = {{\n    {{ {} }}, {sym}FrameData,\n    {sym}JointIndices, {}\n}};",
            p.enc.joints.len(),
            nd.static_max
        );
        let _ = writeln!(xml, "        <Animation Name=\"{sym}\" Offset=\"0x{:X}\"/>", p.header);
    }
    xml.push_str("    </File>\n</Root>\n");
    (c, xml)
}

/// The C and the XML of Link's animations: headers appended to gameplay_keep, frames to
/// link_animetion.
pub fn link_files(placed: &[Placed]) -> (String, String) {
    let mut c = String::new();
    c.push_str("// Written by boneyard import: Link's animations. Headers appended to gameplay_keep, frames\n");
    c.push_str("// (22 Vec3s and the face word, 134 bytes a frame) appended to link_animetion.\n");
    c.push_str("#include \"ultra64.h\"\n#include \"z64animation.h\"\n");
    let mut gk = String::new();
    let mut la = String::new();
    for p in placed {
        let sym = &p.enc.symbol;
        let frames = p.enc.joints.len();
        let _ = writeln!(
            c,
            "\n// {}: {frames} frames at 30 fps; data at 0x{:X} in link_animetion, header at 0x{:X} in gameplay_keep",
            p.enc.name, p.frame_data, p.header
        );
        let _ = writeln!(c, "s16 {sym}_Data[] = {{");
        for (f, t) in p.enc.joints.iter().enumerate() {
            let face = p.enc.faces.as_ref().map_or(0, |v| v[f]) as i16;
            let _ = writeln!(c, "    // frame {f}");
            s16_rows(&mut c, t.iter().flatten().copied().chain(std::iter::once(face)), 12);
        }
        c.push_str("};\n\n");
        let _ = writeln!(c, "LinkAnimationHeader {sym} = {{\n    {{ {frames} }}, {sym}_Data\n}};");
        let _ = writeln!(gk, "        <PlayerAnimation Name=\"{sym}\" Offset=\"0x{:X}\"/>", p.header);
        let _ = writeln!(
            la,
            "        <PlayerAnimationData Name=\"{sym}_Data\" FrameCount=\"{frames}\" Offset=\"0x{:X}\"/>",
            p.frame_data
        );
    }
    let mut xml = String::from("<Root>\n");
    xml.push_str("    <!-- boneyard import: entries for assets/xml/objects/gameplay_keep.xml and assets/xml/misc/link_animetion.xml -->\n");
    xml.push_str("    <File Name=\"gameplay_keep\" Segment=\"4\">\n");
    xml.push_str(&gk);
    xml.push_str("    </File>\n    <File Name=\"link_animetion\" Segment=\"7\">\n");
    xml.push_str(&la);
    xml.push_str("    </File>\n</Root>\n");
    (c, xml)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::{normal_data, Encoded, StaticOrder};

    #[test]
    fn symbols_and_normal_c_by_hand() {
        assert_eq!(c_symbol("gDekuNutsRunAnim"), "gDekuNutsRunAnim");
        assert_eq!(c_symbol("walk cycle.2"), "walk_cycle_2");
        assert_eq!(c_symbol("2hop"), "g2hop");
        let joints = vec![vec![[0, 700, 5], [0, 0x4000, -1]], vec![[0, 700, 6], [0, 0x4000, -1]]];
        let nd = normal_data("t", &joints, StaticOrder::default()).unwrap();
        let enc = Encoded {
            name: "t".into(),
            symbol: "gTAnim".into(),
            joints,
            faces: None,
            max_rotation_error: 0.0,
            original: None,
        };
        let p = Placed { enc, header: 0x3670, frame_data: 0x3660, joint_indices: Some(0x366C), normal: Some(nd) };
        let (c, xml) = normal_files("object_x", 6, &[p]);
        assert!(
            c.contains("s16 gTAnimFrameData[] = {\n    0x0000, 0x02BC, 0x0005, 0x4000, 0xFFFF, 0x0005, 0x0006,\n};"),
            "{c}"
        );
        assert!(c.contains("JointIndex gTAnimJointIndices[] = {\n    { 0x0000, 0x0001, 0x0005 },\n    { 0x0000, 0x0003, 0x0004 },\n};"), "{c}");
        assert!(
            c.contains("AnimationHeader gTAnim = {\n    { 2 }, gTAnimFrameData,\n    gTAnimJointIndices, 5\n};"),
            "{c}"
        );
        assert!(
            xml.contains(
                "<File Name=\"object_x\" Segment=\"6\">\n        <Animation Name=\"gTAnim\" Offset=\"0x3670\"/>"
            ),
            "{xml}"
        );
    }
}
