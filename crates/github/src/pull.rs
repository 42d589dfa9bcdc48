//! A pull request as the bot sees it, through the API alone: its head commit and the files it changes
//! (listed, and only the blobs the default branch's index does not hold already are read), laid over
//! that index to give the head's import graph and the change's impact. The pull request's code is
//! data here, never checked out or run; a fork's pull request is read from the base repository, which
//! holds its commits (`refs/pull/N/head`), so no call goes to the fork.

use std::collections::HashSet;
use std::path::Path;

use anyhow::{Context, Result, bail};
use base64::Engine;
use futures::{StreamExt, TryStreamExt};
use serde::Deserialize;

use super::client::GitHub;
use strata_core::bundle::Manifest;
use strata_core::config::IndexOptions;
use strata_core::impact::{Impact, impact, test_file_matcher};
use strata_core::source::{FileChange, OverlaySnapshot};
use strata_index::{Head, IndexRequest, Silent, build_head};

/// Files per page of the files listing (GitHub's maximum).
const FILES_PER_PAGE: usize = 100;
/// GitHub lists at most 3,000 files of a pull request.
const MAX_FILE_PAGES: usize = 30;
/// Blob reads in flight at once.
const BLOB_READS_AT_ONCE: usize = 8;

/// Why the change cannot be computed from this index, in words for the person who asked.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ChangeUnavailable(pub String);

/// What the bot needs to know about a pull request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PullRequest {
    pub number: u64,
    pub head_sha: String,
    /// The branch it would merge into.
    pub base_branch: String,
    /// `owner/name` of the repository its head is in (another one for a fork).
    pub head_repository: Option<String>,
}

#[derive(Deserialize)]
struct PullJson {
    number: u64,
    head: BranchJson,
    base: BranchJson,
}

#[derive(Deserialize)]
struct BranchJson {
    #[serde(rename = "ref")]
    name: String,
    sha: String,
    /// `null` when the head repository was deleted.
    repo: Option<RepositoryJson>,
}

#[derive(Deserialize)]
struct RepositoryJson {
    full_name: String,
}

/// One entry of `GET /repos/{owner}/{repo}/pulls/{number}/files`.
#[derive(Debug, Clone, Deserialize)]
pub struct PullFile {
    pub filename: String,
    /// `added`, `removed`, `modified`, `renamed`, `copied`, `changed` or `unchanged`.
    pub status: String,
    /// The blob at the head (absent for some removals).
    #[serde(default)]
    pub sha: Option<String>,
    #[serde(default)]
    pub previous_filename: Option<String>,
}

#[derive(Deserialize)]
struct BlobJson {
    content: String,
    encoding: String,
}

pub async fn fetch_pull(github: &GitHub, owner: &str, repo: &str, number: u64) -> Result<PullRequest> {
    let pull: PullJson = github.get_json(&format!("/repos/{owner}/{repo}/pulls/{number}")).await?;
    Ok(PullRequest {
        number: pull.number,
        head_sha: pull.head.sha,
        base_branch: pull.base.name,
        head_repository: pull.head.repo.map(|r| r.full_name),
    })
}

/// Every file the pull request changes, and whether GitHub's 3,000-file cap cut the list short.
pub async fn list_files(github: &GitHub, owner: &str, repo: &str, number: u64) -> Result<(Vec<PullFile>, bool)> {
    let mut files = Vec::new();
    for page in 1..=MAX_FILE_PAGES {
        let route = format!("/repos/{owner}/{repo}/pulls/{number}/files?per_page={FILES_PER_PAGE}&page={page}");
        let listed: Vec<PullFile> = github.get_json(&route).await?;
        let last = listed.len() < FILES_PER_PAGE;
        files.extend(listed);
        if last {
            return Ok((files, false));
        }
    }
    Ok((files, true))
}

/// One blob's bytes (the API sends them base64-encoded, wrapped in lines).
async fn read_blob(github: &GitHub, owner: &str, repo: &str, sha: &str) -> Result<Vec<u8>> {
    if !sha.bytes().all(|b| b.is_ascii_hexdigit()) {
        bail!("the blob id {sha:?} is not hexadecimal");
    }
    let blob: BlobJson = github.get_json(&format!("/repos/{owner}/{repo}/git/blobs/{sha}")).await?;
    if blob.encoding != "base64" {
        bail!("blob {sha} came as {:?}, not base64", blob.encoding);
    }
    let packed: String = blob.content.split_whitespace().collect();
    base64::engine::general_purpose::STANDARD.decode(packed).with_context(|| format!("blob {sha} is not valid base64"))
}

/// A file of the pull request whose blob must be read, or a change the overlay takes as it is.
enum Planned {
    Read { path: String, blob_id: String },
    Ready(FileChange),
}

