//! Assembling the bundle from the graph, its metrics and the per-file facts. Pure: no I/O, no clock.

use std::collections::BTreeMap;

use crate::graph::{
    GraphMetrics, ImportGraph, ModuleIndex, SourceRoot, folder_index, folder_of, resolve_module_imports,
};
use crate::python::{FileFacts, ImportTarget, Symbol, SymbolKind};

use super::model::*;

/// Everything a bundle is made of. `facts[i]` and `warnings[i]` belong to `graph.index.modules[i]`;
/// a module listed in `skipped_files` was not read (its facts are empty, its warning says why).
pub struct BuildInput<'a> {
    pub graph: &'a ImportGraph,
    pub metrics: &'a GraphMetrics,
    pub facts: &'a [&'a FileFacts],
    pub warnings: &'a [Vec<String>],
    pub commit: Option<&'a str>,
    pub source: &'a str,
    pub skipped_files: Vec<SkippedFile>,
    /// File name patterns of test modules, recorded in `meta.test_files`.
    pub test_files: &'a [String],
}

pub fn build_bundle(input: &BuildInput<'_>) -> Bundle {
    let graph = input.graph;
    let metrics = input.metrics;
    let modules = &graph.index.modules;
    let skipped: std::collections::BTreeSet<&str> = input.skipped_files.iter().map(|s| s.path.as_str()).collect();

    let mut imports: Vec<Vec<String>> = vec![Vec::new(); modules.len()];
    let edges: Vec<BundleEdge> = graph
        .edges
        .iter()
        .map(|edge| {
            imports[edge.src].push(modules[edge.dst].id.clone());
            BundleEdge {
                src: modules[edge.src].id.clone(),
                dst: modules[edge.dst].id.clone(),
                kind: edge.form.as_str().to_string(),
                type_checking: edge.type_checking,
                main_block: edge.main_block,
                conditional: edge.conditional,
                local: edge.local,
                line: edge.line,
                names: edge.names.clone(),
            }
        })
        .collect();

    let mut nodes = BTreeMap::new();
    for (index, module) in modules.iter().enumerate() {
        let facts = input.facts[index];
        let externals = &graph.externals[index];
        let (exports, exports_source, exports_fallback) = exports(index, input.facts, &graph.index);
        let warnings = input.warnings[index].clone();
        let node = Node {
            id: module.id.clone(),
            module: module.name.clone(),
            folder: folder_of(&module.id).to_string(),
            is_package: module.is_package,
            docstring: facts.docstring.clone(),
            imports: std::mem::take(&mut imports[index]),
            imports_count: metrics.imports_count[index],
            importers_count: metrics.importers_count[index],
            direct_importers_count: metrics.direct_importers_count[index],
            scc_size: metrics.scc_size[index],
            scc_size_runtime: metrics.scc_size_runtime[index],
            pagerank: round_to_millionths(metrics.pagerank[index]),
            exports,
            exports_source: exports_source.to_string(),
            exports_fallback,
            symbols: nest_symbols(&facts.symbols),
            entry_points: facts
                .entry_points
                .iter()
                .map(|entry| NodeEntryPoint {
                    kind: entry.kind.as_str().to_string(),
                    symbol: entry.symbol.clone(),
                    line: entry.line,
                    detail: entry.detail.clone(),
                })
                .collect(),
            external_imports: ExternalImports {
                stdlib: externals.stdlib.iter().cloned().collect(),
                third_party: externals.third_party.iter().cloned().collect(),
            },
            unresolved_imports: externals
                .unresolved
                .iter()
                .map(|unresolved| UnresolvedImport { name: unresolved.name.clone(), line: unresolved.line })
                .collect(),
            n_lines: facts.n_lines,
            parse_status: if skipped.contains(module.id.as_str()) {
                "skipped"
            } else if warnings.is_empty() {
                "ok"
            } else {
                "partial"
            }
            .to_string(),
            warnings,
        };
        nodes.insert(module.id.clone(), node);
    }

    let ids = |members: &Vec<usize>| members.iter().map(|&m| modules[m].id.clone()).collect::<Vec<_>>();
    let mut cycles: Vec<Cycle> = metrics
        .cycles
        .iter()
        .map(|members| Cycle { edges: "all".to_string(), size: members.len(), members: ids(members) })
        .collect();
    cycles.extend(metrics.cycles_runtime.iter().map(|members| Cycle {
        edges: "runtime".to_string(),
        size: members.len(),
        members: ids(members),
    }));

    let folder_index: BTreeMap<String, Folder> = folder_index(graph)
        .into_iter()
        .map(|(name, entry)| {
            let folder = Folder {
                modules: entry.modules,
                imports: entry.imports,
                imported_by: entry.imported_by,
                internal_edges: entry.internal_edges,
            };
            (name, folder)
        })
        .collect();

    let counts = Counts {
        modules: modules.len(),
        edges: edges.len(),
        type_checking_edges: graph.edges.iter().filter(|edge| edge.type_checking).count(),
        main_block_edges: graph.edges.iter().filter(|edge| edge.main_block).count(),
        cycles: metrics.cycles.len(),
        cycles_runtime: metrics.cycles_runtime.len(),
        largest_cycle: metrics.cycles.first().map_or(0, Vec::len),
        largest_cycle_runtime: metrics.cycles_runtime.first().map_or(0, Vec::len),
        folders: folder_index.len(),
        symbols: input.facts.iter().map(|facts| facts.symbols.len()).sum(),
        partial_files: modules
            .iter()
            .zip(input.warnings)
            .filter(|(module, warnings)| !warnings.is_empty() && !skipped.contains(module.id.as_str()))
            .count(),
        skipped_files: input.skipped_files.len(),
    };

    Bundle {
        schema_version: BUNDLE_SCHEMA_VERSION.to_string(),
        meta: BundleMeta {
            generator: Generator { name: "strata".to_string(), version: env!("CARGO_PKG_VERSION").to_string() },
            language: "python".to_string(),
            edge_direction: EDGE_DIRECTION.to_string(),
            commit: input.commit.map(str::to_string),
            source: input.source.to_string(),
            source_roots: graph.index.source_roots.iter().map(SourceRoot::display).collect(),
            conventions: conventions(),
            skipped_files: input.skipped_files.clone(),
            test_files: input.test_files.to_vec(),
        },
        nodes,
        edges,
        cycles,
        folder_index,
        counts,
    }
}

