//! The import graph: modules as nodes, importer→imported edges, and the metrics computed over it.
//!
//! Everything here is a pure function of the per-file facts and the module paths, so an incremental run
//! can recompute the whole graph from cached facts in milliseconds.

mod folders;
mod metrics;
mod modules;
#[cfg(test)]
mod properties;
mod resolve;
mod stdlib;

use std::collections::{BTreeMap, BTreeSet};

use crate::python::{FileFacts, ImportStatement};

pub use folders::{FolderEntry, folder_index, folder_of};
pub use metrics::{GraphMetrics, compute_metrics};
pub use modules::{ModuleFile, ModuleIndex, SourceRoot, enclosing_package, source_roots};
pub use resolve::{ImportForm, ModuleImports, UnresolvedImport, resolve_module_imports};
pub use stdlib::is_stdlib;

/// One importer→imported edge, merged over every statement that imports the same module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edge {
    pub src: usize,
    pub dst: usize,
    /// The form of the first such import in the file.
    pub form: ImportForm,
    /// True only when every such import is under `if TYPE_CHECKING:` (the edge never runs).
    pub type_checking: bool,
    /// True when no such import runs on import and at least one runs when the file is run as a script:
    /// each is in a module-level `if __name__ == "__main__":` block or under `TYPE_CHECKING`, and not
    /// all are under `TYPE_CHECKING`. Never true together with `type_checking`.
    pub main_block: bool,
    /// True only when every such import is conditional.
    pub conditional: bool,
    /// True only when every such import is inside a function.
    pub local: bool,
    /// Line of the first such import.
    pub line: u32,
    /// Names imported from the target, sorted and unique.
    pub names: Vec<String>,
}

/// The repository's modules and the import edges between them.
#[derive(Debug, Clone, Default)]
pub struct ImportGraph {
    pub index: ModuleIndex,
    /// Sorted by (src, dst); at most one edge per pair.
    pub edges: Vec<Edge>,
    /// Per module (same order as `index.modules`): stdlib, third-party and unresolved imports.
    pub externals: Vec<ModuleImports>,
}

impl ImportGraph {
    pub fn n_modules(&self) -> usize {
        self.index.modules.len()
    }

    /// Edges as (src, dst) pairs, optionally only those that run on import (no `type_checking` or
    /// `main_block` ones).
    pub fn edge_pairs(&self, runtime_only: bool) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.edges
            .iter()
            .filter(move |edge| !(runtime_only && (edge.type_checking || edge.main_block)))
            .map(|edge| (edge.src, edge.dst))
    }
}

/// Builds the graph. `facts[i]` are the facts of `index.modules[i]`.
pub fn build_import_graph(index: ModuleIndex, facts: &[&FileFacts]) -> ImportGraph {
    build_import_graph_with(index, facts, resolve_module_imports)
}

/// Builds the graph with `resolve(&index, i, imports)` giving what module `i`'s imports lead to, as
/// indices of `index` (an organisation's graph resolves each repository's imports in that repository
/// first, and only the rest against the other repositories).
pub fn build_import_graph_with(
    index: ModuleIndex,
    facts: &[&FileFacts],
    resolve: impl Fn(&ModuleIndex, usize, &[ImportStatement]) -> ModuleImports,
) -> ImportGraph {
    let mut merged: BTreeMap<(usize, usize), Edge> = BTreeMap::new();
    let mut externals = Vec::with_capacity(facts.len());
    for (src, file_facts) in facts.iter().enumerate() {
        let mut resolved = resolve(&index, src, &file_facts.imports);
        for import in resolved.internal.drain(..) {
            let edge = merged.entry((src, import.dst)).or_insert_with(|| Edge {
                src,
                dst: import.dst,
                form: import.form,
                type_checking: true,
                main_block: true,
                conditional: true,
                local: true,
                line: import.line,
                names: Vec::new(),
            });
            edge.type_checking &= import.context.type_checking;
            // Until the end: every import is under `TYPE_CHECKING` or in a `__main__` block.
            edge.main_block &= import.context.type_checking || import.context.main_block;
            edge.conditional &= import.context.conditional;
            edge.local &= import.context.local;
            if import.line < edge.line {
                edge.line = import.line;
                edge.form = import.form;
            }
            edge.names.extend(import.names);
        }
        externals.push(resolved);
    }
    let edges = merged
        .into_values()
        .map(|mut edge| {
            let unique: BTreeSet<String> = edge.names.drain(..).collect();
            edge.names = unique.into_iter().collect();
            edge.main_block &= !edge.type_checking;
            edge
        })
        .collect();
    ImportGraph { index, edges, externals }
}
