//! An organisation's repositories as one import graph. Each repository's modules keep their dotted
//! names and get ids under the repository's name (`billing/billing/invoice.py`), so the same graph
//! view, metrics and answers work across repositories and every answer names the repository.
//!
//! Resolution is the same as within one repository, in two steps: a module's imports are resolved in
//! its own repository first (so a repository's own `tests` or `setup` never resolve elsewhere), and
//! only the imports that are third-party there are resolved against the other repositories. A
//! top-level package that two other repositories both provide is ambiguous: imports of it stay
//! external, and the graph says so in a warning. Pure: the caller reads bundles and facts.

mod catalog;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use anyhow::{Result, bail};

use crate::bundle::{BuildInput, Bundle, FactsTable, SkippedFile, build_bundle};
use crate::graph::{
    ImportGraph, ModuleFile, ModuleImports, ModuleIndex, build_import_graph_with, compute_metrics,
    resolve_module_imports,
};
use crate::python::{FileFacts, ImportStatement, ImportTarget};

pub use catalog::{CATALOG_FILE, CATALOG_SCHEMA, Catalog, CatalogEntry, CrossImport};

/// `meta.source` of an organisation's graph (one repository's says `git` or `worktree`).
pub const ORGANISATION_SOURCE: &str = "organisation";

/// One repository of the organisation: its name (the first segment of its modules' ids), its bundle
/// (module names) and its facts (each file's imports).
pub struct OrgRepository<'a> {
    pub name: &'a str,
    pub bundle: &'a Bundle,
    pub facts: &'a FactsTable,
}

/// The organisation's graph: a bundle over every repository's modules, and what could not be joined.
#[derive(Debug)]
pub struct OrgGraph {
    pub bundle: Bundle,
    pub warnings: Vec<String>,
}

/// A repository name: letters, digits, `.`, `_` and `-` (it is a key prefix and an id segment).
pub fn check_repository_name(name: &str) -> Result<()> {
    let ok = !name.is_empty()
        && name != "."
        && name != ".."
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
    if !ok {
        bail!("{name:?} cannot be a repository name: use letters, digits, `.`, `_` and `-`");
    }
    Ok(())
}

/// The top-level packages (and top-level modules) a bundle provides, sorted.
pub fn provided_packages(bundle: &Bundle) -> Vec<String> {
    let names: BTreeSet<String> = bundle
        .nodes
        .values()
        .filter_map(|node| node.module.split('.').next().filter(|top| !top.is_empty()).map(str::to_string))
        .collect();
    names.into_iter().collect()
}

/// The third-party top-level packages a bundle's modules import, sorted.
pub fn imported_packages(bundle: &Bundle) -> Vec<String> {
    let names: BTreeSet<&String> = bundle.nodes.values().flat_map(|node| &node.external_imports.third_party).collect();
    names.into_iter().cloned().collect()
}