fn conventions() -> BTreeMap<String, String> {
    [
        (
            "from_import",
            "`from P import x` is an edge to P.x when P.x is a module, otherwise to P (grimp's convention)",
        ),
        ("plain_import", "`import a.b.c` is an edge to a.b.c when it is a module of the repository"),
        (
            "unresolved_imports",
            "an import of a repository package that names no module (a deleted or renamed file) is listed with its line in unresolved_imports, never turned into an edge to an enclosing package",
        ),
        (
            "exports",
            "__all__ when it is a literal, with the __all__ of every repository module it concatenates (`from m import __all__ as m_all`, `m.__all__`); otherwise public top-level definitions and assignments, names imported from the repository's own modules, and explicit re-exports (`import x as x`); names bound only inside `try` are also in exports_fallback",
        ),
        ("importers_count", "modules that depend on this one directly or transitively, over all edges"),
        (
            "scc_size_runtime",
            "strongly connected component size over runtime edges: leaving out `type_checking` edges (every import under `if TYPE_CHECKING:`) and `main_block` edges (every import in an `if __name__ == \"__main__\":` block, which runs only as a script)",
        ),
        (
            "skipped_files",
            "a file skipped for its size is still a module: imports of it are edges to it, and its own imports are unknown (parse_status skipped)",
        ),
        ("namespace_packages", "files in folders without __init__.py are modules too"),
    ]
    .into_iter()
    .map(|(key, value)| (key.to_string(), value.to_string()))
    .collect()
}

