//! What an incremental run takes from the previous artifact: per selected file, its previous parse
//! (by blob id, whatever the path) and whether its code chunks stay in the table untouched.

use std::collections::{BTreeMap, HashMap, HashSet};

use strata_core::graph::ModuleFile;
use strata_core::python::ParsedFile;
use strata_core::source::FileEntry;

use super::previous::Previous;

/// What an incremental run takes from the previous artifact, per selected file.
pub struct Reuse {
    /// The previous parse, when a file with the same blob id was parsed before (path does not matter).
    pub parses: Vec<Option<ParsedFile>>,
    /// True when the file's path, blob and module name are all unchanged and the previous vectors are
    /// usable: its code chunks stay in the table as they are and it is not read at all.
    pub keeps_code_chunks: Vec<bool>,
}

impl Reuse {
    /// Takes the previous parses out of `previous` (moved, not copied: there are thousands).
    /// `modules[i]` is the module of `selected[i]`.
    pub fn plan(previous: Option<&mut Previous>, selected: &[FileEntry], modules: &[&ModuleFile]) -> Reuse {
        let Some(previous) = previous else {
            return Reuse { parses: vec![None; selected.len()], keeps_code_chunks: vec![false; selected.len()] };
        };
        let mut by_blob: HashMap<String, ParsedFile> = std::mem::take(&mut previous.facts).into_values().collect();
        let keeps_code_chunks = selected
            .iter()
            .zip(modules)
            .map(|(file, module)| {
                previous.same_embedder
                    && previous.manifest.files.get(&file.path) == Some(&file.blob_id)
                    && previous.bundle.nodes.get(&file.path).is_some_and(|node| node.module == module.name)
                    && by_blob.contains_key(&file.blob_id)
            })
            .collect();
        // Identical files (empty `__init__.py`s) share a blob: the last one takes the parse, the others copy it.
        let mut uses: HashMap<&str, usize> = HashMap::new();
        for file in selected {
            *uses.entry(file.blob_id.as_str()).or_default() += 1;
        }
        let parses = selected
            .iter()
            .map(|file| {
                let remaining = uses.get_mut(file.blob_id.as_str())?;
                *remaining -= 1;
                if *remaining == 0 { by_blob.remove(&file.blob_id) } else { by_blob.get(&file.blob_id).cloned() }
            })
            .collect();
        Reuse { parses, keeps_code_chunks }
    }
}

/// The ids of the previous code chunks of every file that was not read (same path, blob and module
/// name, so the same chunks): they stay in the table untouched. Chunk ids are `code:{path}:{lines}`.
pub fn kept_code_chunks<'p>(
    previous_chunks: &'p BTreeMap<String, String>,
    selected: &[FileEntry],
    keeps_code_chunks: &[bool],
) -> Vec<&'p str> {
    let kept_paths: HashSet<&str> =
        selected.iter().zip(keeps_code_chunks).filter(|(_, keep)| **keep).map(|(f, _)| f.path.as_str()).collect();
    previous_chunks
        .keys()
        .filter(|id| {
            id.strip_prefix("code:")
                .and_then(|rest| rest.rsplit_once(':'))
                .is_some_and(|(path, _)| kept_paths.contains(path))
        })
        .map(String::as_str)
        .collect()
}
