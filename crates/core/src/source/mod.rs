//! Where the files come from: a git commit (read through gix, no checkout needed) or, when PATH is not
//! inside a git repository, the working tree on disk.
//!
//! This stage lists files with their git blob ids and reads their bytes; choosing which files are Python
//! modules (extensions, exclusions, size limits) is `selection`'s pure job, and nothing here parses.

mod git;
mod overlay;
mod selection;
mod worktree;

use std::path::Path;

use anyhow::Result;

pub use overlay::{FileChange, OverlaySnapshot};
pub use selection::{Exclusions, Skipped, select_python_files};

/// One file of the snapshot: repo-relative POSIX path, git blob id (hex) and size in bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileEntry {
    pub path: String,
    pub blob_id: String,
    pub size: u64,
}

/// One folder on the way from the repository root (or, outside git, the filesystem root) down to the
/// indexed folder, and whether it holds an `__init__.py` (is a regular package).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EnclosingFolder {
    pub name: String,
    pub is_package: bool,
}

/// Where the snapshot was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SnapshotKind {
    Git,
    Worktree,
}

impl SnapshotKind {
    pub fn as_str(self) -> &'static str {
        match self {
            SnapshotKind::Git => "git",
            SnapshotKind::Worktree => "worktree",
        }
    }
}

/// An opened source of files at one point in time.
pub enum Snapshot {
    // Boxed: gix's repository handle is large and a snapshot is made once per run.
    Git(Box<git::GitSnapshot>),
    Worktree(worktree::WorktreeSnapshot),
    /// A base index's files with a change laid over them (a pull request's head, for the bot).
    Overlay(OverlaySnapshot),
}

impl Snapshot {
    /// Opens `path`: the commit `rev` of the git repository containing it (only the files under `path`),
    /// or the directory itself when it is not inside a git repository.
    pub fn open(path: &Path, rev: &str) -> Result<Snapshot> {
        match git::GitSnapshot::open(path, rev)? {
            Some(snapshot) => Ok(Snapshot::Git(Box::new(snapshot))),
            None => Ok(Snapshot::Worktree(worktree::WorktreeSnapshot::open(path)?)),
        }
    }

    pub fn kind(&self) -> SnapshotKind {
        match self {
            Snapshot::Git(_) | Snapshot::Overlay(_) => SnapshotKind::Git,
            Snapshot::Worktree(_) => SnapshotKind::Worktree,
        }
    }

    /// The commit id being indexed (`None` for a working tree or a repository without commits).
    pub fn commit(&self) -> Option<&str> {
        match self {
            Snapshot::Git(snapshot) => snapshot.commit(),
            Snapshot::Overlay(snapshot) => snapshot.commit(),
            Snapshot::Worktree(_) => None,
        }
    }

    /// The indexed folder inside its git repository (`src/`, empty for the root); `None` outside git.
    pub fn folder_in_repository(&self) -> Option<&str> {
        match self {
            Snapshot::Git(snapshot) => Some(snapshot.prefix()),
            Snapshot::Worktree(_) | Snapshot::Overlay(_) => None,
        }
    }

    /// The folders above and including the indexed one, outermost first (empty for a repository root).
    /// They decide which package a folder inside a package belongs to.
    pub fn enclosing_folders(&self) -> &[EnclosingFolder] {
        match self {
            Snapshot::Git(snapshot) => snapshot.enclosing_folders(),
            Snapshot::Worktree(snapshot) => snapshot.enclosing_folders(),
            Snapshot::Overlay(snapshot) => snapshot.enclosing_folders(),
        }
    }

    /// What was looked at, for messages: `/repo/src at commit 0123456789ab`, or the folder alone.
    pub fn describe(&self, path: &Path) -> String {
        match self.commit() {
            Some(commit) => format!("{} at commit {}", path.display(), &commit[..commit.len().min(12)]),
            None => format!("{}", path.display()),
        }
    }

    /// Every regular file, sorted by path. Symlinks and submodules are left out.
    pub fn files(&self) -> &[FileEntry] {
        match self {
            Snapshot::Git(snapshot) => snapshot.files(),
            Snapshot::Worktree(snapshot) => snapshot.files(),
            Snapshot::Overlay(snapshot) => snapshot.files(),
        }
    }

    /// Reads the bytes of files in parallel-friendly batches; results are in the order of `entries`.
    pub fn read_all(&self, entries: &[FileEntry]) -> Result<Vec<Vec<u8>>> {
        match self {
            Snapshot::Git(snapshot) => snapshot.read_all(entries),
            Snapshot::Worktree(snapshot) => snapshot.read_all(entries),
            Snapshot::Overlay(snapshot) => snapshot.read_all(entries),
        }
    }

    /// Reads one file by its repo-relative path, if the snapshot has it.
    pub fn read_path(&self, path: &str) -> Result<Option<Vec<u8>>> {
        let Some(entry) = self.files().iter().find(|entry| entry.path == path) else {
            return Ok(None);
        };
        Ok(self.read_all(std::slice::from_ref(entry))?.pop())
    }
}