/// A module's exports, where they come from, and which of them are `try` fallbacks (see `conventions`).
fn exports(module: usize, all: &[&FileFacts], index: &ModuleIndex) -> (Vec<String>, &'static str, Vec<String>) {
    let facts = all[module];
    if let Some(names) = dunder_all(module, all, index, &mut Vec::new()) {
        return (names, "__all__", Vec::new());
    }
    let from_repository = |statement: usize| match facts.imports.get(statement).map(|import| &import.target) {
        Some(ImportTarget::From { level, module, .. }) => {
            *level > 0 || index.is_internal_top_level(module.split('.').next().unwrap_or_default())
        }
        _ => false,
    };
    let mut names: Vec<String> = facts.public_names.clone();
    names.extend(
        facts.imported_names.iter().filter(|imported| from_repository(imported.statement)).map(|i| i.name.clone()),
    );
    names.sort();
    names.dedup();
    let fallback = facts.fallback_names.iter().filter(|name| names.binary_search(name).is_ok()).cloned().collect();
    (names, "public_names", fallback)
}

/// `module`'s `__all__`: its literal names, then those of every repository module's `__all__` it
/// concatenates (`from m import __all__ as m_all`, `from . import m` … `m.__all__`), in order and
/// once each. A chain that comes back to a module being read adds nothing more.
fn dunder_all(module: usize, all: &[&FileFacts], index: &ModuleIndex, reading: &mut Vec<usize>) -> Option<Vec<String>> {
    let facts = all[module];
    let mut names = facts.dunder_all.clone()?;
    reading.push(module);
    for part in &facts.dunder_all_parts {
        let (bound, imported) = match part.strip_suffix(".__all__") {
            Some(base) => (base, base),
            None => (part.as_str(), "__all__"),
        };
        let Some(statement) = facts.imported_names.iter().rev().find(|i| i.name == bound).map(|i| i.statement) else {
            continue;
        };
        let Some(import) = facts.imports.get(statement) else { continue };
        let resolved = resolve_module_imports(index, module, std::slice::from_ref(import));
        let from = resolved.internal.iter().find(|edge| edge.names.iter().any(|name| name == imported));
        if let Some(edge) = from
            && !reading.contains(&edge.dst)
            && let Some(more) = dunder_all(edge.dst, all, index, reading)
        {
            names.extend(more);
        }
    }
    reading.pop();
    let mut seen = std::collections::BTreeSet::new();
    names.retain(|name| seen.insert(name.clone()));
    Some(names)
}

/// Methods go under their class; nested classes' methods under the nested class's qualname.
fn nest_symbols(symbols: &[Symbol]) -> Vec<NodeSymbol> {
    let mut top_level: Vec<NodeSymbol> = Vec::new();
    let mut class_positions: BTreeMap<&str, usize> = BTreeMap::new();
    for symbol in symbols {
        // Methods are listed under their class, so their own name suffices; a nested class keeps its
        // qualname because it is listed at the top level.
        let name = if symbol.kind == SymbolKind::Method { &symbol.name } else { &symbol.qualname };
        let node_symbol = NodeSymbol {
            name: name.clone(),
            kind: symbol.kind.as_str().to_string(),
            line_start: symbol.line_start,
            line_end: symbol.line_end,
            bases: symbol.bases.clone(),
            decorators: symbol.decorators.clone(),
            is_async: symbol.is_async,
            methods: Vec::new(),
        };
        let owner = symbol.qualname.rsplit_once('.').map(|(owner, _)| owner);
        match (symbol.kind, owner.and_then(|owner| class_positions.get(owner))) {
            (SymbolKind::Method, Some(&position)) => top_level[position].methods.push(node_symbol),
            _ => {
                if symbol.kind == SymbolKind::Class {
                    class_positions.insert(&symbol.qualname, top_level.len());
                }
                top_level.push(node_symbol);
            }
        }
    }
    top_level
}

fn round_to_millionths(value: f64) -> f64 {
    (value * 1e6).round() / 1e6
}
