//! The previous artifact of an incremental run: its manifest, bundle and parsed facts, read and checked
//! before anything is reused (its chunk table is only opened; the update touches changed rows alone).
//! Anything missing, damaged or incompatible (another manifest or bundle schema, another tool major
//! version) makes the loader fail with a reason, and the caller rebuilds from scratch: the previous
//! artifact is never trusted halfway.

use std::collections::HashMap;
use std::path::Path;

use anyhow::{Result, bail};

use strata_core::bundle::{BUNDLE_SCHEMA_VERSION, Bundle, Manifest, ToolInfo, read_bundle, read_facts_table};
use strata_core::python::{FACTS_VERSION, ParsedFile};
use strata_search::store::ChunkStore;

pub struct Previous {
    pub manifest: Manifest,
    pub bundle: Bundle,
    /// Path → (blob id, parse result); the reuse plan moves them out. Empty when they were extracted by
    /// another facts version (see `stale_facts_version`).
    pub facts: HashMap<String, (String, ParsedFile)>,
    /// The previous facts version when it is not this strata's: every file is parsed again, while
    /// chunks whose text did not change still keep their vectors.
    pub stale_facts_version: Option<u32>,
    /// False when the previous vectors came from another embedder: every chunk is embedded again.
    pub same_embedder: bool,
}

/// Reads and checks the previous manifest, bundle and facts (blocking file I/O and parsing; the bundle
/// and the facts are read in parallel). The embedder is this run's, by id and dimension.
pub fn read_previous(dir: &Path, embedder_id: &str, embedder_dimension: usize) -> Result<Previous> {
    let manifest = Manifest::read(dir)?;
    if manifest.bundle_schema_version != BUNDLE_SCHEMA_VERSION {
        bail!("its bundle schema is {}, this strata writes {BUNDLE_SCHEMA_VERSION}", manifest.bundle_schema_version);
    }
    let current = ToolInfo::current();
    if compatibility_line(&manifest.tool.version) != compatibility_line(&current.version) {
        bail!("it was written by strata {}, this is strata {}", manifest.tool.version, current.version);
    }
    let (bundle, facts) = rayon::join(|| read_bundle(dir), || read_facts_table(dir));
    let (bundle, facts) = (bundle?, facts?);
    let stale_facts_version = (facts.facts_version != FACTS_VERSION).then_some(facts.facts_version);
    let same_embedder = manifest.embedder.id == embedder_id && manifest.embedder.dimension == embedder_dimension;
    Ok(Previous { manifest, bundle, facts: facts.files, stale_facts_version, same_embedder })
}

/// Fails when the previous chunk table is missing or unreadable, so that shows up before anything is
/// reused rather than halfway through the update.
pub async fn check_previous_table(dir: &Path) -> Result<()> {
    ChunkStore::open(dir).await.map(drop)
}

/// Versions that promise the same artifact format: the major version, or major.minor before 1.0.
fn compatibility_line(version: &str) -> String {
    let mut parts = version.split('.');
    match (parts.next(), parts.next()) {
        (Some("0"), Some(minor)) => format!("0.{minor}"),
        (Some(major), _) => major.to_string(),
        _ => version.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compatibility_follows_semver() {
        assert_eq!(compatibility_line("0.1.3"), compatibility_line("0.1.9"));
        assert_ne!(compatibility_line("0.1.3"), compatibility_line("0.2.0"));
        assert_eq!(compatibility_line("1.2.0"), compatibility_line("1.9.1"));
        assert_ne!(compatibility_line("1.2.0"), compatibility_line("2.0.0"));
    }
}
