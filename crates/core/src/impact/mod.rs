//! Pull-request impact: what a change does to the import graph and what it affects, from the base
//! index and the head's bundle. Pure over the two bundles and their files' blob ids.
//!
//! - **Changed** modules are the paths in both with another blob id; added, removed and renamed ones
//!   (same blob, new path), edges and cycles come from the structural diff.
//! - **Affected** modules are the transitive dependents (in the head's graph, through
//!   `graph_view::GraphView`) of every changed, added or renamed module and of every module that
//!   imported a removed one, counting the package `__init__` rule (importing a submodule runs its
//!   package's `__init__.py` first). Each carries the chain that links it to the change, each step
//!   with its kind (an import that runs, one under `TYPE_CHECKING`, one in a `__main__` block, or the
//!   package rule), and whether a chain holds at runtime.
//! - **Tests** to run are the test modules pytest collects (`graph_view::TestModules`: pytest's
//!   default `test_*.py`, `*_test.py`, or the configured patterns) among the changed and affected
//!   modules, plus every one under a folder whose `conftest.py` is changed or affected (pytest loads
//!   it for all of them).
//! - **Breaking**: a removed module that a head module still imports (an unresolved import).

pub mod contracts;
pub mod render;

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::bundle::{Bundle, CycleChange, EdgeRef, Rename, diff_bundles};
use crate::graph_view::{ChainStep, Direction, Filter, GraphView, TestModules};

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Impact {
    pub base_commit: Option<String>,
    pub head_commit: Option<String>,
    pub changed: Vec<String>,
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub renamed: Vec<Rename>,
    pub edges_added: Vec<EdgeRef>,
    pub edges_removed: Vec<EdgeRef>,
    pub cycles_new: Vec<CycleChange>,
    pub cycles_grown: Vec<CycleChange>,
    pub cycles_shrunk: Vec<CycleChange>,
    pub cycles_resolved: Vec<CycleChange>,
    /// Modules that depend on the change through imports, in path order.
    pub affected: Vec<Affected>,
    /// Test modules to run, in path order.
    pub tests: Vec<String>,
    pub breaking: Vec<Breaking>,
    /// The changed neighbourhood for a diagram: imports into changed, added or renamed modules (their
    /// importers one level up) and the imports inside new or grown cycles.
    pub neighbourhood: Vec<EdgeRef>,
    /// With an organisation (`impact --org`): modules of other repositories that depend on the changed,
    /// removed or renamed modules, ids under their repository's name, chains through the organisation's
    /// graph. Absent otherwise.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub other_repositories: Vec<Affected>,
}

/// Every module that depends on one of `starts` (along imports, the package `__init__` rule counted),
/// with the chain to it; runtime chains first, and only those with `runtime_only`.
pub fn affected_by(bundle: &Bundle, starts: &[&str], runtime_only: bool) -> Vec<Affected> {
    let view = GraphView::of(bundle);
    let filter = Filter { package_inits: true, ..Filter::imports(runtime_only) };
    let reached = view.reach(starts, Direction::Importers, &filter);
    reached
        .ids()
        .into_iter()
        .filter_map(|id| {
            let chain = reached.chain(id)?;
            Some(Affected {
                id: id.to_string(),
                runtime: reached.at_runtime(id),
                via: chain.modules,
                steps: chain.steps,
            })
        })
        .collect()
}

