//! Naming modules: file paths (relative to the indexed folder) become dotted module names under their
//! source root.
//!
//! Source roots are the indexed folder plus `src/` when it is a folder of packages rather than a package
//! itself (the "src layout"), or the roots configured in `strata.toml` / `--source-root`. When the
//! indexed folder is itself inside a package (`strata index src/requests`), its modules are named as
//! the package they belong to (`requests.sessions`): the import root is found by walking up the
//! folders that hold an `__init__.py`. Every `.py` file is a module, including files in folders without
//! `__init__.py` (namespace packages such as `flask/sansio/`).

use std::collections::{BTreeSet, HashMap, HashSet};

use anyhow::{Result, bail};

use crate::source::EnclosingFolder;

/// One module of the repository.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleFile {
    /// POSIX path relative to the indexed folder, the node id in the bundle.
    pub id: String,
    /// Dotted module name (`pkg.sub` for `pkg/sub/__init__.py`).
    pub name: String,
    pub is_package: bool,
    /// False when a folder or the file name holds a `.` (`build/lib.linux-x86_64/`, `v1.2/`): Python cannot
    /// import such a path, so the module is a node but no import resolves to it.
    pub importable: bool,
}

/// A folder whose contents are importable by their path below it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceRoot {
    /// The folder, relative to the indexed folder (`""`: the indexed folder itself).
    pub folder: String,
    /// The packages that folder is inside of (`["requests"]` when indexing `src/requests`).
    pub package: Vec<String>,
}

impl SourceRoot {
    /// How the root is shown in the bundle: `src`, `.`, or `.` inside `requests`.
    pub fn display(&self) -> String {
        let folder = if self.folder.is_empty() { "." } else { &self.folder };
        if self.package.is_empty() {
            folder.to_string()
        } else {
            format!("{folder} (package {})", self.package.join("."))
        }
    }
}

/// The source roots for `paths`: the configured ones (relative to the indexed folder; `..` climbs into
/// the folders above it, and a path of an enclosing folder such as `src` names that folder), or the
/// detected ones. An error names a configured root that cannot be used.
pub fn source_roots(paths: &[String], configured: &[String], enclosing: &[EnclosingFolder]) -> Result<Vec<SourceRoot>> {
    if configured.is_empty() {
        let package = enclosing_package(enclosing);
        if !package.is_empty() {
            return Ok(vec![SourceRoot { folder: String::new(), package }]);
        }
        return Ok(detect_source_roots(paths)
            .into_iter()
            .map(|folder| SourceRoot { folder, package: Vec::new() })
            .collect());
    }
    let names: Vec<&str> = enclosing.iter().map(|folder| folder.name.as_str()).collect();
    configured.iter().map(|root| configured_root(root, paths, &names)).collect()
}

fn configured_root(root: &str, paths: &[String], enclosing: &[&str]) -> Result<SourceRoot> {
    let trimmed = root.trim_matches('/');
    let segments: Vec<&str> = trimmed.split('/').filter(|s| !s.is_empty() && *s != ".").collect();
    let climb = segments.iter().take_while(|s| **s == "..").count();
    if climb > 0 {
        if climb < segments.len() {
            bail!(
                "source root {root:?} must be the indexed folder, a folder inside it, or a folder above it (only `..` segments)"
            );
        }
        if climb > enclosing.len() {
            bail!("source root {root:?} climbs above the repository root");
        }
        let package = enclosing[enclosing.len() - climb..].iter().map(|s| s.to_string()).collect();
        return Ok(SourceRoot { folder: String::new(), package });
    }
    let folder = segments.join("/");
    let inside = folder.is_empty() || paths.iter().any(|path| path.starts_with(&format!("{folder}/")));
    // `--source-root src` while indexing `src/requests`: the enclosing folder of that name.
    if !inside && enclosing.len() > segments.len() && enclosing[..segments.len()] == segments[..] {
        let package = enclosing[segments.len()..].iter().map(|s| s.to_string()).collect();
        return Ok(SourceRoot { folder: String::new(), package });
    }
    Ok(SourceRoot { folder, package: Vec::new() })
}

