//! Where the decomp's asset XML places an element it gives no absolute offset: elements
//! without `Offset` follow the one before, `Offset=".+0xN"` is N bytes past its end. So the
//! offset is known only while every element before it, back to one placed absolutely, has a
//! size this reading knows (the game's struct sizes: `StandardLimb` 0xC, `AnimationHeader`
//! 0x10, a texture's texels, a `DList`'s `Length` commands, ...). A `<Version>` block's edge
//! ends the chain: what follows sits at different offsets in different builds.
//!
//! Shared by the asset table's generator (`names.rs`) and the corpus test, which both read
//! the XML; the reader still checks every entry against the bytes.
#![allow(dead_code)]

/// The chain of placed elements through one `<File>` of an XML text.
#[derive(Debug, Default)]
pub struct Placer {
    /// Where the last element ended, when every size back to an absolute offset is known.
    end: Option<u32>,
}

impl Placer {
    /// A `<File>` starts: its first element, if placed by nothing, is at 0.
    pub fn file(&mut self) {
        self.end = Some(0);
    }

    /// The offset of element `line` (tag `tag`; `next` the line after it, which names an
    /// `<Array>`'s element type), and the chain moved past it. None: not placed.
    pub fn place(&mut self, tag: &str, line: &str, next: &str) -> Option<u32> {
        let at = match attr(line, "Offset") {
            Some(o) => match o.strip_prefix("0x") {
                Some(h) => u32::from_str_radix(h, 16).ok(),
                None => o.strip_prefix(".+0x").and_then(|h| {
                    let pad = u32::from_str_radix(h, 16).ok()?;
                    self.end?.checked_add(pad)
                }),
            },
            None => self.end,
        };
        self.end = at.zip(size(tag, line, next)).and_then(|(a, s)| a.checked_add(s));
        at
    }
}

/// The bytes element `line` spans, where the XML says enough to know it.
fn size(tag: &str, line: &str, next: &str) -> Option<u32> {
    let num = |k: &str| attr(line, k).and_then(|v| v.parse::<u32>().ok());
    match tag {
        "Texture" => {
            let bits = match attr(line, "Format")? {
                "rgba32" => 32,
                "rgba16" | "ia16" => 16,
                "ia8" | "i8" | "ci8" => 8,
                "ia4" | "i4" | "ci4" => 4,
                _ => return None,
            };
            Some(num("Width")? * num("Height")? * bits / 8)
        }
        "DList" => Some(num("Length")? * 8),
        "Limb" => match attr(line, "LimbType")? {
            // StandardLimb; LodLimb and SkinLimb (a second word); LegacyLimb.
            "Standard" => Some(0xC),
            "LOD" | "Skin" => Some(0x10),
            "Legacy" => Some(0x20),
            _ => None,
        },
        "Skeleton" => match attr(line, "Type")? {
            "Normal" => Some(8),
            "Flex" => Some(0xC),
            _ => None,
        },
        "LimbTable" => Some(num("Count")? * 4),
        "Animation" => Some(0x10),
        "PlayerAnimation" => Some(8),
        "Collision" => Some(0x2C),
        "Mtx" => Some(0x40),
        "Blob" => attr(line, "Size")?.strip_prefix("0x").and_then(|h| u32::from_str_radix(h, 16).ok()),
        // Link's frames: 22 joints of three s16 and the face word, a frame.
        "PlayerAnimationData" => Some(num("FrameCount")? * (22 * 3 + 1) * 2),
        "Array" => {
            let child = next.trim();
            let per = match child.trim_start_matches('<').split([' ', '/', '>']).next()? {
                "Vtx" => 16,
                "Vector" => {
                    let each = match attr(child, "Type")? {
                        "s8" | "u8" => 1,
                        "s16" | "u16" => 2,
                        "s32" | "u32" | "f32" => 4,
                        _ => return None,
                    };
                    each * attr(child, "Dimensions")?.parse::<u32>().ok()?
                }
                _ => return None,
            };
            Some(num("Count")? * per)
        }
        _ => None,
    }
}

/// Whether `line` opens an element of a `<File>` (not the file, a version block, an array's
/// element type or a closing tag), and its tag.
pub fn element(line: &str) -> Option<&str> {
    let tag = line.trim().strip_prefix('<')?.split([' ', '/', '>']).next()?;
    let first = tag.chars().next()?;
    (first.is_ascii_alphabetic() && !matches!(tag, "File" | "Version" | "Root" | "ExternalFile" | "Vtx" | "Vector"))
        .then_some(tag)
}

/// Attribute `key` of the tag on `line`.
fn attr<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let pat = format!(" {key}=\"");
    let start = line.find(&pat)? + pat.len();
    let end = line[start..].find('"')? + start;
    Some(&line[start..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chain_through_known_sizes() {
        let mut p = Placer::default();
        p.file();
        // gameplay_keep's door: limbs in a row, the skeleton 0x10 past the last.
        assert_eq!(p.place("Limb", r#"<Limb Name="a" LimbType="Standard" Offset="0x100"/>"#, ""), Some(0x100));
        assert_eq!(p.place("Limb", r#"<Limb Name="b" LimbType="Standard"/>"#, ""), Some(0x10C));
        assert_eq!(p.place("Skeleton", r#"<Skeleton Name="s" Type="Normal" Offset=".+0x10"/>"#, ""), Some(0x128));
        assert_eq!(p.place("Animation", r#"<Animation Name="x"/>"#, ""), Some(0x130));
        // A size this reading does not know ends the chain until an absolute offset.
        assert_eq!(p.place("DList", r#"<DList Name="d"/>"#, ""), Some(0x140));
        assert_eq!(p.place("Animation", r#"<Animation Name="y" Offset=".+0x8"/>"#, ""), None);
        assert_eq!(p.place("Array", r#"<Array Name="v" Count="2" Offset="0x200">"#, "<Vtx/>"), Some(0x200));
        assert_eq!(p.place("Texture", r#"<Texture Name="t" Format="ci4" Width="16" Height="16"/>"#, ""), Some(0x220));
        assert_eq!(p.place("Animation", r#"<Animation Name="z"/>"#, ""), Some(0x2A0));
    }
}
