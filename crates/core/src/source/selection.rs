//! Which files of a snapshot are Python modules to index: `.py` files outside excluded folders, read when
//! under the size limit (the others are modules whose bytes are skipped). Pure: paths in, paths out.

use anyhow::{Context, Result};
use globset::{Glob, GlobSet, GlobSetBuilder};

use super::FileEntry;

/// Folder names never indexed: virtualenvs, caches, vendored JavaScript.
pub const DEFAULT_EXCLUDED_DIRS: &[&str] =
    &["__pycache__", "venv", "virtualenv", "site-packages", "node_modules", "htmlcov"];

/// Folder names of build output (`build/lib/pkg/…`, `dist/…`), not indexed unless the folder is a
/// package of its own (it holds an `__init__.py`): `conan/tools/build/` is code, `build/` at the top of a
/// checkout is a copy of it.
pub const BUILD_OUTPUT_DIRS: &[&str] = &["build", "dist"];

/// The exclusion rules: built-in folder names, hidden folders, and user globs.
#[derive(Debug, Clone)]
pub struct Exclusions {
    globs: GlobSet,
}

impl Exclusions {
    /// `patterns` are globs matched against repo-relative POSIX paths; `dir/` or `dir` also excludes
    /// everything below that folder.
    pub fn new(patterns: &[String]) -> Result<Exclusions> {
        let mut builder = GlobSetBuilder::new();
        for pattern in patterns {
            let trimmed = pattern.trim_end_matches('/');
            for candidate in [trimmed.to_string(), format!("{trimmed}/**")] {
                let glob = Glob::new(&candidate).with_context(|| format!("invalid exclude pattern {pattern:?}"))?;
                builder.add(glob);
            }
        }
        Ok(Exclusions { globs: builder.build().context("cannot compile exclude patterns")? })
    }

    /// Whether `path` is left out; `is_package(folder)` says whether a folder (a path prefix, no
    /// trailing `/`) holds an `__init__.py`, which keeps a package named like build output.
    pub fn excludes(&self, path: &str, is_package: impl Fn(&str) -> bool) -> bool {
        let mut end = 0;
        let mut in_excluded_folder = false;
        let folders: Vec<&str> = path.split('/').collect();
        for folder in &folders[..folders.len().saturating_sub(1)] {
            end += folder.len();
            in_excluded_folder |= folder.starts_with('.')
                || folder.ends_with(".egg-info")
                || DEFAULT_EXCLUDED_DIRS.contains(folder)
                || (BUILD_OUTPUT_DIRS.contains(folder) && !is_package(&path[..end]));
            end += 1;
        }
        in_excluded_folder || self.globs.is_match(path)
    }
}

/// A module whose bytes are not read (it is over the size limit), and why. It is still a module of the
/// graph: imports of it resolve to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    pub path: String,
    pub blob_id: String,
    pub reason: String,
}

/// The `.py` files to index, in path order, and the ones skipped for size.
pub fn select_python_files(
    files: &[FileEntry],
    exclusions: &Exclusions,
    max_file_bytes: u64,
) -> (Vec<FileEntry>, Vec<Skipped>) {
    let packages: std::collections::BTreeSet<&str> =
        files.iter().filter_map(|file| file.path.strip_suffix("/__init__.py")).collect();
    let mut selected = Vec::new();
    let mut skipped = Vec::new();
    for file in files {
        if !file.path.ends_with(".py") || exclusions.excludes(&file.path, |folder| packages.contains(folder)) {
            continue;
        }
        if file.size > max_file_bytes {
            skipped.push(Skipped {
                path: file.path.clone(),
                blob_id: file.blob_id.clone(),
                reason: format!(
                    "{} bytes is over the {max_file_bytes}-byte limit (raise max-file-bytes to index it)",
                    file.size
                ),
            });
            continue;
        }
        selected.push(file.clone());
    }
    (selected, skipped)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(path: &str, size: u64) -> FileEntry {
        FileEntry { path: path.to_string(), blob_id: "0".repeat(40), size }
    }

    #[test]
    fn built_in_folders_hidden_folders_and_globs_are_excluded() {
        let exclusions = Exclusions::new(&["docs".to_string(), "**/migrations/*.py".to_string()]).unwrap();
        let files = [
            entry("pkg/a.py", 10),
            entry(".venv/lib/x.py", 10),
            entry("venv/x.py", 10),
            entry("pkg/__pycache__/a.py", 10),
            entry("pkg.egg-info/x.py", 10),
            entry("docs/conf.py", 10),
            entry("app/migrations/0001.py", 10),
            entry("pkg/readme.md", 10),
            entry("pkg/big.py", 5_000),
        ];
        let (selected, skipped) = select_python_files(&files, &exclusions, 1_000);
        let paths: Vec<&str> = selected.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["pkg/a.py"]);
        assert_eq!(skipped.len(), 1);
        assert_eq!(skipped[0].path, "pkg/big.py");
    }

    #[test]
    fn a_file_named_like_an_excluded_folder_is_kept() {
        let exclusions = Exclusions::new(&[]).unwrap();
        assert!(!exclusions.excludes("pkg/build.py", |_| false));
        assert!(exclusions.excludes("build/pkg/a.py", |_| false));
    }

    #[test]
    fn a_package_named_like_build_output_is_indexed() {
        let exclusions = Exclusions::new(&[]).unwrap();
        let files = [
            entry("conan/__init__.py", 10),
            entry("conan/tools/__init__.py", 10),
            entry("conan/tools/build/__init__.py", 10),
            entry("conan/tools/build/cppstd.py", 10),
            entry("build/lib/conan/__init__.py", 10),
            entry("dist/conan/tools/build/__init__.py", 10),
            entry("conan/dist/helper.py", 10),
        ];
        let (selected, _) = select_python_files(&files, &exclusions, 1_000);
        let paths: Vec<&str> = selected.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "conan/__init__.py",
                "conan/tools/__init__.py",
                "conan/tools/build/__init__.py",
                "conan/tools/build/cppstd.py"
            ]
        );
    }

    #[test]
    fn an_invalid_glob_is_a_clear_error() {
        let error = Exclusions::new(&["a[".to_string()]).unwrap_err();
        assert!(format!("{error:#}").contains("invalid exclude pattern"));
    }
}