/// The package names of the indexed folder: walking up while a folder is a package, or is a namespace
/// folder right inside one (`flask/sansio/`). Empty when the indexed folder is not inside a package.
pub fn enclosing_package(enclosing: &[EnclosingFolder]) -> Vec<String> {
    let mut start = enclosing.len();
    while start > 0 {
        let here = &enclosing[start - 1];
        let parent_is_package = start >= 2 && enclosing[start - 2].is_package;
        if !(here.is_package || parent_is_package) {
            break;
        }
        start -= 1;
    }
    enclosing[start..].iter().map(|folder| folder.name.clone()).collect()
}

/// All modules, sorted by id, with lookups by dotted name.
#[derive(Debug, Clone, Default)]
pub struct ModuleIndex {
    pub modules: Vec<ModuleFile>,
    by_name: HashMap<String, usize>,
    top_level_names: BTreeSet<String>,
    /// Dotted names of folders that hold modules but are no module themselves (namespace packages).
    namespaces: HashSet<String>,
    pub source_roots: Vec<SourceRoot>,
}

impl ModuleIndex {
    /// Builds the index from module file paths under the given roots (see [`source_roots`]). Returns
    /// warnings for files that shadow each other (`a.py` beside `a/__init__.py`).
    pub fn new(paths: &[String], source_roots: Vec<SourceRoot>) -> (ModuleIndex, Vec<(String, String)>) {
        let modules: Vec<ModuleFile> = paths.iter().map(|path| module_file(path, &source_roots)).collect();
        ModuleIndex::from_modules(modules, source_roots)
    }

    /// The index of modules whose names are already known (an organisation's repositories, each
    /// module's name read from its own bundle). Same lookups and shadowing warnings as [`ModuleIndex::new`].
    pub fn from_modules(
        mut modules: Vec<ModuleFile>,
        source_roots: Vec<SourceRoot>,
    ) -> (ModuleIndex, Vec<(String, String)>) {
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
        let importable = || modules.iter().filter(|module| module.importable);
        let top_level_names =
            importable().map(|module| module.name.split('.').next().unwrap_or_default().to_string()).collect();
        let mut namespaces = HashSet::new();
        for module in importable() {
            let mut name = module.name.as_str();
            while let Some(dot) = name.rfind('.') {
                name = &name[..dot];
                if !by_name.contains_key(name) {
                    namespaces.insert(name.to_string());
                }
            }
        }
        (ModuleIndex { modules, by_name, top_level_names, namespaces, source_roots }, warnings)
    }

