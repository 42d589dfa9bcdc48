//! A snapshot assembled without a repository: the files of a base index (paths and blob ids from its
//! manifest) with a change laid over them (files added, modified, renamed or deleted, with the bytes
//! of each new blob). The bot uses it to see a pull request's head from the default branch's index
//! and the files the pull request changes, without checking out or running anything.
//!
//! Only the bytes of changed files are held: unchanged files keep their facts from the base index, so
//! the pipeline must not ask for them (`IndexRequest::graph_only`); asking is an error, not a guess.

use std::collections::{BTreeMap, HashMap};

use anyhow::{Result, bail};

use super::{EnclosingFolder, FileEntry};

/// One file of the change, with its path in the indexed folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileChange {
    /// Added or modified: the new blob id and, when the base index does not hold that blob already,
    /// its bytes (a rename without edits needs none).
    Write {
        path: String,
        blob_id: String,
        bytes: Option<Vec<u8>>,
    },
    Delete {
        path: String,
    },
    /// Added or modified, but larger than `more_than` bytes, so its bytes were not read: the file is
    /// there, and the selection skips it for its size as a full index would.
    Oversized {
        path: String,
        blob_id: String,
        more_than: u64,
    },
}

#[derive(Debug, Clone)]
pub struct OverlaySnapshot {
    commit: Option<String>,
    files: Vec<FileEntry>,
    contents: HashMap<String, Vec<u8>>,
    enclosing: Vec<EnclosingFolder>,
}

impl OverlaySnapshot {
    /// `base` is path → blob id; `commit` names the result (a pull request's head).
    pub fn new(
        base: &BTreeMap<String, String>,
        changes: Vec<FileChange>,
        enclosing: Vec<EnclosingFolder>,
        commit: Option<String>,
    ) -> OverlaySnapshot {
        let mut files: BTreeMap<String, (String, u64)> =
            base.iter().map(|(path, blob)| (path.clone(), (blob.clone(), 0))).collect();
        let mut contents = HashMap::new();
        for change in changes {
            match change {
                FileChange::Write { path, blob_id, bytes } => {
                    // Sizes of base files are unknown and were checked when they were indexed.
                    let size = bytes.as_ref().map_or(0, |b| b.len() as u64);
                    if let Some(bytes) = bytes {
                        contents.insert(path.clone(), bytes);
                    }
                    files.insert(path, (blob_id, size));
                }
                FileChange::Delete { path } => {
                    files.remove(&path);
                }
                FileChange::Oversized { path, blob_id, more_than } => {
                    files.insert(path, (blob_id, more_than.saturating_add(1)));
                }
            }
        }
        let files = files.into_iter().map(|(path, (blob_id, size))| FileEntry { path, blob_id, size }).collect();
        OverlaySnapshot { commit, files, contents, enclosing }
    }

    pub fn commit(&self) -> Option<&str> {
        self.commit.as_deref()
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
            .map(|entry| match self.contents.get(&entry.path) {
                Some(bytes) => Ok(bytes.clone()),
                None => bail!("{} is not part of the change, so its contents are not available", entry.path),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_is_laid_over_the_base_files() {
        let base: BTreeMap<String, String> =
            [("a.py", "1"), ("b.py", "2"), ("c.py", "3")].map(|(p, b)| (p.to_string(), b.to_string())).into();
        let changes = vec![
            FileChange::Write { path: "b.py".into(), blob_id: "20".into(), bytes: Some(b"x = 1\n".to_vec()) },
            FileChange::Delete { path: "c.py".into() },
            FileChange::Write { path: "d.py".into(), blob_id: "3".into(), bytes: None },
        ];
        let overlay = OverlaySnapshot::new(&base, changes, Vec::new(), Some("head".into()));
        let listed: Vec<(&str, &str)> = overlay.files().iter().map(|f| (f.path.as_str(), f.blob_id.as_str())).collect();
        assert_eq!(listed, [("a.py", "1"), ("b.py", "20"), ("d.py", "3")]);
        assert_eq!(overlay.read_all(&overlay.files()[1..2]).unwrap(), [b"x = 1\n".to_vec()]);
        let error = overlay.read_all(&overlay.files()[..1]).unwrap_err().to_string();
        assert!(error.contains("a.py is not part of the change"), "{error}");
    }

    #[test]
    fn an_oversized_file_is_skipped_for_its_size_like_in_a_full_index() {
        let base: BTreeMap<String, String> = [("a.py".to_string(), "1".to_string())].into();
        let changes = vec![FileChange::Oversized { path: "big.py".into(), blob_id: "9".into(), more_than: 100 }];
        let overlay = OverlaySnapshot::new(&base, changes, Vec::new(), None);
        let exclusions = super::super::Exclusions::new(&[]).unwrap();
        let (selected, skipped) = super::super::select_python_files(overlay.files(), &exclusions, 100);
        assert_eq!(selected.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(), ["a.py"]);
        assert_eq!(skipped.len(), 1);
        assert_eq!(skipped[0].path, "big.py");
    }
}
