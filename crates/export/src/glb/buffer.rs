//! The binary chunk and the buffer views / accessors pointing into it.

use gltf_json as json;
use json::accessor::{ComponentType, GenericComponentType, Type};
use json::buffer::Target;
use json::validation::{Checked::Valid, USize64};

use boneyard_core::error::ErrorKind;
use boneyard_core::{Error, Result};

/// A GLB holds at most 4 GiB; stay well below so every offset fits the format's u32 fields.
pub(crate) const MAX_BIN_BYTES: usize = 0xF000_0000;

/// An image by its pixels (width, height, RGBA): the key under which the glb and the OBJ's
/// material files share one image among meshes that draw the same texels.
pub(crate) type Pixels = (u32, u32, std::sync::Arc<[u8]>);

pub(crate) struct Builder {
    pub root: json::Root,
    pub bin: Vec<u8>,
    /// Images already embedded, by their pixels (width, height, RGBA): meshes that draw the
    /// same texels share one image (the 207 OoT objects' glbs held 1,354 copies in 2,237).
    pub images: std::collections::HashMap<Pixels, json::Index<json::Image>>,
    /// Samplers already written, by filters and wraps (as glTF numbers them).
    pub samplers: std::collections::HashMap<[u32; 4], json::Index<json::texture::Sampler>>,
}

/// What an accessor reads: its element type, and `min`/`max` when the format requires them
/// (POSITION and animation inputs).
pub(crate) struct AccessorDesc {
    pub component: ComponentType,
    pub ty: Type,
    pub count: usize,
    pub byte_offset: usize,
    pub min_max: Option<(Vec<f32>, Vec<f32>)>,
}

pub(crate) fn f32_bytes(v: &[f32]) -> &[u8] {
    bytemuck::cast_slice(v)
}

impl Builder {
    pub fn new() -> Self {
        Builder {
            root: json::Root::default(),
            bin: Vec::new(),
            images: Default::default(),
            samplers: Default::default(),
        }
    }

    /// Append `bytes` (4-byte aligned) as a new buffer view.
    pub fn view(&mut self, bytes: &[u8], target: Option<Target>) -> Result<json::Index<json::buffer::View>> {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        if self.bin.len().saturating_add(bytes.len()) > MAX_BIN_BYTES {
            return Err(Error::new(ErrorKind::Ceiling("the exported glTF would exceed 3.75 GiB".into())));
        }
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        Ok(self.root.push(json::buffer::View {
            buffer: json::Index::new(0),
            byte_length: USize64::from(bytes.len()),
            byte_offset: Some(USize64::from(offset)),
            byte_stride: None,
            extensions: None,
            extras: Default::default(),
            name: None,
            target: target.map(Valid),
        }))
    }

    pub fn accessor(&mut self, view: json::Index<json::buffer::View>, d: AccessorDesc) -> json::Index<json::Accessor> {
        self.root.push(json::Accessor {
            buffer_view: Some(view),
            byte_offset: if d.byte_offset == 0 { None } else { Some(USize64::from(d.byte_offset)) },
            count: USize64::from(d.count),
            component_type: Valid(GenericComponentType(d.component)),
            extensions: None,
            extras: Default::default(),
            type_: Valid(d.ty),
            min: d.min_max.as_ref().map(|m| json::Value::from(m.0.clone())),
            max: d.min_max.map(|m| json::Value::from(m.1)),
            name: None,
            normalized: false,
            sparse: None,
        })
    }

    /// A view holding exactly one accessor.
    pub fn data(
        &mut self,
        bytes: &[u8],
        target: Option<Target>,
        component: ComponentType,
        ty: Type,
        count: usize,
        min_max: Option<(Vec<f32>, Vec<f32>)>,
    ) -> Result<json::Index<json::Accessor>> {
        let view = self.view(bytes, target)?;
        Ok(self.accessor(view, AccessorDesc { component, ty, count, byte_offset: 0, min_max }))
    }

    /// The finished GLB bytes.
    pub fn finish(mut self) -> Result<Vec<u8>> {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let has_bin = !self.bin.is_empty();
        if has_bin {
            self.root.push(json::Buffer {
                byte_length: USize64::from(self.bin.len()),
                extensions: None,
                extras: Default::default(),
                name: None,
                uri: None,
            });
        }
        let js = json::serialize::to_vec(&self.root)
            .map_err(|e| Error::new(ErrorKind::Invalid(format!("glTF JSON serialization failed: {e}"))))?;
        if js.len().saturating_add(self.bin.len()) > MAX_BIN_BYTES {
            return Err(Error::new(ErrorKind::Ceiling("the exported glTF would exceed 3.75 GiB".into())));
        }
        Ok(glb_container(&js, self.bin))
    }
}

/// The GLB container (glTF 2.0, section 4.4): the 12-byte header, the JSON chunk padded with
/// spaces to 4 bytes, then the BIN chunk (already 4-aligned), when there is one. Written
/// around `bin` in place (it is moved up, not copied into a new allocation: a whole-game
/// export is tens of megabytes).
pub(crate) fn glb_container(js: &[u8], mut bin: Vec<u8>) -> Vec<u8> {
    let json_len = js.len().next_multiple_of(4);
    let has_bin = !bin.is_empty();
    let prefix = 12 + 8 + json_len + if has_bin { 8 } else { 0 };
    let total = prefix + bin.len();
    let bin_len = bin.len();
    bin.resize(total, 0);
    bin.copy_within(0..bin_len, prefix);
    let mut head = Vec::with_capacity(prefix);
    head.extend_from_slice(b"glTF");
    head.extend_from_slice(&2u32.to_le_bytes());
    head.extend_from_slice(&(total as u32).to_le_bytes());
    head.extend_from_slice(&(json_len as u32).to_le_bytes());
    head.extend_from_slice(b"JSON");
    head.extend_from_slice(js);
    head.resize(12 + 8 + json_len, b' ');
    if has_bin {
        head.extend_from_slice(&(bin_len as u32).to_le_bytes());
        head.extend_from_slice(b"BIN\0");
    }
    bin[..prefix].copy_from_slice(&head);
    bin
}

/// Component-wise min and max of `n`-float elements (the exact f32 values written).
pub(crate) fn min_max(values: &[f32], n: usize) -> (Vec<f32>, Vec<f32>) {
    let mut lo = vec![f32::INFINITY; n];
    let mut hi = vec![f32::NEG_INFINITY; n];
    for chunk in values.chunks_exact(n) {
        for (k, &v) in chunk.iter().enumerate() {
            lo[k] = lo[k].min(v);
            hi[k] = hi[k].max(v);
        }
    }
    (lo, hi)
}

#[cfg(test)]
mod tests {
    /// The container is byte for byte what the `gltf` crate's own GLB writer makes of the same
    /// chunks (JSON lengths of every residue mod 4, with and without a BIN chunk).
    #[test]
    fn glb_container_is_the_gltf_crates() {
        for json_len in 1..9 {
            let js = vec![b'{'; json_len];
            for bin in [vec![], vec![7u8; 4], (0..40).collect::<Vec<u8>>()] {
                let theirs = gltf::binary::Glb {
                    header: gltf::binary::Header { magic: *b"glTF", version: 2, length: 0 },
                    json: std::borrow::Cow::Borrowed(&js),
                    bin: if bin.is_empty() { None } else { Some(std::borrow::Cow::Borrowed(&bin)) },
                }
                .to_vec()
                .unwrap();
                assert_eq!(super::glb_container(&js, bin.clone()), theirs, "json {json_len} bin {}", bin.len());
            }
        }
    }
}