    pub fn by_name(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// True when `top_level` names a package or module of this repository (namespace packages too).
    pub fn is_internal_top_level(&self, top_level: &str) -> bool {
        self.top_level_names.contains(top_level)
    }

    /// True when `dotted` is a folder of modules without an `__init__.py` (importable, but no file).
    pub fn is_namespace(&self, dotted: &str) -> bool {
        self.namespaces.contains(dotted)
    }
}

/// The indexed folder, plus `src` when it holds modules without being a package.
fn detect_source_roots(paths: &[String]) -> Vec<String> {
    let has_src_modules = paths.iter().any(|path| path.starts_with("src/"));
    let src_is_package = paths.iter().any(|path| path == "src/__init__.py");
    let mut roots = vec![String::new()];
    if has_src_modules && !src_is_package {
        roots.push("src".to_string());
    }
    roots
}

fn module_file(path: &str, source_roots: &[SourceRoot]) -> ModuleFile {
    let (relative, package) = source_roots
        .iter()
        .filter_map(|root| {
            let relative = if root.folder.is_empty() {
                Some(path)
            } else {
                path.strip_prefix(root.folder.as_str())?.strip_prefix('/')
            };
            relative.map(|relative| (relative, root.package.as_slice()))
        })
        .min_by_key(|(relative, package)| relative.len() + package.iter().map(|p| p.len() + 1).sum::<usize>())
        .unwrap_or((path, &[]));
    let stem = relative.strip_suffix(".py").unwrap_or(relative);
    let (stem, is_package) = match stem.strip_suffix("/__init__") {
        Some(package) => (package, true),
        None if stem == "__init__" && !package.is_empty() => ("", true),
        None => (stem, false),
    };
    let mut parts: Vec<&str> = package.iter().map(String::as_str).collect();
    parts.extend(stem.split('/').filter(|segment| !segment.is_empty()));
    let importable = !parts.iter().any(|segment| segment.contains('.'));
    ModuleFile { id: path.to_string(), name: parts.join("."), is_package, importable }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(list: &[&str]) -> Vec<String> {
        list.iter().map(|p| p.to_string()).collect()
    }

    fn index_of(list: &[&str]) -> (ModuleIndex, Vec<(String, String)>) {
        let paths = paths(list);
        let roots = source_roots(&paths, &[], &[]).unwrap();
        ModuleIndex::new(&paths, roots)
    }

    fn folders(spec: &[(&str, bool)]) -> Vec<EnclosingFolder> {
        spec.iter()
            .map(|(name, is_package)| EnclosingFolder { name: name.to_string(), is_package: *is_package })
            .collect()
    }

    #[test]
    fn a_folder_inside_a_package_is_named_as_that_package() {
        let files = paths(&["__init__.py", "sessions.py", "adapters/__init__.py"]);
        let requests = folders(&[("src", false), ("requests", true)]);
        let (index, _) = ModuleIndex::new(&files, source_roots(&files, &[], &requests).unwrap());
        let names: Vec<&str> = index.modules.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["requests", "requests.adapters", "requests.sessions"]);
        assert!(index.modules[0].is_package);
        // A namespace folder right inside a package belongs to it too.
        let sansio = folders(&[("src", false), ("flask", true), ("sansio", false)]);
        assert_eq!(enclosing_package(&sansio), ["flask", "sansio"]);
        assert!(enclosing_package(&folders(&[("repo", false), ("tools", false)])).is_empty());
    }

    #[test]
    fn configured_roots_can_name_the_folders_above() {
        let files = paths(&["__init__.py", "sessions.py"]);
        let above = folders(&[("src", false), ("requests", false)]);
        for root in ["..", "src", "../"] {
            let roots = source_roots(&files, &[root.to_string()], &above).unwrap();
            assert_eq!(roots, [SourceRoot { folder: String::new(), package: vec!["requests".into()] }], "{root}");
        }
        let error = source_roots(&files, &["../../..".to_string()], &above).unwrap_err();
        assert!(error.to_string().contains("climbs above"), "{error}");
        assert!(source_roots(&files, &["../lib".to_string()], &above).is_err());
    }

    #[test]
    fn src_layout_and_packages() {
        let (index, warnings) = index_of(&["src/pkg/__init__.py", "src/pkg/a.py", "setup.py"]);
        assert!(warnings.is_empty());
        let names: Vec<&str> = index.modules.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["setup", "pkg", "pkg.a"]);
        assert!(index.by_name("pkg.a").is_some() && index.by_name("src.pkg.a").is_none());
    }

    #[test]
    fn a_src_package_is_not_a_source_root() {
        let (index, _) = index_of(&["src/__init__.py", "src/a.py"]);
        assert!(index.by_name("src.a").is_some());
    }

    #[test]
    fn package_shadows_module_of_the_same_name() {
        let (index, warnings) = index_of(&["a.py", "a/__init__.py"]);
        assert_eq!(index.modules[index.by_name("a").unwrap()].id, "a/__init__.py");
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings[0].0, "a.py");
    }

    #[test]
    fn regression_dotted_folders_are_not_importable() {
        let (index, _) = index_of(&["qq/__init__.py", "qq/dot.ted/__init__.py", "qq/dot.ted/m.py"]);
        assert!(index.by_name("qq.dot.ted.m").is_none());
        assert!(index.by_name("qq.dot.ted").is_none());
        assert_eq!(index.modules.len(), 3);
    }

    #[test]
    fn namespace_packages_are_internal() {
        let (index, _) = index_of(&["ns/sub/mod.py"]);
        assert!(index.is_internal_top_level("ns"));
        assert!(index.by_name("ns.sub.mod").is_some());
        assert!(index.is_namespace("ns") && index.is_namespace("ns.sub") && !index.is_namespace("ns.sub.mod"));
    }
}
