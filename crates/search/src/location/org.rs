//! An organisation's store: one object-store prefix holding `catalog.json` and, under
//! `repos/NAME/VERSION/`, each repository's indexes. An index version is uploaded once and never
//! changed; the catalog, the only object changed in place, is committed by conditional put (S3
//! `If-Match` on the version read, `If-None-Match: *` for the first) and recomputed and retried when
//! another writer committed first. So CI jobs of different repositories write at the same time without a
//! lock, and a reader that read one catalog reads one consistent set of indexes while they do.

use std::future::Future;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use bytes::Bytes;
use object_store::{PutMode, UpdateVersion};
use strata_core::bundle::{Bundle, FACTS_FILE, FactsTable, parse_facts_table};
use strata_core::org::{CATALOG_FILE, Catalog, CatalogEntry, OrgGraph, OrgRepository, cross_imports, org_graph};

use super::{ObjectLocation, RemoteIndex, S3Settings};

/// How often a catalog commit is retried after losing to another writer, and how long it waits
/// between attempts (growing linearly, capped).
#[derive(Debug, Clone, Copy)]
pub struct CommitRetry {
    pub attempts: u32,
    pub pause: Duration,
    pub max_pause: Duration,
}

impl Default for CommitRetry {
    fn default() -> CommitRetry {
        CommitRetry { attempts: 30, pause: Duration::from_millis(200), max_pause: Duration::from_secs(3) }
    }
}

/// A catalog commit that landed: the catalog as written, and how many times another writer got there first.
#[derive(Debug, Clone)]
pub struct Committed {
    pub catalog: Catalog,
    pub conflicts: u32,
}

/// The version of the catalog a writer read: none yet, or the stored object's.
#[derive(Debug, Clone)]
pub enum CatalogVersion {
    Absent,
    Stored(UpdateVersion),
}

/// An organisation's prefix on object storage.
pub struct OrgStore {
    remote: RemoteIndex,
}

impl OrgStore {
    pub fn open(location: &ObjectLocation) -> Result<OrgStore> {
        Ok(OrgStore { remote: RemoteIndex::open(location)? })
    }

    pub fn open_with(location: &ObjectLocation, settings: S3Settings) -> Result<OrgStore> {
        Ok(OrgStore { remote: RemoteIndex::open_with(location, settings)? })
    }

    pub fn location(&self) -> &ObjectLocation {
        self.remote.location()
    }

    /// The catalog and its version; an empty catalog when none is stored yet.
    pub async fn catalog(&self) -> Result<(Catalog, CatalogVersion)> {
        match self.remote.read_versioned(CATALOG_FILE).await? {
            None => Ok((Catalog::default(), CatalogVersion::Absent)),
            Some((bytes, version)) => {
                let catalog = Catalog::parse(&bytes, &self.location().uri_of(CATALOG_FILE))?;
                Ok((catalog, CatalogVersion::Stored(version)))
            }
        }
    }

    /// Commits the catalog `next` makes of the current one. When another writer committed since it was
    /// read, reads it again and asks `next` again, up to `retry.attempts` times.
    pub async fn commit<F, Fut>(&self, mut next: F, retry: CommitRetry) -> Result<Committed>
    where
        F: FnMut(Catalog) -> Fut,
        Fut: Future<Output = Result<Catalog>>,
    {
        let mut conflicts = 0;
        loop {
            let (current, version) = self.catalog().await?;
            let catalog = next(current).await?;
            let mode = match version {
                CatalogVersion::Absent => PutMode::Create,
                CatalogVersion::Stored(version) => PutMode::Update(version),
            };
            if self.remote.put_conditionally(CATALOG_FILE, Bytes::from(catalog.to_bytes()), mode).await? {
                return Ok(Committed { catalog, conflicts });
            }
            conflicts += 1;
            if conflicts >= retry.attempts {
                bail!(
                    "cannot commit {}: another writer committed first {conflicts} times in a row",
                    self.location().uri_of(CATALOG_FILE)
                );
            }
            tokio::time::sleep((retry.pause * conflicts).min(retry.max_pause)).await;
        }
    }

    /// `current` with repository `name` recorded as `entry` (bundle and facts as just indexed): its
    /// imports from and to the related repositories resolved again, against their current indexes.
    pub async fn catalog_with(
        &self,
        current: Catalog,
        name: &str,
        entry: &CatalogEntry,
        bundle: &Bundle,
        facts: &FactsTable,
    ) -> Result<Catalog> {
        let related = current.related(name, entry);
        let graph = self.graph(&current, Some(&related), &[(name, bundle, facts)]).await?;
        let commit_of = |repo: &str| {
            if repo == name {
                entry.commit.clone()
            } else {
                current.repositories.get(repo).and_then(|e| e.commit.clone())
            }
        };
        let cross = cross_imports(&graph.bundle, commit_of);
        Ok(current.with_repository(name, entry.clone(), cross))
    }

