//! Output files appear whole or not at all: written to a temporary name in the same folder,
//! then renamed.

use anyhow::{Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "out".into());
    let tmp = dir.join(format!(".{name}.part{}", std::process::id()));
    let res = (|| -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if res.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    res.with_context(|| format!("{}: cannot write", path.display()))
}

pub fn ensure_dir(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create the folder", dir.display()))
}

/// A file-name-safe version of a name.
pub fn safe_name(s: &str) -> String {
    let t: String = s
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.' { c } else { '_' })
        .collect();
    let t = t.trim_matches('.').to_string();
    if t.is_empty() {
        "unnamed".into()
    } else {
        t
    }
}

pub fn out_path(dir: &Path, stem: &str, ext: &str) -> PathBuf {
    dir.join(format!("{}.{ext}", safe_name(stem)))
}