/// The pull request's changes to Python files under the indexed `folder`, as paths in it. A blob the
/// index holds already (a file moved unchanged) is not read again.
fn plan_changes(files: &[PullFile], folder: &str, known_blobs: &HashSet<&str>) -> Vec<Planned> {
    let inside = |path: &str| -> Option<String> {
        let relative = path.strip_prefix(folder)?;
        relative.ends_with(".py").then(|| relative.to_string())
    };
    let mut planned = Vec::new();
    for file in files {
        if file.status == "renamed"
            && let Some(from) = file.previous_filename.as_deref().and_then(inside)
        {
            planned.push(Planned::Ready(FileChange::Delete { path: from }));
        }
        let Some(path) = inside(&file.filename) else { continue };
        match (file.status.as_str(), &file.sha) {
            ("removed", _) => planned.push(Planned::Ready(FileChange::Delete { path })),
            ("unchanged", _) | (_, None) => {}
            (_, Some(sha)) if known_blobs.contains(sha.as_str()) => {
                planned.push(Planned::Ready(FileChange::Write { path, blob_id: sha.clone(), bytes: None }))
            }
            (_, Some(sha)) => planned.push(Planned::Read { path, blob_id: sha.clone() }),
        }
    }
    planned
}

/// The head of the pull request (the index's files with the pull request's changes) and its impact
/// against the index in `index_dir`. `owner/repo` is the base repository: its API serves the blobs of
/// every pull request made to it, forks' included.
pub async fn pull_request_impact(
    github: &GitHub,
    owner: &str,
    repo: &str,
    pull: &PullRequest,
    files: &[PullFile],
    index_dir: &Path,
    manifest: &Manifest,
) -> Result<(Head, Impact)> {
    let Some(selection) = &manifest.selection else {
        return Err(ChangeUnavailable(
            "the index was built by an older strata (or not from a git commit), so it does not record how its files were selected; re-run the index workflow on the default branch, then ask again".into(),
        )
        .into());
    };
    let known_blobs: HashSet<&str> = manifest.files.values().map(String::as_str).collect();
    let planned = plan_changes(files, &selection.folder, &known_blobs);
    let changes: Vec<FileChange> = futures::stream::iter(planned)
        .map(|planned| async move {
            match planned {
                Planned::Ready(change) => Ok(change),
                Planned::Read { path, blob_id } => {
                    let bytes = read_blob(github, owner, repo, &blob_id)
                        .await
                        .with_context(|| format!("cannot read {path} of the pull request"))?;
                    Ok::<_, anyhow::Error>(FileChange::Write { path, blob_id, bytes: Some(bytes) })
                }
            }
        })
        .buffered(BLOB_READS_AT_ONCE)
        .try_collect()
        .await?;
    let overlay =
        OverlaySnapshot::new(&manifest.files, changes, selection.enclosing.clone(), Some(pull.head_sha.clone()));
    let options = IndexOptions {
        exclude: selection.exclude.clone(),
        source_roots: selection.source_roots.clone(),
        max_file_bytes: Some(selection.max_file_bytes),
    };
    // The embedder only names vectors a full index would hold: nothing is embedded.
    let embedder = strata_search::embed::HashingEmbedder;
    let request = IndexRequest {
        path: index_dir,
        rev: &pull.head_sha,
        out_dir: index_dir,
        options: &options,
        embedder: &embedder,
        previous: Some(index_dir),
        overlay: Some(&overlay),
        repository_url: None,
        graph_only: true,
    };
    let head = build_head(&request, &Silent).await?;
    let Some(base) = &head.previous else {
        bail!("the index cannot be used as the base ({})", head.previous_status.trim_start_matches("rebuilt: "));
    };
    let matcher = test_file_matcher(&selection.test_files)?;
    let change = impact(&base.bundle, &base.manifest.files, &head.bundle, &head.files, &matcher, false);
    Ok((head, change))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(filename: &str, status: &str, sha: &str, previous: Option<&str>) -> PullFile {
        PullFile {
            filename: filename.into(),
            status: status.into(),
            sha: Some(sha.into()),
            previous_filename: previous.map(Into::into),
        }
    }

    #[test]
    fn only_python_files_in_the_indexed_folder_are_planned_and_known_blobs_are_not_read() {
        let files = [
            file("src/pkg/a.py", "modified", "aa", None),
            file("src/pkg/b.py", "removed", "bb", None),
            file("src/pkg/new.py", "renamed", "cc", Some("src/pkg/old.py")),
            file("README.md", "modified", "dd", None),
            file("tools/x.py", "added", "ee", None),
        ];
        let known: HashSet<&str> = ["cc"].into();
        let planned = plan_changes(&files, "src/", &known);
        let described: Vec<String> = planned
            .iter()
            .map(|p| match p {
                Planned::Read { path, .. } => format!("read {path}"),
                Planned::Ready(FileChange::Delete { path }) => format!("delete {path}"),
                Planned::Ready(FileChange::Write { path, bytes, .. }) => format!("write {path} {}", bytes.is_some()),
            })
            .collect();
        assert_eq!(described, ["read pkg/a.py", "delete pkg/b.py", "delete pkg/old.py", "write pkg/new.py false"]);
    }
}
