//! `strata index --org` and `strata ask --org`: an organisation's repositories in one object-store
//! prefix. Indexing builds the repository's index as for `--out`, uploads it as a new version under
//! `repos/NAME/`, records it in the catalog by conditional put (retried when another repository's job
//! committed first), and then deletes this repository's versions older than the one it replaced.
//! Asking reads the catalog once and joins every repository's graph.

use std::fmt;

use anyhow::{Context, Result, bail};
use serde::Serialize;
use sha2::{Digest, Sha256};

use super::index::{build_index, name_location};
use super::staged::stage_previous;
use crate::cli::IndexArgs;
use strata_core::bundle::{read_bundle, read_facts_table};
use strata_core::org::{Catalog, CatalogEntry, check_repository_name, imported_packages, provided_packages};
use strata_index::IndexReport;
use strata_search::location::{CommitRetry, IndexLocation, OrgStore};

/// What `index --org` did in the organisation's store (the `org` key of `--json`).
#[derive(Debug, Serialize)]
pub(crate) struct OrgReport {
    pub org: String,
    pub repository: String,
    /// The new index's prefix under the organisation's.
    pub index: String,
    /// The catalog generation this run committed.
    pub generation: u64,
    pub repositories: usize,
    /// Imports between this repository and the others, both ways.
    pub cross_imports: usize,
    /// Commits by other writers that came first, each followed by a retry.
    pub conflicts: u32,
    /// Files of this repository's older index versions deleted.
    pub removed_files: usize,
}

impl fmt::Display for OrgReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "catalog {} generation {}: {} as {} ({} repositories, {} imports to or from other repositories; {} conflicts retried, {} old files removed)",
            self.org,
            self.generation,
            self.repository,
            self.index,
            self.repositories,
            self.cross_imports,
            self.conflicts,
            self.removed_files
        )
    }
}

/// The organisation's store named by `--org`: object storage only (its catalog is committed by
/// conditional put).
pub(crate) fn org_store(location: &IndexLocation) -> Result<OrgStore> {
    match location {
        IndexLocation::Object(object) => OrgStore::open(object),
        IndexLocation::Local(dir) => bail!(
            "--org needs an object-store URL (s3://bucket/prefix), not the folder {}: the catalog is updated by conditional writes",
            dir.display()
        ),
    }
}