impl Impact {
    /// The modules of the change as they were in the base: changed, removed, and renamed away.
    pub fn base_modules(&self) -> Vec<&str> {
        let mut ids: Vec<&str> = self.changed.iter().chain(&self.removed).map(String::as_str).collect();
        ids.extend(self.renamed.iter().map(|r| r.from.as_str()));
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// Adds what other repositories of an organisation lose: `org` is the organisation's graph (this
    /// repository as its base is there, ids under `repository/`), searched from this change's base modules.
    pub fn with_other_repositories(mut self, org: &Bundle, repository: &str, runtime_only: bool) -> Impact {
        let prefix = format!("{repository}/");
        let starts: Vec<String> = self.base_modules().iter().map(|id| format!("{prefix}{id}")).collect();
        let starts: Vec<&str> = starts.iter().map(String::as_str).filter(|id| org.nodes.contains_key(*id)).collect();
        self.other_repositories =
            affected_by(org, &starts, runtime_only).into_iter().filter(|a| !a.id.starts_with(&prefix)).collect();
        self
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Affected {
    pub id: String,
    /// Whether it depends on the change at runtime too: through a chain of imports that run on import
    /// (none under `TYPE_CHECKING` or in a `__main__` block).
    pub runtime: bool,
    /// The chain from this module to a changed one: `[id, …, changed]`, a runtime chain when there is one.
    pub via: Vec<String>,
    /// One step per neighbouring pair of `via`: the import's kind and line, or the package `__init__`
    /// rule (`submodule`: the submodule whose import runs the package first).
    pub steps: Vec<ChainStep>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Breaking {
    pub removed: String,
    pub importer: String,
    /// The missing dotted module as imported.
    pub import: String,
    pub line: u32,
}

/// The impact of going from `base` to `head`; `*_files` are path → blob id (the manifests'),
/// `tests` says which modules are tests, and `runtime_only` leaves out modules (and tests) that depend
/// on the change only through imports that do not run on import (`TYPE_CHECKING`, `__main__` blocks).
pub fn impact(
    base: &Bundle,
    base_files: &BTreeMap<String, String>,
    head: &Bundle,
    head_files: &BTreeMap<String, String>,
    tests: &TestModules,
    runtime_only: bool,
) -> Impact {
    let diff = diff_bundles(base, base_files, head, head_files);
    let renamed_from: BTreeSet<&str> = diff.modules_renamed.iter().map(|r| r.from.as_str()).collect();
    let renamed_to = |id: &str| -> String {
        diff.modules_renamed.iter().find(|r| r.from == id).map_or(id, |r| r.to.as_str()).to_string()
    };
    let changed: Vec<String> = head
        .nodes
        .keys()
        .filter(|id| base.nodes.contains_key(*id))
        .filter(|id| base_files.get(*id) != head_files.get(*id))
        .cloned()
        .collect();
    let removed: Vec<String> =
        diff.modules_removed.iter().filter(|id| !renamed_from.contains(id.as_str())).cloned().collect();

    // Head modules that imported a removed module: what they imported is gone.
    let mut seeds: BTreeSet<String> = changed.iter().cloned().collect();
    seeds.extend(diff.modules_added.iter().cloned());
    seeds.extend(diff.modules_renamed.iter().map(|r| r.to.clone()));
    for edge in &base.edges {
        if removed.contains(&edge.dst) {
            let importer = renamed_to(&edge.src);
            if head.nodes.contains_key(&importer) {
                seeds.insert(importer);
            }
        }
    }
    let starts: Vec<&str> = seeds.iter().map(String::as_str).collect();
    let affected = affected_by(head, &starts, runtime_only);

    let touched: BTreeSet<&str> =
        seeds.iter().map(String::as_str).chain(affected.iter().map(|a| a.id.as_str())).collect();
    let tests = select_tests(head, &touched, tests);

    let mut breaking = Vec::new();
    for id in &removed {
        let Some(module) = base.nodes.get(id).map(|node| node.module.as_str()) else { continue };
        for node in head.nodes.values() {
            for unresolved in &node.unresolved_imports {
                let name = unresolved.name.as_str();
                if name == module || name.strip_prefix(module).is_some_and(|rest| rest.starts_with('.')) {
                    breaking.push(Breaking {
                        removed: id.clone(),
                        importer: node.id.clone(),
                        import: name.to_string(),
                        line: unresolved.line,
                    });
                }
            }
        }
    }

    let direct: BTreeSet<&str> = changed
        .iter()
        .chain(&diff.modules_added)
        .map(String::as_str)
        .chain(diff.modules_renamed.iter().map(|r| r.to.as_str()))
        .collect();
    let in_new_cycle =
        |id: &str| diff.cycles_new.iter().chain(&diff.cycles_grown).any(|c| c.members.iter().any(|m| m == id));
    let neighbourhood: Vec<EdgeRef> = head
        .edges
        .iter()
        .filter(|e| direct.contains(e.dst.as_str()) || (in_new_cycle(&e.src) && in_new_cycle(&e.dst)))
        .map(|e| EdgeRef { src: e.src.clone(), dst: e.dst.clone() })
        .collect();

    Impact {
        other_repositories: Vec::new(),
        base_commit: base.meta.commit.clone(),
        head_commit: head.meta.commit.clone(),
        changed,
        added: diff
            .modules_added
            .iter()
            .filter(|id| !diff.modules_renamed.iter().any(|r| &r.to == *id))
            .cloned()
            .collect(),
        removed,
        renamed: diff.modules_renamed,
        edges_added: diff.edges_added,
        edges_removed: diff.edges_removed,
        cycles_new: diff.cycles_new,
        cycles_grown: diff.cycles_grown,
        cycles_shrunk: diff.cycles_shrunk,
        cycles_resolved: diff.cycles_resolved,
        affected,
        tests,
        breaking,
        neighbourhood,
    }
}

/// Test modules pytest collects among `touched`, plus all of them under the folder of a touched
/// `conftest.py`.
fn select_tests(bundle: &Bundle, touched: &BTreeSet<&str>, tests: &TestModules) -> Vec<String> {
    let file_name = |id: &str| id.rsplit('/').next().unwrap_or(id).to_string();
    let conftest_folders: Vec<String> = touched
        .iter()
        .filter(|id| file_name(id) == "conftest.py")
        .map(|id| id.rsplit_once('/').map_or(String::new(), |(folder, _)| format!("{folder}/")))
        .collect();
    bundle
        .nodes
        .keys()
        .filter(|id| tests.is_collected(id))
        .filter(|id| {
            touched.contains(id.as_str()) || conftest_folders.iter().any(|folder| id.starts_with(folder.as_str()))
        })
        .cloned()
        .collect()
}
