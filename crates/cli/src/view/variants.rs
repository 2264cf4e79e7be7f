//! Run-time state chosen in the page (Zelda 64: Link's tunic and shield): the document opened
//! again from its files with that state, as `--tunic`/`--shield` would have opened it, and
//! kept for the requests that follow.
//!
//! `/api/docs` lists, for each document, the run-time keys that change what it draws
//! ([`boneyard_core::Document::uses_runtime`]) with the values the family takes and the one
//! the run was started with; every `/api/...` route of that document then takes `KEY=VALUE`
//! beside `doc=N`. Only the keys the document uses are read from a query (others are left to
//! the route, which ignores them), a value the family does not take is 400, and the opened
//! variants are kept, the most recent [`MAX_VARIANTS`] of each document.

use super::{bad, Doc, Entry, Reply};
use boneyard_core::OpenOptions;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};

/// The most variants of one document kept open (a Link document is some 10 MB).
pub const MAX_VARIANTS: usize = 4;

/// A served document's way to its variants: how to open it again, the options it was opened
/// with, and the variants opened so far (most recent last).
pub struct Variants {
    reopen: crate::inputs::Reopen,
    base: OpenOptions,
    open: Mutex<Vec<Variant>>,
}

/// A variant opened: its run-time pairs (sorted), and the document they open.
type Variant = (Vec<(String, String)>, Arc<Doc>);

impl Variants {
    /// Variants of the document `reopen` opens, first opened with `base`.
    pub fn new(reopen: crate::inputs::Reopen, base: OpenOptions) -> Self {
        Variants { reopen, base, open: Mutex::new(Vec::new()) }
    }
}

/// The run-time keys `entry`'s document uses: `[{"key", "values", "value"}]`, `value` the one
/// the run was started with (null: the family's default).
pub fn runtime_json(entry: &Entry) -> Value {
    let Some(v) = &entry.variants else { return json!([]) };
    let family = v.reopen.family();
    let keys = family.runtime_keys().iter().filter(|k| entry.doc.uses_runtime(k));
    Value::Array(
        keys.map(|&key| {
            let value = v.base.runtime.iter().find(|(k, _)| k == key).map(|(_, val)| val.to_ascii_lowercase());
            json!({ "key": key, "values": family.runtime_values(key), "value": value })
        })
        .collect(),
    )
}

/// The variant of `entry`'s document a request's query asks for (`query` its pairs): `None`
/// when it asks for none, or for the state the document was opened with.
pub fn chosen(entry: &Entry, query: &super::Query) -> Result<Option<Arc<Doc>>, Reply> {
    let Some(v) = &entry.variants else { return Ok(None) };
    let family = v.reopen.family();
    // The state the document was opened with, as the family's names are spelt (`--tunic
    // Goron` is goron), in one order: what a variant is compared and kept by.
    let mut base = v.base.runtime.clone();
    base.iter_mut().for_each(|(_, val)| val.make_ascii_lowercase());
    base.sort();
    let mut runtime = base.clone();
    let mut asked = false;
    for &key in family.runtime_keys() {
        let Some(value) = query.get(key).filter(|s| !s.is_empty()) else { continue };
        if !entry.doc.uses_runtime(key) {
            continue;
        }
        let values = family.runtime_values(key);
        let Some(&value) = values.iter().find(|x| x.eq_ignore_ascii_case(value)) else {
            let close = boneyard_core::document::did_you_mean(value, values.iter().copied());
            return Err(bad(format!("{key} {value:?}: one of {}{close}", values.join(", "))));
        };
        asked = true;
        runtime.retain(|(k, _)| k != key);
        runtime.push((key.to_string(), value.to_string()));
    }
    runtime.sort();
    if !asked || runtime == base {
        return Ok(None);
    }
    // Opened under the lock: two requests for a new variant (the page asks for the glb and
    // the faces at once) open it once.
    let mut open = v.open.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(k) = open.iter().position(|(r, _)| *r == runtime) {
        let hit = open.remove(k);
        let doc = hit.1.clone();
        open.push(hit);
        return Ok(Some(doc));
    }
    let options = OpenOptions { runtime: runtime.clone(), ..v.base.clone() };
    let doc: Arc<Doc> = match v.reopen.open(&options) {
        Ok(d) => Arc::from(d),
        Err(e) => return Err(Reply::error(422, format!("cannot open the files again with {runtime:?}: {e:#}"))),
    };
    if open.len() >= MAX_VARIANTS {
        open.remove(0);
    }
    open.push((runtime, doc.clone()));
    Ok(Some(doc))
}
