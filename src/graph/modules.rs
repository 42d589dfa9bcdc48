//! Naming modules: repo-relative file paths become dotted module names under their source root.
//!
//! Source roots are the repository root plus `src/` when it is a folder of packages rather than a package
//! itself (the "src layout"), or the roots configured in `strata.toml`. Every `.py` file is a module,
//! including files in folders without `__init__.py` (namespace packages such as `flask/sansio/`).

use std::collections::{BTreeSet, HashMap};

/// One module of the repository.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleFile {
    /// Repo-relative POSIX path, the node id in the bundle.
    pub id: String,
    /// Dotted module name (`pkg.sub` for `pkg/sub/__init__.py`).
    pub name: String,
    pub is_package: bool,
    /// False when a folder or the file name holds a `.` (`build/lib.linux-x86_64/`, `v1.2/`): Python cannot
    /// import such a path, so the module is a node but no import resolves to it.
    pub importable: bool,
}

/// All modules, sorted by id, with lookups by dotted name.
#[derive(Debug, Clone, Default)]
pub struct ModuleIndex {
    pub modules: Vec<ModuleFile>,
    by_name: HashMap<String, usize>,
    top_level_names: BTreeSet<String>,
    pub source_roots: Vec<String>,
}

impl ModuleIndex {
    /// Builds the index from module file paths. `configured_roots` replaces root detection when not
    /// empty. Returns warnings for files that shadow each other (`a.py` beside `a/__init__.py`).
    pub fn new(paths: &[String], configured_roots: &[String]) -> (ModuleIndex, Vec<(String, String)>) {
        let source_roots = if configured_roots.is_empty() {
            detect_source_roots(paths)
        } else {
            configured_roots.iter().map(|root| root.trim_matches('/').to_string()).collect()
        };
        let mut modules: Vec<ModuleFile> = paths.iter().map(|path| module_file(path, &source_roots)).collect();
        modules.sort_by(|a, b| a.id.cmp(&b.id));

        let mut by_name = HashMap::new();
        let mut warnings = Vec::new();
        // Packages first so that `pkg/__init__.py` wins over a shadowed `pkg.py`, as in Python.
        let mut order: Vec<usize> = (0..modules.len()).collect();
        order.sort_by_key(|&index| (!modules[index].is_package, index));
        for index in order {
            let module = &modules[index];
            if !module.importable {
                continue;
            }
            if let Some(&existing) = by_name.get(&module.name) {
                let winner: &ModuleFile = &modules[existing];
                warnings.push((
                    module.id.clone(),
                    format!(
                        "module name {} is already taken by {}; imports resolve to that file",
                        module.name, winner.id
                    ),
                ));
                continue;
            }
            by_name.insert(module.name.clone(), index);
        }
        let top_level_names = modules
            .iter()
            .filter(|module| module.importable)
            .map(|module| module.name.split('.').next().unwrap_or_default().to_string())
            .collect();
        (ModuleIndex { modules, by_name, top_level_names, source_roots }, warnings)
    }

    pub fn by_name(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// True when `top_level` names a package or module of this repository (namespace packages too).
    pub fn is_internal_top_level(&self, top_level: &str) -> bool {
        self.top_level_names.contains(top_level)
    }

    /// The module for the longest prefix of `dotted` that is a module (`a.b.c` → `a.b` when `a/b.py`).
    pub fn longest_prefix(&self, dotted: &str) -> Option<usize> {
        let mut candidate = dotted;
        loop {
            if let Some(index) = self.by_name(candidate) {
                return Some(index);
            }
            candidate = &candidate[..candidate.rfind('.')?];
        }
    }
}

/// The repository root, plus `src` when it holds modules without being a package.
fn detect_source_roots(paths: &[String]) -> Vec<String> {
    let has_src_modules = paths.iter().any(|path| path.starts_with("src/"));
    let src_is_package = paths.iter().any(|path| path == "src/__init__.py");
    let mut roots = vec![String::new()];
    if has_src_modules && !src_is_package {
        roots.push("src".to_string());
    }
    roots
}

fn module_file(path: &str, source_roots: &[String]) -> ModuleFile {
    let relative = source_roots
        .iter()
        .filter(|root| !root.is_empty())
        .filter_map(|root| path.strip_prefix(root.as_str())?.strip_prefix('/'))
        .min_by_key(|relative| relative.len())
        .unwrap_or(path);
    let stem = relative.strip_suffix(".py").unwrap_or(relative);
    let (stem, is_package) = match stem.strip_suffix("/__init__") {
        Some(package) => (package, true),
        None => (stem, false),
    };
    let importable = !stem.split('/').any(|segment| segment.contains('.'));
    ModuleFile { id: path.to_string(), name: stem.replace('/', "."), is_package, importable }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(list: &[&str]) -> Vec<String> {
        list.iter().map(|p| p.to_string()).collect()
    }

    #[test]
    fn src_layout_and_packages() {
        let (index, warnings) = ModuleIndex::new(&paths(&["src/pkg/__init__.py", "src/pkg/a.py", "setup.py"]), &[]);
        assert!(warnings.is_empty());
        let names: Vec<&str> = index.modules.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["setup", "pkg", "pkg.a"]);
        assert_eq!(index.longest_prefix("pkg.a.Thing"), index.by_name("pkg.a"));
        assert_eq!(index.longest_prefix("other.x"), None);
    }

    #[test]
    fn a_src_package_is_not_a_source_root() {
        let (index, _) = ModuleIndex::new(&paths(&["src/__init__.py", "src/a.py"]), &[]);
        assert!(index.by_name("src.a").is_some());
    }

    #[test]
    fn package_shadows_module_of_the_same_name() {
        let (index, warnings) = ModuleIndex::new(&paths(&["a.py", "a/__init__.py"]), &[]);
        assert_eq!(index.modules[index.by_name("a").unwrap()].id, "a/__init__.py");
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings[0].0, "a.py");
    }

    #[test]
    fn regression_dotted_folders_are_not_importable() {
        let (index, _) =
            ModuleIndex::new(&paths(&["qq/__init__.py", "qq/dot.ted/__init__.py", "qq/dot.ted/m.py"]), &[]);
        assert_eq!(index.longest_prefix("qq.dot.ted.m"), index.by_name("qq"));
        assert!(index.by_name("qq.dot.ted").is_none());
        assert_eq!(index.modules.len(), 3);
    }

    #[test]
    fn namespace_packages_are_internal() {
        let (index, _) = ModuleIndex::new(&paths(&["ns/sub/mod.py"]), &[]);
        assert!(index.is_internal_top_level("ns"));
        assert!(index.by_name("ns.sub.mod").is_some());
    }
}
