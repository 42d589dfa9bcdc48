//! The folder index: per folder, its modules and how many import edges link it to other folders.
//! Small enough for an LLM to read whole, and the basis for the directory pre-filter in retrieval.

use std::collections::BTreeMap;

use super::ImportGraph;

/// One folder of the repository that holds modules.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FolderEntry {
    /// Module ids, sorted.
    pub modules: Vec<String>,
    /// Edges from this folder's modules to other folders, by folder.
    pub imports: BTreeMap<String, usize>,
    /// Edges from other folders' modules into this folder, by folder.
    pub imported_by: BTreeMap<String, usize>,
    /// Edges between modules of this folder.
    pub internal_edges: usize,
}

/// The folder of a module id: its parent directory, `.` for the repository root.
pub fn folder_of(id: &str) -> &str {
    id.rfind('/').map_or(".", |slash| &id[..slash])
}

pub fn folder_index(graph: &ImportGraph) -> BTreeMap<String, FolderEntry> {
    let mut folders: BTreeMap<String, FolderEntry> = BTreeMap::new();
    for module in &graph.index.modules {
        folders.entry(folder_of(&module.id).to_string()).or_default().modules.push(module.id.clone());
    }
    for (src, dst) in graph.edge_pairs(false) {
        let src_folder = folder_of(&graph.index.modules[src].id);
        let dst_folder = folder_of(&graph.index.modules[dst].id);
        if src_folder == dst_folder {
            if let Some(entry) = folders.get_mut(src_folder) {
                entry.internal_edges += 1;
            }
            continue;
        }
        if let Some(entry) = folders.get_mut(src_folder) {
            *entry.imports.entry(dst_folder.to_string()).or_default() += 1;
        }
        if let Some(entry) = folders.get_mut(dst_folder) {
            *entry.imported_by.entry(src_folder.to_string()).or_default() += 1;
        }
    }
    for entry in folders.values_mut() {
        entry.modules.sort();
    }
    folders
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folder_of_root_and_nested() {
        assert_eq!(folder_of("setup.py"), ".");
        assert_eq!(folder_of("a/b/c.py"), "a/b");
    }
}