/// The graph of `repositories` (any order; names must differ).
pub fn org_graph(repositories: &[OrgRepository<'_>]) -> Result<OrgGraph> {
    let mut repositories: Vec<&OrgRepository<'_>> = repositories.iter().collect();
    repositories.sort_by_key(|repo| repo.name);
    for pair in repositories.windows(2) {
        if pair[0].name == pair[1].name {
            bail!("the repository {} is listed twice", pair[0].name);
        }
    }
    for repo in &repositories {
        check_repository_name(repo.name)?;
    }
    // Every module, ids under the repository's name; sorted by id, which keeps each repository's
    // modules together in its own order (no repository name is a prefix of another's `name/`).
    let mut modules = Vec::new();
    for repo in &repositories {
        modules.extend(repo.bundle.nodes.values().map(|node| ModuleFile {
            id: format!("{}/{}", repo.name, node.id),
            name: node.module.clone(),
            is_package: node.is_package,
            importable: is_importable(&node.module),
        }));
    }
    let (index, _) = ModuleIndex::from_modules(modules, Vec::new());
    let repo_of: Vec<usize> = index
        .modules
        .iter()
        .map(|module| {
            let name = module.id.split('/').next().unwrap_or_default();
            repositories.iter().position(|repo| repo.name == name).unwrap_or_default()
        })
        .collect();

    // Who provides each top-level package; a package with two providers is ambiguous.
    let mut providers: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
    for (module, &repo) in index.modules.iter().zip(&repo_of) {
        if let Some(top) = module.name.split('.').next().filter(|top| !top.is_empty()) {
            providers.entry(top.to_string()).or_default().insert(repo);
        }
    }
    let warnings: Vec<String> = providers
        .iter()
        .filter(|(_, repos)| repos.len() > 1)
        .map(|(top, repos)| {
            let names: Vec<&str> = repos.iter().map(|&r| repositories[r].name).collect();
            format!(
                "`{top}` is provided by {}: imports of it from other repositories are left unresolved",
                names.join(", ")
            )
        })
        .collect();

    // Each repository alone (its own names), and the shared index: every module whose top-level
    // package has one provider.
    let own: Vec<ModuleIndex> = (0..repositories.len())
        .map(|r| {
            let mine = index
                .modules
                .iter()
                .zip(&repo_of)
                .map(|(module, &owner)| ModuleFile { importable: module.importable && owner == r, ..module.clone() });
            ModuleIndex::from_modules(mine.collect(), Vec::new()).0
        })
        .collect();
    let shared_modules = index.modules.iter().map(|module| {
        let top = module.name.split('.').next().unwrap_or_default();
        ModuleFile {
            importable: module.importable && providers.get(top).is_some_and(|r| r.len() == 1),
            ..module.clone()
        }
    });
    let shared = ModuleIndex::from_modules(shared_modules.collect(), Vec::new()).0;

    // The facts of each module, by global index (a skipped file has none: its imports are unknown).
    let empty = FileFacts::default();
    let facts: Vec<&FileFacts> = index
        .modules
        .iter()
        .zip(&repo_of)
        .map(|(module, &r)| {
            let local = &module.id[repositories[r].name.len() + 1..];
            repositories[r].facts.files.get(local).map_or(&empty, |(_, parsed)| &parsed.facts)
        })
        .collect();

    let resolve = |index: &ModuleIndex, src: usize, imports: &[ImportStatement]| -> ModuleImports {
        let mut resolved = resolve_module_imports(&own[repo_of[src]], src, imports);
        let elsewhere: Vec<ImportStatement> = imports
            .iter()
            .filter(|import| match &import.target {
                ImportTarget::Module { module } => resolved.third_party.contains(top_of(module)),
                ImportTarget::From { level: 0, module, .. } | ImportTarget::Star { level: 0, module } => {
                    resolved.third_party.contains(top_of(module))
                }
                _ => false,
            })
            .cloned()
            .collect();
        if elsewhere.is_empty() {
            return resolved;
        }
        let across = resolve_module_imports(&shared, src, &elsewhere);
        let reached: BTreeSet<&str> =
            across.internal.iter().map(|edge| top_of(&index.modules[edge.dst].name)).collect();
        resolved.third_party.retain(|top| !reached.contains(top.as_str()));
        resolved.internal.extend(across.internal);
        resolved.unresolved.extend(across.unresolved);
        resolved
    };
    let graph: ImportGraph = build_import_graph_with(index, &facts, resolve);
    let metrics = compute_metrics(&graph);
    let warnings_of: HashMap<String, &Vec<String>> = repositories
        .iter()
        .flat_map(|repo| {
            repo.bundle.nodes.values().map(move |node| (format!("{}/{}", repo.name, node.id), &node.warnings))
        })
        .collect();
    let module_warnings: Vec<Vec<String>> = graph
        .index
        .modules
        .iter()
        .map(|module| warnings_of.get(module.id.as_str()).map_or_else(Vec::new, |w| (*w).clone()))
        .collect();
    let skipped_files: Vec<SkippedFile> = repositories
        .iter()
        .flat_map(|repo| {
            repo.bundle.meta.skipped_files.iter().map(move |skipped| SkippedFile {
                path: format!("{}/{}", repo.name, skipped.path),
                reason: skipped.reason.clone(),
            })
        })
        .collect();
    let test_files: BTreeSet<String> =
        repositories.iter().flat_map(|repo| repo.bundle.meta.test_files.iter().cloned()).collect();
    let test_files: Vec<String> = test_files.into_iter().collect();
    let bundle = build_bundle(&BuildInput {
        graph: &graph,
        metrics: &metrics,
        facts: &facts,
        warnings: &module_warnings,
        commit: None,
        source: ORGANISATION_SOURCE,
        skipped_files,
        test_files: &test_files,
    });
    Ok(OrgGraph { bundle, warnings })
}

/// The imports between different repositories in an organisation's graph, sorted.
pub fn cross_imports(bundle: &Bundle, commit_of: impl Fn(&str) -> Option<String>) -> Vec<CrossImport> {
    let mut imports: Vec<CrossImport> = bundle
        .edges
        .iter()
        .filter_map(|edge| {
            let (importer_repo, importer) = edge.src.split_once('/')?;
            let (imported_repo, imported) = edge.dst.split_once('/')?;
            (importer_repo != imported_repo).then(|| CrossImport {
                importer_repo: importer_repo.to_string(),
                importer: importer.to_string(),
                imported_repo: imported_repo.to_string(),
                imported: imported.to_string(),
                resolved_at: commit_of(imported_repo),
                type_checking: edge.type_checking,
                names: edge.names.clone(),
            })
        })
        .collect();
    imports.sort();
    imports
}

fn top_of(dotted: &str) -> &str {
    dotted.split('.').next().unwrap_or_default()
}

/// Whether Python can import a module of this dotted name: every part an identifier. (A bundle keeps
/// the name of a module under `lib.linux-x86_64/` as its path reads; such a module is no import target.)
fn is_importable(dotted: &str) -> bool {
    !dotted.is_empty()
        && dotted.split('.').all(|part| {
            let mut chars = part.chars();
            chars.next().is_some_and(|c| c == '_' || c.is_alphabetic())
                && chars.all(|c| c == '_' || c.is_alphanumeric())
        })
}

#[cfg(test)]
mod tests;
