//! Reading a commit's tree straight from the object database with gix: no checkout, no working tree.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use rayon::prelude::*;

use super::{EnclosingFolder, FileEntry};

pub struct GitSnapshot {
    repository: gix::ThreadSafeRepository,
    commit: Option<String>,
    files: Vec<FileEntry>,
    enclosing: Vec<EnclosingFolder>,
    prefix: String,
}

impl GitSnapshot {
    /// `Ok(None)` when `path` is not inside a git repository.
    pub fn open(path: &Path, rev: &str) -> Result<Option<GitSnapshot>> {
        let repository = match gix::discover(path) {
            Ok(repository) => repository,
            Err(error) if error.classify().is_not_found() => return Ok(None),
            Err(error) => {
                return Err(error).with_context(|| format!("cannot open the git repository at {}", path.display()));
            }
        };
        let prefix = subdirectory_prefix(&repository, path)?;
        let is_head = rev == "HEAD";
        if is_head && repository.head().context("cannot read HEAD")?.is_unborn() {
            let enclosing = enclosing_folders(&prefix, &HashSet::new());
            return Ok(Some(GitSnapshot {
                repository: repository.into_sync(),
                commit: None,
                files: Vec::new(),
                enclosing,
                prefix,
            }));
        }
        let (commit_id, files, package_folders) = list_commit_files(&repository, rev, &prefix)?;
        let enclosing = enclosing_folders(&prefix, &package_folders);
        Ok(Some(GitSnapshot { repository: repository.into_sync(), commit: Some(commit_id), files, enclosing, prefix }))
    }

    pub fn enclosing_folders(&self) -> &[EnclosingFolder] {
        &self.enclosing
    }

    pub fn commit(&self) -> Option<&str> {
        self.commit.as_deref()
    }

    /// The indexed folder inside the repository (`src/`), empty for its root.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    pub fn files(&self) -> &[FileEntry] {
        &self.files
    }

    pub fn read_all(&self, entries: &[FileEntry]) -> Result<Vec<Vec<u8>>> {
        entries
            .par_iter()
            .map_init(
                || self.repository.to_thread_local(),
                |repository, entry| {
                    let id = gix::ObjectId::from_hex(entry.blob_id.as_bytes())
                        .with_context(|| format!("bad blob id for {}", entry.path))?;
                    let object =
                        repository.find_object(id).with_context(|| format!("cannot read blob of {}", entry.path))?;
                    Ok(object.detach().data)
                },
            )
            .collect()
    }
}

/// The part of `path` below the repository's working directory, as a POSIX prefix ending in `/`
/// (empty for the repository root or a bare repository).
fn subdirectory_prefix(repository: &gix::Repository, path: &Path) -> Result<String> {
    let Some(workdir) = repository.workdir() else {
        return Ok(String::new());
    };
    let workdir = canonical(workdir)?;
    let path = canonical(path)?;
    let Ok(relative) = path.strip_prefix(&workdir) else {
        return Ok(String::new());
    };
    let mut prefix = String::new();
    for component in relative.components() {
        let Some(name) = component.as_os_str().to_str() else {
            bail!("path {} is not valid UTF-8", path.display());
        };
        prefix.push_str(name);
        prefix.push('/');
    }
    Ok(prefix)
}

fn canonical(path: &Path) -> Result<PathBuf> {
    path.canonicalize().with_context(|| format!("cannot resolve {}", path.display()))
}

fn strip_prefix<'p>(path: &'p str, prefix: &str) -> Option<&'p str> {
    if prefix.is_empty() { Some(path) } else { path.strip_prefix(prefix) }
}

/// The folders of `prefix` (`src/pkg/`), each marked when the commit has an `__init__.py` in it.
fn enclosing_folders(prefix: &str, package_folders: &HashSet<String>) -> Vec<EnclosingFolder> {
    let mut path = String::new();
    prefix
        .split('/')
        .filter(|name| !name.is_empty())
        .map(|name| {
            path.push_str(name);
            path.push('/');
            EnclosingFolder { name: name.to_string(), is_package: package_folders.contains(&path) }
        })
        .collect()
}

/// The commit id `rev` resolves to, every blob under `prefix` in its tree sorted by path, and the
/// folders above or at `prefix` that hold an `__init__.py` (as `a/b/`).
fn list_commit_files(
    repository: &gix::Repository,
    rev: &str,
    prefix: &str,
) -> Result<(String, Vec<FileEntry>, HashSet<String>)> {
    let commit = repository
        .rev_parse_single(rev)
        .with_context(|| format!("cannot resolve revision {rev:?}; pass a branch, tag or commit id with --rev"))?
        .object()?
        .peel_to_commit()
        .with_context(|| format!("revision {rev:?} does not point to a commit"))?;
    let tree = commit.tree().context("cannot read the commit's tree")?;
    let mut files = Vec::new();
    let mut package_folders = HashSet::new();
    for entry in tree.traverse().breadthfirst.files().context("cannot walk the commit's tree")? {
        if !entry.mode.is_blob() {
            continue;
        }
        let full_path = entry.filepath.to_string();
        if let Some(folder) = full_path.strip_suffix("__init__.py")
            && folder.ends_with('/')
            && prefix.starts_with(folder)
        {
            package_folders.insert(folder.to_string());
        }
        let Some(path) = strip_prefix(&full_path, prefix) else {
            continue;
        };
        let size = repository.find_header(entry.oid).map(|header| header.size()).unwrap_or(0);
        files.push(FileEntry { path: path.to_string(), blob_id: entry.oid.to_string(), size });
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok((commit.id.to_string(), files, package_folders))
}
