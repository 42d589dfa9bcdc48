//! Reading a plain directory that is not inside a git repository.
//!
//! Symlinks are not followed (so a symlink loop cannot hang the walk), hidden folders and anything a
//! `.gitignore` excludes are skipped, and blob ids are computed the way git would, so a manifest written
//! from a working tree is comparable with one written from a commit. Each file is read once: the bytes
//! hashed for its blob id are kept for parsing.

use std::collections::HashMap;
use std::path::Path;

use anyhow::Result;
use rayon::prelude::*;

use super::{EnclosingFolder, FileEntry};

pub struct WorktreeSnapshot {
    files: Vec<FileEntry>,
    contents: HashMap<String, Vec<u8>>,
    enclosing: Vec<EnclosingFolder>,
}

impl WorktreeSnapshot {
    pub fn open(root: &Path) -> Result<WorktreeSnapshot> {
        if !root.is_dir() {
            anyhow::bail!("{} is not a directory; pass the root of a Python repository", root.display());
        }
        let mut paths = Vec::new();
        let walker = ignore::WalkBuilder::new(root)
            .follow_links(false)
            .require_git(false)
            .hidden(false)
            .filter_entry(|entry| {
                let is_dir = entry.file_type().is_some_and(|kind| kind.is_dir());
                entry.depth() == 0 || !is_dir || !entry.file_name().to_string_lossy().starts_with('.')
            })
            .build();
        for item in walker {
            let Ok(item) = item else { continue };
            if !item.file_type().is_some_and(|kind| kind.is_file()) {
                continue;
            }
            let Ok(relative) = item.path().strip_prefix(root) else {
                continue;
            };
            if let Some(posix) = posix_path(relative) {
                paths.push(posix);
            }
        }
        paths.sort();
        let read: Vec<(FileEntry, Vec<u8>)> = paths
            .into_par_iter()
            .filter_map(|path| {
                let bytes = std::fs::read(root.join(&path)).ok()?;
                let blob_id = gix::objs::compute_hash(gix::hash::Kind::Sha1, gix::objs::Kind::Blob, &bytes).ok()?;
                Some((FileEntry { path, blob_id: blob_id.to_string(), size: bytes.len() as u64 }, bytes))
            })
            .collect();
        let mut files = Vec::with_capacity(read.len());
        let mut contents = HashMap::with_capacity(read.len());
        for (entry, bytes) in read {
            contents.insert(entry.path.clone(), bytes);
            files.push(entry);
        }
        Ok(WorktreeSnapshot { files, contents, enclosing: enclosing_folders(root) })
    }

    pub fn enclosing_folders(&self) -> &[EnclosingFolder] {
        &self.enclosing
    }

    pub fn files(&self) -> &[FileEntry] {
        &self.files
    }

    pub fn read_all(&self, entries: &[FileEntry]) -> Result<Vec<Vec<u8>>> {
        entries
            .iter()
            .map(|entry| {
                self.contents
                    .get(&entry.path)
                    .cloned()
                    .ok_or_else(|| anyhow::anyhow!("{} is not part of this snapshot", entry.path))
            })
            .collect()
    }
}

/// The folders of `root`'s absolute path, each marked when it holds an `__init__.py`. Without a
/// repository there is no better boundary than the filesystem root; only the innermost packages matter.
fn enclosing_folders(root: &Path) -> Vec<EnclosingFolder> {
    let Ok(absolute) = root.canonicalize() else {
        return Vec::new();
    };
    let mut path = std::path::PathBuf::new();
    let mut folders = Vec::new();
    for component in absolute.components() {
        path.push(component);
        if let std::path::Component::Normal(name) = component {
            folders.push(EnclosingFolder {
                name: name.to_string_lossy().into_owned(),
                is_package: path.join("__init__.py").is_file(),
            });
        }
    }
    folders
}

fn posix_path(relative: &Path) -> Option<String> {
    let parts: Option<Vec<&str>> = relative.components().map(|c| c.as_os_str().to_str()).collect();
    Some(parts?.join("/"))
}
