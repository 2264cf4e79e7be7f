//! demo
pub fn demo_files() -> boneyard_core::Result<Vec<(String, Vec<u8>)>> {
    Ok(vec![])
}
