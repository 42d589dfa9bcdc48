//! Finding and fetching the latest index. The source of truth is the artifact of the newest successful
//! `push`, `workflow_dispatch` or `schedule` run of the index workflow on the default branch of this
//! repository (events whose code is the branch itself), never "the newest
//! artifact with this name": a fork's pull-request run can upload an artifact of any name into the
//! base repository. So the run must be on the default branch with this repository as its head, and
//! the artifact must belong to that run.

use std::io::{BufReader, Seek, SeekFrom};
use std::path::Path;

use anyhow::{Context, Result};
use serde::Deserialize;

use super::client::GitHub;
use super::percent_encode;
use super::unzip::{ArchiveLimits, UnsafeArchive, unpack};

/// Which repository, workflow and artifact to look in.
#[derive(Debug, Clone)]
pub struct IndexSource {
    pub owner: String,
    pub repo: String,
    pub repository_id: u64,
    pub default_branch: String,
    /// Workflow file name, e.g. `strata-index.yml`.
    pub workflow: String,
    pub artifact_name: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct WorkflowRuns {
    pub workflow_runs: Vec<WorkflowRun>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct WorkflowRun {
    pub id: u64,
    pub head_branch: Option<String>,
    pub head_sha: String,
    pub event: String,
    pub conclusion: Option<String>,
    #[serde(default)]
    pub run_number: u64,
    pub updated_at: String,
    #[serde(default)]
    pub html_url: Option<String>,
    pub head_repository: Option<RepositoryRef>,
    pub repository: Option<RepositoryRef>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct RepositoryRef {
    pub id: u64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Artifacts {
    pub artifacts: Vec<Artifact>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Artifact {
    pub id: u64,
    pub name: String,
    pub size_in_bytes: u64,
    pub expired: bool,
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default)]
    pub expires_at: Option<String>,
    pub workflow_run: Option<ArtifactRun>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ArtifactRun {
    pub id: u64,
    #[serde(default)]
    pub head_repository_id: Option<u64>,
    #[serde(default)]
    pub head_branch: Option<String>,
}

/// The artifact chosen, with the run that built it.
#[derive(Debug, Clone)]
pub struct IndexArtifact {
    pub artifact: Artifact,
    pub run: WorkflowRun,
}

/// Why there is no usable index; each says what to do about it.
#[derive(Debug, thiserror::Error)]
pub enum MissingIndex {
    #[error(
        "there is no index yet: `{workflow}` has no successful run on `{branch}` with an artifact named `{artifact}`. Push to `{branch}` (or run the workflow) and ask again."
    )]
    NotBuilt { workflow: String, branch: String, artifact: String },
    #[error(
        "the latest index (run #{run_number}, commit {commit}) has expired{expired_at}. Re-run `{workflow}` on `{branch}` and ask again."
    )]
    Expired { run_number: u64, commit: String, expired_at: String, workflow: String, branch: String },
    #[error("the latest index artifact is {size} bytes, more than the {limit}-byte limit")]
    TooLarge { size: u64, limit: u64 },
    #[error(
        "the organisation's store {store} has no repositories yet: run `strata index --org {store}` in each repository's index workflow, then ask again."
    )]
    EmptyOrganisation { store: String },
}

