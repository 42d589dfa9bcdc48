//! Index locations as the commands read them: a local directory is used where it is; an index on
//! object storage is copied into a temporary directory first, only the files the command reads
//! (never the LanceDB table, except for `index --previous`, whose update rewrites the table's files in
//! place). `ask` does not come here: it reads an index on object storage in place
//! (`LoadedIndex::open_at`).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use strata_core::bundle::BUNDLE_ZST_FILE;
use strata_search::location::{IndexLocation, ObjectLocation, RemoteIndex};

/// The files `diff` and `graph` read: the bundle compressed (`bundle.json` for an index without it).
pub(crate) const GRAPH_FILES: &[&str] = &["manifest.json", BUNDLE_ZST_FILE];
/// The files a base index is read from by `impact` and `check` (`strata_index::build_head`).
pub(crate) const BASE_FILES: &[&str] = &["manifest.json", BUNDLE_ZST_FILE, "facts.parquet"];

/// A local directory holding (the needed files of) an index; a temporary copy is deleted on drop.
pub(crate) struct StagedIndex {
    dir: PathBuf,
    _copy: Option<tempfile::TempDir>,
}

impl StagedIndex {
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }
}

/// The index at `location` with at least `files` readable locally. An index on object storage
/// without a manifest is an error that says so.
pub(crate) fn stage(location: &IndexLocation, files: &[&str]) -> Result<StagedIndex> {
    let object = match location {
        IndexLocation::Local(dir) => return Ok(StagedIndex { dir: dir.clone(), _copy: None }),
        IndexLocation::Object(object) => object,
    };
    let staged = download(object, Some(files))?;
    if !staged.dir.join("manifest.json").is_file() {
        bail!("{object} is not a strata index (no manifest.json); run `strata index --out {object}` first");
    }
    Ok(staged)
}

/// A previous index for `index --previous`, whole. An empty prefix gives an empty directory: the run
/// then warns and rebuilds from scratch, as for a missing local directory.
pub(crate) fn stage_previous(location: &IndexLocation) -> Result<StagedIndex> {
    match location {
        IndexLocation::Local(dir) => Ok(StagedIndex { dir: dir.clone(), _copy: None }),
        IndexLocation::Object(object) => download(object, None),
    }
}

fn download(object: &ObjectLocation, files: Option<&[&str]>) -> Result<StagedIndex> {
    let copy =
        tempfile::Builder::new().prefix("strata-index-").tempdir().context("cannot create a temporary directory")?;
    let remote = RemoteIndex::open(object)?;
    let runtime = super::runtime()?;
    runtime.block_on(remote.download(copy.path(), files))?;
    // An index written before the compressed bundle existed has only `bundle.json`.
    if files.is_some_and(|files| files.contains(&BUNDLE_ZST_FILE)) && !copy.path().join(BUNDLE_ZST_FILE).is_file() {
        runtime.block_on(remote.download(copy.path(), Some(&["bundle.json"])))?;
    }
    Ok(StagedIndex { dir: copy.path().to_path_buf(), _copy: Some(copy) })
}