pub(crate) fn index_into_org(
    args: &IndexArgs,
    location: &IndexLocation,
    runtime: &tokio::runtime::Runtime,
) -> Result<(IndexReport, OrgReport)> {
    let store = org_store(location)?;
    let name = repository_name(args.name.as_deref(), &args.path)?;
    let (catalog, _) = runtime.block_on(store.catalog())?;
    let replaced = catalog.repositories.get(&name).map(|entry| entry.index.clone());

    let started = std::time::Instant::now();
    let previous_location = replaced.as_ref().map(|index| IndexLocation::Object(store.index_location(index)));
    let previous = previous_location.as_ref().map(stage_previous).transpose()?;
    let download_ms = started.elapsed().as_millis() as u64;
    let dir =
        tempfile::Builder::new().prefix("strata-index-").tempdir().context("cannot create a temporary directory")?;
    let mut report = build_index(args, previous.as_ref(), dir.path(), runtime)?;
    if let (Some(location), Some(staged)) = (&previous_location, &previous) {
        report.timings_ms.insert("download".to_string(), download_ms);
        name_location(&mut report, staged.dir(), &location.to_string());
    }

    // A new prefix for every run: readers of the previous catalog keep reading the previous version.
    let manifest = std::fs::read(dir.path().join("manifest.json")).context("the new index has no manifest.json")?;
    let digest = hex(&Sha256::digest(&manifest))[..12].to_string();
    let commit = report.commit.as_deref().map_or("worktree".to_string(), |c| c[..c.len().min(12)].to_string());
    let index = format!("repos/{name}/{commit}-{digest}");
    let started = std::time::Instant::now();
    runtime
        .block_on(store.index(&index).upload(dir.path()))
        .with_context(|| format!("cannot upload the index to {}", store.index_location(&index)))?;
    report.timings_ms.insert("upload".to_string(), started.elapsed().as_millis() as u64);

    let started = std::time::Instant::now();
    let bundle = read_bundle(dir.path())?;
    let facts = read_facts_table(dir.path())?;
    let entry = CatalogEntry {
        index: index.clone(),
        commit: report.commit.clone(),
        bundle_schema: bundle.schema_version.clone(),
        packages: provided_packages(&bundle),
        imports_packages: imported_packages(&bundle),
        modules: bundle.nodes.len(),
        generation: 0,
    };
    let committed =
        runtime.block_on(store.commit_repository(&name, &entry, &bundle, &facts, CommitRetry::default()))?;
    report.timings_ms.insert("catalog".to_string(), started.elapsed().as_millis() as u64);
    // The version just replaced stays for readers that read the catalog before this commit.
    let keep: Vec<&str> = [Some(index.as_str()), replaced.as_deref()].into_iter().flatten().collect();
    let removed_files = runtime.block_on(store.remove_versions(&name, &keep))?;
    name_location(&mut report, dir.path(), &store.index_location(&index).to_string());

    let cross_imports = committed
        .catalog
        .cross_imports
        .iter()
        .filter(|import| import.importer_repo == name || import.imported_repo == name)
        .count();
    let org = OrgReport {
        org: store.location().to_string(),
        repository: name,
        index,
        generation: committed.catalog.generation,
        repositories: committed.catalog.repositories.len(),
        cross_imports,
        conflicts: committed.conflicts,
        removed_files,
    };
    Ok((report, org))
}

/// `--name`, else the repository's name in GitHub Actions, else the indexed folder's name.
fn repository_name(name: Option<&str>, path: &std::path::Path) -> Result<String> {
    let from_actions = || {
        let repository = std::env::var("GITHUB_REPOSITORY").ok()?;
        repository.rsplit('/').next().filter(|name| !name.is_empty()).map(str::to_string)
    };
    let from_folder = || {
        let path = std::fs::canonicalize(path).ok()?;
        path.file_name()?.to_str().map(str::to_string)
    };
    let name = name
        .map(str::to_string)
        .or_else(from_actions)
        .or_else(from_folder)
        .context("cannot tell the repository's name; pass --name NAME")?;
    check_repository_name(&name)?;
    Ok(name)
}

/// `impact --org`: this repository's base version in the organisation's catalog, and the catalog's
/// joined graph (read once the change is known to need it).
pub(crate) struct OrgBase {
    store: OrgStore,
    catalog: Catalog,
    name: String,
    index: String,
}

impl OrgBase {
    pub(crate) fn open(location: &IndexLocation, name: Option<&str>, path: &std::path::Path) -> Result<OrgBase> {
        let store = org_store(location)?;
        let name = repository_name(name, path)?;
        let (catalog, _) = super::runtime()?.block_on(store.catalog())?;
        let index = catalog.repositories.get(&name).map(|entry| entry.index.clone()).with_context(|| {
            format!(
                "{location} has no repository {name} in its catalog; run `strata index --org {location} --name {name}` on the default branch first"
            )
        })?;
        Ok(OrgBase { store, catalog, name, index })
    }

    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// Where the base index (this repository's version in the catalog) is.
    pub(crate) fn base_location(&self) -> IndexLocation {
        IndexLocation::Object(self.store.index_location(&self.index))
    }

    /// The organisation's graph, as the catalog read names it.
    pub(crate) fn graph(&self) -> Result<strata_core::bundle::Bundle> {
        // The repositories that import this one's packages, directly or through others, and what it imports.
        let reading = self.catalog.connected(std::slice::from_ref(&self.name));
        Ok(super::runtime()?.block_on(self.store.graph(&self.catalog, Some(&reading), &[]))?.bundle)
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
