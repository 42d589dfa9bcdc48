//! Pull-request impact: what a change does to the import graph and what it affects, from the base
//! index and the head's bundle. Pure over the two bundles and their files' blob ids.
//!
//! - **Changed** modules are the paths in both with another blob id; added, removed and renamed ones
//!   (same blob, new path), edges and cycles come from the structural diff.
//! - **Affected** modules are the transitive dependents (in the head's graph) of every changed, added
//!   or renamed module and of every module that imported a removed one; each carries the chain of
//!   imports that links it to the change and whether that holds at runtime (no `TYPE_CHECKING` edge).
//! - **Tests** to run are the test modules (pytest's default `test_*.py`, `*_test.py`, or the
//!   configured patterns) among the changed and affected modules, plus every test module under a
//!   folder whose `conftest.py` is changed or affected (pytest loads it for all of them).
//! - **Breaking**: a removed module that a head module still imports (an unresolved import).

pub mod contracts;
pub mod render;

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use globset::{Glob, GlobSet, GlobSetBuilder};
use serde::Serialize;

use crate::bundle::{Bundle, CycleChange, EdgeRef, Rename, diff_bundles};

/// pytest's default `python_files`.
pub const DEFAULT_TEST_FILES: [&str; 2] = ["test_*.py", "*_test.py"];

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
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Affected {
    pub id: String,
    /// Whether it depends on the change at runtime too (a chain with no `TYPE_CHECKING`-only import).
    pub runtime: bool,
    /// The chain of imports from this module to a changed one: `[id, …, changed]`.
    pub via: Vec<String>,
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
/// `test_files` matches test module file names, and `runtime_only` leaves out modules (and tests) that
/// depend on the change only through `TYPE_CHECKING` imports.
pub fn impact(
    base: &Bundle,
    base_files: &BTreeMap<String, String>,
    head: &Bundle,
    head_files: &BTreeMap<String, String>,
    test_files: &GlobSet,
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
    let all = dependents_with_paths(head, &seeds, runtime_only);
    let runtime = dependents_with_paths(head, &seeds, true);
    let affected: Vec<Affected> = all
        .into_iter()
        .filter(|(id, _)| !seeds.contains(id))
        .map(|(id, via)| Affected { runtime: runtime.contains_key(&id), id, via })
        .collect();

    let touched: BTreeSet<&str> =
        seeds.iter().map(String::as_str).chain(affected.iter().map(|a| a.id.as_str())).collect();
    let tests = select_tests(head, &touched, test_files);

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

/// Every module that reaches one of `seeds` along import edges (without `TYPE_CHECKING`-only ones when
/// `runtime`), with the shortest chain `[module, …, seed]`; seeds map to `[seed]`. Importing `a.b.c`
/// runs `a/__init__.py` and `a/b/__init__.py` first, so an import of a module also depends on the
/// `__init__.py` of every package above it.
fn dependents_with_paths(bundle: &Bundle, seeds: &BTreeSet<String>, runtime: bool) -> BTreeMap<String, Vec<String>> {
    let mut importers: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for edge in bundle.edges.iter().filter(|e| !(runtime && e.type_checking)) {
        importers.entry(edge.dst.as_str()).or_default().insert(edge.src.as_str());
        for package in enclosing_packages(bundle, &edge.dst) {
            if package != edge.src {
                importers.entry(package).or_default().insert(edge.src.as_str());
            }
        }
    }
    // Breadth first from all seeds at once: `next` points one step closer to a seed.
    let mut next: BTreeMap<&str, Option<&str>> = BTreeMap::new();
    let mut queue: VecDeque<&str> = VecDeque::new();
    for seed in seeds {
        if let Some((id, _)) = bundle.nodes.get_key_value(seed) {
            next.insert(id.as_str(), None);
            queue.push_back(id.as_str());
        }
    }
    while let Some(module) = queue.pop_front() {
        for &importer in importers.get(module).into_iter().flatten() {
            if !next.contains_key(importer) {
                next.insert(importer, Some(module));
                queue.push_back(importer);
            }
        }
    }
    next.keys()
        .map(|&id| {
            let mut chain = vec![id.to_string()];
            let mut at = id;
            while let Some(Some(step)) = next.get(at) {
                chain.push(step.to_string());
                at = step;
            }
            (id.to_string(), chain)
        })
        .collect()
}

/// The `__init__.py` of every package folder above `id` that the bundle has, innermost first.
fn enclosing_packages<'b>(bundle: &'b Bundle, id: &str) -> Vec<&'b str> {
    let mut packages = Vec::new();
    let mut folder = id.rsplit_once('/').map(|(folder, _)| folder);
    while let Some(current) = folder {
        match bundle.nodes.get_key_value(&format!("{current}/__init__.py")) {
            Some((init, _)) if init != id => packages.push(init.as_str()),
            Some(_) => {}
            None => break,
        }
        folder = current.rsplit_once('/').map(|(parent, _)| parent);
    }
    packages
}

/// Test modules among `touched`, plus all test modules under the folder of a touched `conftest.py`.
fn select_tests(bundle: &Bundle, touched: &BTreeSet<&str>, test_files: &GlobSet) -> Vec<String> {
    let file_name = |id: &str| id.rsplit('/').next().unwrap_or(id).to_string();
    let is_test = |id: &str| test_files.is_match(file_name(id));
    let conftest_folders: Vec<String> = touched
        .iter()
        .filter(|id| file_name(id) == "conftest.py")
        .map(|id| id.rsplit_once('/').map_or(String::new(), |(folder, _)| format!("{folder}/")))
        .collect();
    bundle
        .nodes
        .keys()
        .filter(|id| is_test(id))
        .filter(|id| {
            touched.contains(id.as_str()) || conftest_folders.iter().any(|folder| id.starts_with(folder.as_str()))
        })
        .cloned()
        .collect()
}

/// The matcher for test module file names (`test_*.py`); an invalid pattern is an error naming it.
pub fn test_file_matcher(patterns: &[String]) -> anyhow::Result<GlobSet> {
    let mut builder = GlobSetBuilder::new();
    for pattern in patterns {
        let glob =
            Glob::new(pattern).map_err(|error| anyhow::anyhow!("invalid test file pattern `{pattern}`: {error}"))?;
        builder.add(glob);
    }
    Ok(builder.build()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_files_follow_pytest_and_bad_patterns_are_named() {
        let defaults: Vec<String> = DEFAULT_TEST_FILES.iter().map(|p| p.to_string()).collect();
        let matcher = test_file_matcher(&defaults).unwrap();
        for name in ["test_cart.py", "cart_test.py"] {
            assert!(matcher.is_match(name), "{name}");
        }
        for name in ["cart.py", "testing.py", "conftest.py"] {
            assert!(!matcher.is_match(name), "{name}");
        }
        let error = test_file_matcher(&["check_[.py".to_string()]).unwrap_err().to_string();
        assert!(error.contains("check_[.py"), "{error}");
    }
}