/// An artifact that was found but could not be used: too large, not a zip, or unsafe. `strata fetch`
/// treats it like no index (the index is rebuilt); the bot says why it cannot answer.
#[derive(Debug, thiserror::Error)]
#[error("the index artifact could not be used")]
pub struct RefusedIndex(#[source] pub anyhow::Error);

/// How many of the newest successful runs are searched for the artifact.
const RUNS_SEARCHED: usize = 20;

/// The events whose runs check out the default branch itself; a `pull_request` or `workflow_run` run's
/// artifact could hold anything.
const TRUSTED_EVENTS: [&str; 3] = ["push", "workflow_dispatch", "schedule"];

/// Finds the artifact of the newest successful trusted run on the default branch that has one.
pub async fn find_index_artifact(github: &GitHub, source: &IndexSource) -> Result<IndexArtifact> {
    let IndexSource { owner, repo, workflow, default_branch, artifact_name, .. } = source;
    let runs: WorkflowRuns = github
        .get_json(&format!(
            "/repos/{owner}/{repo}/actions/workflows/{workflow}/runs?branch={}&status=success&per_page={RUNS_SEARCHED}",
            percent_encode(default_branch)
        ))
        .await?;
    let mut expired = None;
    for run in runs.workflow_runs.into_iter().filter(|run| is_trusted_run(run, source)) {
        let artifacts: Artifacts = github
            .get_json(&format!(
                "/repos/{owner}/{repo}/actions/runs/{}/artifacts?name={}&per_page=100",
                run.id,
                percent_encode(artifact_name)
            ))
            .await?;
        let belongs = |artifact: &Artifact| {
            artifact.name == *artifact_name
                && artifact
                    .workflow_run
                    .as_ref()
                    .is_some_and(|r| r.id == run.id && r.head_repository_id.is_none_or(|id| id == source.repository_id))
        };
        let Some(artifact) = artifacts.artifacts.into_iter().find(belongs) else {
            continue;
        };
        if artifact.expired {
            expired.get_or_insert(IndexArtifact { artifact, run });
            continue;
        }
        return Ok(IndexArtifact { artifact, run });
    }
    Err(match expired {
        Some(found) => MissingIndex::Expired {
            run_number: found.run.run_number,
            commit: short_sha(&found.run.head_sha),
            expired_at: found.artifact.expires_at.map_or(String::new(), |at| format!(" on {at}")),
            workflow: workflow.clone(),
            branch: default_branch.clone(),
        }
        .into(),
        None => MissingIndex::NotBuilt {
            workflow: workflow.clone(),
            branch: default_branch.clone(),
            artifact: artifact_name.clone(),
        }
        .into(),
    })
}

/// A successful trusted run on the default branch whose code came from this repository (not a fork).
fn is_trusted_run(run: &WorkflowRun, source: &IndexSource) -> bool {
    TRUSTED_EVENTS.contains(&run.event.as_str())
        && run.conclusion.as_deref() == Some("success")
        && run.head_branch.as_deref() == Some(source.default_branch.as_str())
        && run.head_repository.as_ref().is_some_and(|repo| repo.id == source.repository_id)
        && run.repository.as_ref().is_none_or(|repo| repo.id == source.repository_id)
}

/// Downloads the artifact's zip (GitHub redirects to a storage host; the token is not sent there) and
/// unpacks it safely into `dest`, which must not exist yet.
pub async fn download_index(
    github: &GitHub,
    source: &IndexSource,
    found: &IndexArtifact,
    dest: &Path,
    limits: ArchiveLimits,
) -> Result<()> {
    if found.artifact.size_in_bytes > limits.max_bytes {
        let too_large = MissingIndex::TooLarge { size: found.artifact.size_in_bytes, limit: limits.max_bytes };
        return Err(RefusedIndex(too_large.into()).into());
    }
    let route = format!("/repos/{}/{}/actions/artifacts/{}/zip", source.owner, source.repo, found.artifact.id);
    // Streamed to a temporary file next to `dest` (removed when done), never held in memory.
    let parent = dest.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut zip = tempfile::tempfile_in(parent).with_context(|| format!("cannot write in {}", parent.display()))?;
    match github.download_to(&route, &mut zip, limits.max_bytes).await {
        Err(super::client::RequestError::TooLarge { .. }) => {
            return Err(RefusedIndex(UnsafeArchive::TooLarge(limits.max_bytes).into()).into());
        }
        other => other?,
    };
    zip.seek(SeekFrom::Start(0)).context("cannot read the download back")?;
    unpack(BufReader::new(zip), dest, limits)
        .map_err(|error| RefusedIndex(error.context(format!("refused the index artifact {}", found.artifact.id))))?;
    Ok(())
}

pub fn short_sha(sha: &str) -> String {
    sha.chars().take(12).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source() -> IndexSource {
        IndexSource {
            owner: "o".into(),
            repo: "r".into(),
            repository_id: 7,
            default_branch: "main".into(),
            workflow: "strata-index.yml".into(),
            artifact_name: "strata-index".into(),
        }
    }

    fn run(branch: &str, head_repo: u64, event: &str) -> WorkflowRun {
        WorkflowRun {
            id: 1,
            head_branch: Some(branch.into()),
            head_sha: "abc".into(),
            event: event.into(),
            conclusion: Some("success".into()),
            run_number: 1,
            updated_at: "2026-01-01T00:00:00Z".into(),
            html_url: None,
            head_repository: Some(RepositoryRef { id: head_repo }),
            repository: Some(RepositoryRef { id: 7 }),
        }
    }

    #[test]
    fn only_push_runs_of_this_repository_on_the_default_branch_count() {
        assert!(is_trusted_run(&run("main", 7, "push"), &source()));
        assert!(!is_trusted_run(&run("main", 99, "push"), &source()), "a fork's head");
        assert!(!is_trusted_run(&run("feature", 7, "push"), &source()));
        assert!(!is_trusted_run(&run("main", 7, "pull_request"), &source()));
        assert!(!is_trusted_run(&run("main", 7, "workflow_run"), &source()));
        assert!(is_trusted_run(&run("main", 7, "workflow_dispatch"), &source()), "a manual run on main");
        assert!(is_trusted_run(&run("main", 7, "schedule"), &source()));
    }
}
