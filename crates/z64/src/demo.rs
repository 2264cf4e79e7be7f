//! Placeholder, filled below.
pub fn demo_files() -> boneyard_core::Result<Vec<(String, Vec<u8>)>> {
    Err(boneyard_core::Error::unsupported("demo"))
}
