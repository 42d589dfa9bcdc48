//! `strata fetch --out DIR`: download the latest index artifact of this repository (the newest
//! successful push, manual or scheduled run of the index workflow on the default branch) so that `index --previous DIR` can
//! reuse it. No index yet, or an expired one, is normal on a first run: a notice, exit 0, and no `DIR`
//! (the index then rebuilds from scratch). An artifact that is refused (too large, unsafe) or damaged
//! (not a zip, no valid manifest) is treated the same way, with a warning: a bad artifact must not stop
//! the index workflow for good, and `DIR` is never left half-written.

use anyhow::{Context, Result, bail};
use serde::Deserialize;

use super::bot::{client_settings, limits};
use super::output::{escape_data, in_github_actions};
use crate::cli::FetchArgs;
use strata_core::bundle::Manifest;
use strata_github::artifact::{
    IndexSource, MissingIndex, RefusedIndex, download_index, find_index_artifact, short_sha,
};
use strata_github::client::GitHub;

#[derive(Deserialize)]
struct RepositoryInfo {
    id: u64,
    default_branch: String,
}

pub fn run_fetch_command(args: &FetchArgs) -> Result<()> {
    let Some((owner, repo)) = args.github.repository.split_once('/') else {
        bail!("--repository must be owner/name, not {:?}", args.github.repository);
    };
    if args.out.exists() {
        bail!("{} already exists; give `strata fetch --out` a new directory", args.out.display());
    }
    let token = strata_core::secret::Secret::new(std::env::var("GITHUB_TOKEN").unwrap_or_default());
    let fetched = super::runtime()?.block_on(async {
        let github = GitHub::new(&client_settings(&args.github, token))?;
        let info: RepositoryInfo = github.get_json(&format!("/repos/{owner}/{repo}")).await?;
        let source = IndexSource {
            owner: owner.to_string(),
            repo: repo.to_string(),
            repository_id: info.id,
            default_branch: info.default_branch,
            workflow: args.github.index_workflow.clone(),
            artifact_name: args.github.artifact_name.clone(),
        };
        let found = match find_index_artifact(&github, &source).await {
            Ok(found) => found,
            Err(error) if error.downcast_ref::<MissingIndex>().is_some() => {
                return Ok(Err(Unusable::Missing(error.to_string())));
            }
            Err(error) => return Err(error),
        };
        match download_index(&github, &source, &found, &args.out, limits(&args.github)).await {
            Ok(()) => anyhow::Ok(Ok(found)),
            Err(error) if error.downcast_ref::<RefusedIndex>().is_some() => Ok(Err(Unusable::Refused(error))),
            Err(error) => Err(error),
        }
    })?;
    let fetched = match fetched {
        Ok(found) => match Manifest::read(&args.out) {
            Ok(_) => Ok(found),
            Err(error) => {
                std::fs::remove_dir_all(&args.out)
                    .with_context(|| format!("cannot remove the damaged index in {}", args.out.display()))?;
                Err(Unusable::Refused(error.context("the downloaded index has no valid manifest")))
            }
        },
        Err(unusable) => Err(unusable),
    };
    match fetched {
        Ok(found) => {
            eprintln!(
                "strata fetch: index of commit {} (run #{}) unpacked into {}",
                short_sha(&found.run.head_sha),
                found.run.run_number,
                args.out.display()
            );
        }
        Err(Unusable::Missing(notice)) if in_github_actions() => {
            eprintln!("::notice title=strata fetch::{}", escape_data(&notice));
        }
        Err(Unusable::Missing(notice)) => eprintln!("strata fetch: {notice}"),
        Err(Unusable::Refused(error)) => {
            let message = format!("{error:#}; the index will be rebuilt from scratch");
            if in_github_actions() {
                eprintln!("::warning title=strata fetch::{}", escape_data(&message));
            } else {
                eprintln!("strata fetch: warning: {message}");
            }
        }
    }
    Ok(())
}

/// Why there is no previous index to reuse: none yet (normal), or one that could not be used.
enum Unusable {
    Missing(String),
    Refused(anyhow::Error),
}