    /// Records repository `name` in the catalog ([`OrgStore::catalog_with`]), retrying on conflicts.
    pub async fn commit_repository(
        &self,
        name: &str,
        entry: &CatalogEntry,
        bundle: &Bundle,
        facts: &FactsTable,
        retry: CommitRetry,
    ) -> Result<Committed> {
        self.commit(|current| self.catalog_with(current, name, entry, bundle, facts), retry).await
    }

    /// Where an index named in the catalog (`repos/NAME/VERSION`) lives.
    pub fn index_location(&self, index: &str) -> ObjectLocation {
        let org = self.location();
        let prefix = if org.prefix.is_empty() { index.to_string() } else { format!("{}/{index}", org.prefix) };
        ObjectLocation { bucket: org.bucket.clone(), prefix }
    }

    /// The bundle and facts of a repository's current index.
    pub async fn repository(&self, name: &str, entry: &CatalogEntry) -> Result<(Bundle, FactsTable)> {
        let index = self.remote.sibling(self.index_location(&entry.index).prefix);
        let location = index.location().clone();
        let (bundle, facts) = futures::try_join!(index.read_bundle(), index.read(FACTS_FILE))?;
        let facts = facts.with_context(|| format!("{location} (repository {name}) has no {FACTS_FILE}"))?;
        let facts = parse_facts_table(facts, &location.uri_of(FACTS_FILE))?;
        Ok((bundle, facts))
    }

    /// The lexicon of a repository's current index, read whole without its bundle (for choosing which
    /// repositories to search, [`crate::route`]).
    pub async fn lexicon(&self, name: &str, entry: &CatalogEntry) -> Result<crate::lexicon::Lexicon> {
        let index = self.index(&entry.index);
        let file = crate::lexicon::LEXICON_FILE;
        let bytes = index
            .read(file)
            .await?
            .with_context(|| format!("{} (repository {name}) has no {file}", index.location().uri_of(file)))?;
        crate::lexicon::parse_lexicon_alone(bytes)
            .with_context(|| format!("{} (repository {name})", index.location().uri_of(file)))
    }

    /// The client for the index at `index` (`repos/NAME/VERSION`), sharing this store's counter.
    pub fn index(&self, index: &str) -> RemoteIndex {
        self.remote.sibling(self.index_location(index).prefix)
    }

    /// The graph of the catalog's repositories named in `names` (all of them with `None`), read from
    /// their current indexes; `extra` are repositories already in memory (one being indexed).
    pub async fn graph(
        &self,
        catalog: &Catalog,
        names: Option<&[String]>,
        extra: &[(&str, &Bundle, &FactsTable)],
    ) -> Result<OrgGraph> {
        let wanted: Vec<(&String, &CatalogEntry)> = catalog
            .repositories
            .iter()
            .filter(|(name, _)| names.is_none_or(|names| names.contains(name)))
            .filter(|(name, _)| !extra.iter().any(|(other, _, _)| other == name))
            .collect();
        let loaded: Vec<(Bundle, FactsTable)> =
            futures::future::try_join_all(wanted.iter().map(|(name, entry)| self.repository(name, entry))).await?;
        let mut repositories: Vec<OrgRepository<'_>> = wanted
            .iter()
            .zip(&loaded)
            .map(|((name, _), (bundle, facts))| OrgRepository { name: name.as_str(), bundle, facts })
            .collect();
        repositories.extend(extra.iter().map(|(name, bundle, facts)| OrgRepository { name, bundle, facts }));
        org_graph(&repositories)
    }

    /// Deletes the index versions of `name` other than those in `keep` (`repos/NAME/VERSION`); returns
    /// how many files went.
    pub async fn remove_versions(&self, name: &str, keep: &[&str]) -> Result<usize> {
        let versions = self.index(&format!("repos/{name}"));
        let kept: Vec<String> = keep
            .iter()
            .filter_map(|index| index.strip_prefix(&format!("repos/{name}/")))
            .map(|version| format!("{version}/"))
            .collect();
        let stale: Vec<String> = versions
            .list()
            .await?
            .into_iter()
            .map(|(file, _)| file)
            .filter(|file| !kept.iter().any(|version| file.starts_with(version)))
            .collect();
        for file in &stale {
            versions.delete(file).await?;
        }
        Ok(stale.len())
    }

    /// What was read since the last call (catalog and the repositories' files).
    pub fn take_stats(&self) -> super::IoStats {
        self.remote.take_stats()
    }
}
