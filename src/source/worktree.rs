//! Reading a plain directory that is not inside a git repository.
//!
//! Symlinks are not followed (so a symlink loop cannot hang the walk), hidden entries and anything a
//! `.gitignore` excludes are skipped, and blob ids are computed the way git would, so a manifest written
//! from a working tree is comparable with one written from a commit.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use rayon::prelude::*;

use super::FileEntry;

pub struct WorktreeSnapshot {
    root: PathBuf,
    files: Vec<FileEntry>,
}

impl WorktreeSnapshot {
    pub fn open(root: &Path) -> Result<WorktreeSnapshot> {
        if !root.is_dir() {
            anyhow::bail!(
                "{} is not a directory; pass the root of a Python repository",
                root.display()
            );
        }
        let mut paths = Vec::new();
        let walker = ignore::WalkBuilder::new(root)
            .follow_links(false)
            .require_git(false)
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
        let files = paths
            .into_par_iter()
            .filter_map(|path| {
                let bytes = std::fs::read(root.join(&path)).ok()?;
                let blob_id =
                    gix::objs::compute_hash(gix::hash::Kind::Sha1, gix::objs::Kind::Blob, &bytes)
                        .ok()?;
                Some(FileEntry {
                    path,
                    blob_id: blob_id.to_string(),
                    size: bytes.len() as u64,
                })
            })
            .collect();
        Ok(WorktreeSnapshot {
            root: root.to_path_buf(),
            files,
        })
    }

    pub fn files(&self) -> &[FileEntry] {
        &self.files
    }

    pub fn read_all(&self, entries: &[FileEntry]) -> Result<Vec<Vec<u8>>> {
        entries
            .par_iter()
            .map(|entry| {
                std::fs::read(self.root.join(&entry.path))
                    .with_context(|| format!("cannot read {}", entry.path))
            })
            .collect()
    }
}

fn posix_path(relative: &Path) -> Option<String> {
    let parts: Option<Vec<&str>> = relative
        .components()
        .map(|c| c.as_os_str().to_str())
        .collect();
    Some(parts?.join("/"))
}
