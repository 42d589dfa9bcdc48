//! `strata fetch --out DIR`: download the latest index artifact of this repository (the newest
//! successful push run of the index workflow on the default branch) so that `index --previous DIR` can
//! reuse it. No index yet, or an expired one, is normal on a first run: a notice, exit 0, and no `DIR`
//! (the index then rebuilds from scratch).

use anyhow::{Context, Result, bail};
use serde::Deserialize;

use super::bot::{client_settings, limits};
use super::output::{escape_data, in_github_actions};
use crate::bundle::Manifest;
use crate::cli::FetchArgs;
use crate::github::artifact::{IndexSource, MissingIndex, download_index, find_index_artifact, short_sha};
use crate::github::client::GitHub;

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
    let token = std::env::var("GITHUB_TOKEN").unwrap_or_default();
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
            Err(error) if error.downcast_ref::<MissingIndex>().is_some() => return Ok(Err(error.to_string())),
            Err(error) => return Err(error),
        };
        download_index(&github, &source, &found, &args.out, limits(&args.github)).await?;
        anyhow::Ok(Ok(found))
    })?;
    match fetched {
        Ok(found) => {
            Manifest::read(&args.out).context("the downloaded index has no valid manifest")?;
            eprintln!(
                "strata fetch: index of commit {} (run #{}) unpacked into {}",
                short_sha(&found.run.head_sha),
                found.run.run_number,
                args.out.display()
            );
        }
        Err(notice) if in_github_actions() => eprintln!("::notice title=strata fetch::{}", escape_data(&notice)),
        Err(notice) => eprintln!("strata fetch: {notice}"),
    }
    Ok(())
}
