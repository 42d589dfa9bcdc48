//! The PViz bundle as Rust types: what `bundle.json` contains, field by field.
//!
//! `schemas/pviz-bundle.schema.json` is generated from these types by a test, so the committed schema
//! cannot drift from what is written. Bump `BUNDLE_SCHEMA_VERSION` on any incompatible change.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The bundle format's name and version, written as `schema_version`.
pub const BUNDLE_SCHEMA_VERSION: &str = "strata-bundle@3";

/// What `meta.edge_direction` says: an edge's `src` imports its `dst`.
pub const EDGE_DIRECTION: &str = "importer->imported";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Bundle {
    pub schema_version: String,
    pub meta: BundleMeta,
    /// Modules keyed by id (repo-relative POSIX path).
    pub nodes: BTreeMap<String, Node>,
    /// Importer→imported edges, sorted by (src, dst), one per pair.
    pub edges: Vec<BundleEdge>,
    /// Import cycles (strongly connected components of more than one module), largest first.
    pub cycles: Vec<Cycle>,
    pub folder_index: BTreeMap<String, Folder>,
    pub counts: Counts,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct BundleMeta {
    pub generator: Generator,
    pub language: String,
    pub edge_direction: String,
    /// The commit indexed; absent for a working tree or a repository without commits.
    pub commit: Option<String>,
    /// `git` (a commit's tree) or `worktree` (a plain directory).
    pub source: String,
    /// Folders module names are computed from, relative to the indexed folder (`.` is that folder), with
    /// the package they are inside of when the indexed folder is inside one (`. (package requests)`).
    pub source_roots: Vec<String>,
    /// How the fields whose meaning varies between tools are defined here.
    pub conventions: BTreeMap<String, String>,
    /// Files that were not read, and why. Each is still a module (a node with `parse_status:
    /// "skipped"`) that imports resolve to; what it imports is unknown.
    pub skipped_files: Vec<SkippedFile>,
    /// File name patterns of test modules (`[impact] test-files`; pytest's `python_files` by default).
    /// With the folder rule in `graph_view::TestModules`, the one definition of a test module.
    #[serde(default)]
    pub test_files: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Generator {
    pub name: String,
    pub version: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct SkippedFile {
    pub path: String,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Node {
    pub id: String,
    /// Dotted module name.
    pub module: String,
    pub folder: String,
    pub is_package: bool,
    /// First line of the module docstring.
    pub docstring: Option<String>,
    /// Ids of the modules this one imports, sorted.
    pub imports: Vec<String>,
    pub imports_count: usize,
    /// Modules that depend on this one, directly or transitively, over all edges.
    pub importers_count: usize,
    pub direct_importers_count: usize,
    /// Size of this module's strongly connected component over all edges (1 when not in a cycle).
    pub scc_size: usize,
    /// The same over runtime edges: leaving out `type_checking` and `main_block` edges.
    pub scc_size_runtime: usize,
    /// PageRank centrality (an import is a vote for the imported module), rounded to 1e-6.
    pub pagerank: f64,
    /// `__all__` when the module defines it, else its public top-level names: definitions, assignments,
    /// names imported from the repository's own modules, and explicit re-exports (`import x as x`).
    pub exports: Vec<String>,
    /// `__all__` or `public_names`: where `exports` came from.
    pub exports_source: String,
    /// Exported names bound only inside `try` statements (compatibility fallbacks), when `exports` comes
    /// from `public_names`.
    pub exports_fallback: Vec<String>,
    pub symbols: Vec<NodeSymbol>,
    pub entry_points: Vec<NodeEntryPoint>,
    pub external_imports: ExternalImports,
    /// Imports of the repository's packages that name no module of it, by line.
    pub unresolved_imports: Vec<UnresolvedImport>,
    pub n_lines: u32,
    /// `ok`; `partial` when the file had syntax errors or was not valid UTF-8; `skipped` when it was
    /// not read (over the size limit: `warnings` says why), so its own imports and symbols are unknown.
    pub parse_status: String,
    pub warnings: Vec<String>,
}

/// An import that names a module of the repository that does not exist.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct UnresolvedImport {
    /// The missing dotted module (`requests.status_codes`), or the relative import as written when it
    /// climbs above the top-level package (`..x.y`).
    pub name: String,
    pub line: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct NodeSymbol {
    pub name: String,
    /// `class` or `function` at the top level, `method` inside a class.
    pub kind: String,
    pub line_start: u32,
    pub line_end: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bases: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub decorators: Vec<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_async: bool,
    /// Methods of a class, in source order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub methods: Vec<NodeSymbol>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct NodeEntryPoint {
    /// `main`, `http_route`, `cli_command` or `task`.
    pub kind: String,
    pub symbol: Option<String>,
    pub line: u32,
    pub detail: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct ExternalImports {
    /// Top-level standard-library modules imported, sorted.
    pub stdlib: Vec<String>,
    /// Top-level third-party modules imported, sorted.
    pub third_party: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct BundleEdge {
    /// The importing module's id.
    pub src: String,
    /// The imported module's id.
    pub dst: String,
    /// `import`, `from` or `star`: the form of the first statement importing `dst`.
    pub kind: String,
    /// Every import of `dst` in `src` is under `if TYPE_CHECKING:`: the edge never runs.
    pub type_checking: bool,
    /// No import of `dst` in `src` runs when `src` is imported, and one runs when it is run as a script:
    /// each is in a module-level `if __name__ == "__main__":` block (or under `TYPE_CHECKING`). Never
    /// true together with `type_checking`; runtime paths and cycles leave both out.
    #[serde(default)]
    pub main_block: bool,
    /// Every import of `dst` in `src` is inside try/except, if/else, a loop or match.
    pub conditional: bool,
    /// Every import of `dst` in `src` is inside a function.
    pub local: bool,
    pub line: u32,
    /// Names imported from `dst`, sorted.
    pub names: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Cycle {
    /// `all` (every edge) or `runtime` (`type_checking` and `main_block` edges left out).
    pub edges: String,
    pub size: usize,
    /// Module ids, sorted.
    pub members: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Folder {
    pub modules: Vec<String>,
    /// Import edges from this folder to others, by folder.
    pub imports: BTreeMap<String, usize>,
    /// Import edges from other folders into this one, by folder.
    pub imported_by: BTreeMap<String, usize>,
    pub internal_edges: usize,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Counts {
    pub modules: usize,
    pub edges: usize,
    pub type_checking_edges: usize,
    #[serde(default)]
    pub main_block_edges: usize,
    pub cycles: usize,
    pub cycles_runtime: usize,
    pub largest_cycle: usize,
    pub largest_cycle_runtime: usize,
    pub folders: usize,
    pub symbols: usize,
    pub partial_files: usize,
    pub skipped_files: usize,
}
