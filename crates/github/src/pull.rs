//! A pull request as the bot sees it, through the API alone: its head commit and the files it changes
//! (listed, and only the blobs the default branch's index does not hold already are read), laid over
//! that index to give the head's import graph and the change's impact. The pull request's code is
//! data here, never checked out or run; a fork's pull request is read from the base repository, which
//! holds its commits (`refs/pull/N/head`), so no call goes to the fork.
//!
//! Blob reads are bounded ([`BlobLimits`]): each answer is read only up to the size of a file the index
//! would take (`max_file_bytes`, itself capped), and a larger file is laid over the index as too large
//! to index, as a full run would skip it; all blobs together are capped too, past which the bot says
//! the change is too large to read and what to run instead.

use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::{Context, Result, bail};
use base64::Engine;
use futures::{StreamExt, TryStreamExt};
use serde::Deserialize;

use super::client::{GitHub, RequestError};
use strata_core::bundle::Manifest;
use strata_core::config::IndexOptions;
use strata_core::graph_view::TestModules;
use strata_core::impact::{Impact, impact};
use strata_core::source::{FileChange, OverlaySnapshot};
use strata_index::{Head, IndexRequest, Silent, build_head};

/// Files per page of the files listing (GitHub's maximum).
const FILES_PER_PAGE: usize = 100;
/// GitHub lists at most 3,000 files of a pull request.
const MAX_FILE_PAGES: usize = 30;
/// Blob reads in flight at once.
const BLOB_READS_AT_ONCE: usize = 8;

/// How much of a pull request's blobs the bot reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlobLimits {
    /// Most bytes of one blob, whatever the index's `max_file_bytes` says.
    pub per_blob: u64,
    /// Most bytes of all the blobs of one pull request together.
    pub total: u64,
}

impl Default for BlobLimits {
    fn default() -> BlobLimits {
        BlobLimits { per_blob: 16 << 20, total: 64 << 20 }
    }
}

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

/// One blob's bytes (the API sends them base64-encoded, wrapped in lines), or `None` when it holds more
/// than `max_bytes`: its answer is read no further than a blob of that size needs.
async fn read_blob(github: &GitHub, owner: &str, repo: &str, sha: &str, max_bytes: u64) -> Result<Option<Vec<u8>>> {
    if !sha.bytes().all(|b| b.is_ascii_hexdigit()) {
        bail!("the blob id {sha:?} is not hexadecimal");
    }
    let route = format!("/repos/{owner}/{repo}/git/blobs/{sha}");
    let blob: BlobJson = match github.get_json_within(&route, blob_answer_bytes(max_bytes)).await {
        Ok(blob) => blob,
        Err(RequestError::TooLarge { .. }) => return Ok(None),
        Err(error) => return Err(error.into()),
    };
    if blob.encoding != "base64" {
        bail!("blob {sha} came as {:?}, not base64", blob.encoding);
    }
    let packed: String = blob.content.split_whitespace().collect();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(packed)
        .with_context(|| format!("blob {sha} is not valid base64"))?;
    Ok((bytes.len() as u64 <= max_bytes).then_some(bytes))
}

/// The most bytes the API's answer for a blob of `bytes` can take: base64 (4 characters per 3 bytes) in
/// lines of 60 characters, each line break written `\n` in the JSON, and the other fields.
fn blob_answer_bytes(bytes: u64) -> u64 {
    let encoded = bytes.div_ceil(3).saturating_mul(4);
    encoded.saturating_add(encoded.div_ceil(60).saturating_mul(2)).saturating_add(4_096)
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
    let read = read_changes(github, owner, repo, planned, selection.max_file_bytes, BlobLimits::default()).await?;
    // The index's modules skipped for their size are modules of the head too (unless the change
    // rewrites or deletes them, which comes after).
    let mut changes: Vec<FileChange> = selection
        .skipped
        .iter()
        .map(|(path, blob_id)| FileChange::Oversized {
            path: path.clone(),
            blob_id: blob_id.clone(),
            more_than: selection.max_file_bytes,
        })
        .collect();
    changes.extend(read);
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
        previous_without_table: false,
    };
    let head = build_head(&request, &Silent).await?;
    let Some(base) = &head.previous else {
        bail!("the index cannot be used as the base ({})", head.previous_status.trim_start_matches("rebuilt: "));
    };
    let tests = TestModules::new(&selection.test_files)?;
    let change = impact(&base.bundle, &base.manifest.files, &head.bundle, &head.files, &tests, false);
    Ok((head, change))
}

/// The planned changes with their blobs read, within `limits`: a blob over `max_file_bytes` becomes
/// [`FileChange::Oversized`] (skipped for its size, as a full index would); one over the limit per blob
/// that the index would have taken, or more than the total, makes the change unavailable.
async fn read_changes(
    github: &GitHub,
    owner: &str,
    repo: &str,
    planned: Vec<Planned>,
    max_file_bytes: u64,
    limits: BlobLimits,
) -> Result<Vec<FileChange>> {
    let per_blob = limits.per_blob.min(max_file_bytes);
    let read_so_far = AtomicU64::new(0);
    let too_much = || {
        ChangeUnavailable(format!(
            "this pull request changes more Python code than the bot reads ({} bytes in files the index does not hold); its impact is in the pull-request workflow's summary (`strata impact`), or run `strata impact --previous <index of the default branch>` on its branch",
            limits.total
        ))
    };
    futures::stream::iter(planned)
        .map(|planned| {
            let read_so_far = &read_so_far;
            async move {
                let (path, blob_id) = match planned {
                    Planned::Ready(change) => return Ok(change),
                    Planned::Read { path, blob_id } => (path, blob_id),
                };
                if read_so_far.load(Ordering::Relaxed) >= limits.total {
                    return Err(too_much().into());
                }
                let read = read_blob(github, owner, repo, &blob_id, per_blob)
                    .await
                    .with_context(|| format!("cannot read {path} of the pull request"))?;
                match read {
                    Some(bytes) => {
                        let size = bytes.len() as u64;
                        if read_so_far.fetch_add(size, Ordering::Relaxed) + size > limits.total {
                            return Err(too_much().into());
                        }
                        Ok(FileChange::Write { path, blob_id, bytes: Some(bytes) })
                    }
                    None if per_blob == max_file_bytes => {
                        Ok(FileChange::Oversized { path, blob_id, more_than: max_file_bytes })
                    }
                    None => Err(ChangeUnavailable(format!(
                        "{path} in this pull request is larger than the {per_blob} bytes the bot reads of one file; run `strata impact --previous <index of the default branch>` on its branch instead"
                    ))
                    .into()),
                }
            }
        })
        .buffered(BLOB_READS_AT_ONCE)
        .try_collect()
        .await
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
                Planned::Ready(FileChange::Oversized { path, .. }) => format!("oversized {path}"),
            })
            .collect();
        assert_eq!(described, ["read pkg/a.py", "delete pkg/b.py", "delete pkg/old.py", "write pkg/new.py false"]);
    }

    /// A fake GitHub serving one blob per id, each `size` bytes of Python.
    async fn blobs(sizes: &[(&str, usize)]) -> (wiremock::MockServer, GitHub) {
        use wiremock::matchers::{method, path};
        use wiremock::{Mock, MockServer, ResponseTemplate};
        let server = MockServer::start().await;
        for (sha, size) in sizes {
            let content = base64::engine::general_purpose::STANDARD.encode("x = 1\n".repeat(size / 6).into_bytes());
            // Wrapped in lines of 60 characters, as the API sends it.
            let wrapped: Vec<String> =
                content.as_bytes().chunks(60).map(|c| String::from_utf8_lossy(c).into()).collect();
            Mock::given(method("GET"))
                .and(path(format!("/repos/acme/shop/git/blobs/{sha}")))
                .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!({
                    "sha": sha, "size": size, "content": wrapped.join("\n"), "encoding": "base64",
                    "url": format!("https://api.github.com/repos/acme/shop/git/blobs/{sha}"), "node_id": "B_x"
                })))
                .mount(&server)
                .await;
        }
        let settings = crate::client::ClientSettings {
            api_url: server.uri(),
            token: strata_core::secret::Secret::new(""),
            max_rate_limit_wait: std::time::Duration::from_secs(1),
            secondary_rate_limit_wait: std::time::Duration::from_secs(1),
        };
        let github = GitHub::new(&settings).unwrap();
        (server, github)
    }

    fn read(sha: &str) -> Planned {
        Planned::Read { path: format!("{sha}.py"), blob_id: sha.into() }
    }

    fn described(changes: &[FileChange]) -> Vec<String> {
        changes
            .iter()
            .map(|change| match change {
                FileChange::Write { path, bytes, .. } => format!("{path} {}", bytes.as_ref().map_or(0, Vec::len)),
                FileChange::Oversized { path, more_than, .. } => format!("{path} over {more_than}"),
                FileChange::Delete { path } => format!("{path} deleted"),
            })
            .collect()
    }

    /// Issue 30, Low 7: blobs were read whole (up to 256 MiB each, 8 at a time). One larger than the
    /// index would take is now read no further than that and laid over the index as too large.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_blob_larger_than_the_index_takes_is_not_read_whole() {
        let (_server, github) = blobs(&[("aa", 600), ("bb", 60_000)]).await;
        let limits = BlobLimits { per_blob: 1 << 20, total: 1 << 20 };
        let changes = read_changes(&github, "acme", "shop", vec![read("aa"), read("bb")], 1_000, limits).await.unwrap();
        assert_eq!(described(&changes), ["aa.py 600", "bb.py over 1000"]);
        assert!(blob_answer_bytes(1_000) < 60_000, "the answer is cut long before its end");
    }

    /// A file the index would take but the bot will not read (over the cap per blob), and more than the
    /// total: the change is unavailable, with what to run instead.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn blob_reads_are_capped_per_blob_and_in_total() {
        let (_server, github) = blobs(&[("aa", 600), ("bb", 600), ("cc", 600), ("dd", 6_000)]).await;
        let limits = BlobLimits { per_blob: 1_000, total: 1_500 };
        let error = read_changes(&github, "acme", "shop", vec![read("dd")], 1 << 20, limits).await.unwrap_err();
        let unavailable = error.downcast_ref::<ChangeUnavailable>().expect("a change too large to read");
        assert!(unavailable.0.contains("dd.py") && unavailable.0.contains("strata impact"), "{unavailable}");
        let error = read_changes(&github, "acme", "shop", vec![read("aa"), read("bb"), read("cc")], 1 << 20, limits)
            .await
            .unwrap_err();
        let unavailable = error.downcast_ref::<ChangeUnavailable>().expect("more than the total");
        assert!(unavailable.0.contains("1500 bytes") && unavailable.0.contains("strata impact"), "{unavailable}");
        let fits = read_changes(&github, "acme", "shop", vec![read("aa"), read("bb")], 1 << 20, limits).await.unwrap();
        assert_eq!(described(&fits), ["aa.py 600", "bb.py 600"]);
    }
}
