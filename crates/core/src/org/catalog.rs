//! `catalog.json`, the one object an organisation's store changes in place: which repositories are
//! indexed, at which commit, where each one's current index is, which top-level packages each provides
//! and imports, and the imports between repositories. Every other object under the prefix is written
//! once and never changed, so a reader that has read a catalog reads a consistent organisation while
//! writers go on. Writers change it by conditional put ([`Catalog::with_repository`] is the pure
//! merge they retry); `generation` counts the commits. Deterministic: sorted maps, no clock.

use std::collections::BTreeMap;

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

/// Bump on any change that makes an older reader misread the catalog.
pub const CATALOG_SCHEMA: &str = "strata-catalog@1";
/// The catalog's name under the organisation's prefix.
pub const CATALOG_FILE: &str = "catalog.json";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Catalog {
    pub schema: String,
    /// How many commits made this catalog (0: none yet).
    pub generation: u64,
    pub repositories: BTreeMap<String, CatalogEntry>,
    /// Imports whose importer and imported module are in different repositories, sorted.
    pub cross_imports: Vec<CrossImport>,
}

/// One repository as last indexed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CatalogEntry {
    /// The index's prefix under the organisation's (`repos/NAME/VERSION`), written once.
    pub index: String,
    pub commit: Option<String>,
    /// The bundle schema of that index.
    pub bundle_schema: String,
    /// Top-level packages and modules it provides.
    pub packages: Vec<String>,
    /// Third-party top-level packages its modules import.
    pub imports_packages: Vec<String>,
    pub modules: usize,
    /// The catalog generation that recorded this entry.
    pub generation: u64,
}

/// An import from a module of one repository of a module of another.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct CrossImport {
    pub importer_repo: String,
    /// The importing module's id in its repository.
    pub importer: String,
    pub imported_repo: String,
    /// The imported module's id in its repository.
    pub imported: String,
    /// The commit of the imported repository the import was resolved against.
    pub resolved_at: Option<String>,
    /// Every such import is under `if TYPE_CHECKING:`.
    pub type_checking: bool,
    /// Names imported (`from m import a, b`).
    pub names: Vec<String>,
}

impl Default for Catalog {
    fn default() -> Catalog {
        Catalog {
            schema: CATALOG_SCHEMA.to_string(),
            generation: 0,
            repositories: BTreeMap::new(),
            cross_imports: Vec::new(),
        }
    }
}

impl Catalog {
    /// Checks and parses the bytes of a catalog read from `path` (a URL, for the messages).
    pub fn parse(bytes: &[u8], path: &str) -> Result<Catalog> {
        let catalog: Catalog = serde_json::from_slice(bytes)
            .with_context(|| format!("{path} is damaged or from another strata version"))?;
        if catalog.schema != CATALOG_SCHEMA {
            bail!("{path} is {}, this strata reads {CATALOG_SCHEMA}", catalog.schema);
        }
        Ok(catalog)
    }

    /// The catalog as written: pretty JSON, one trailing newline.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = serde_json::to_vec_pretty(self).expect("a catalog always serialises");
        bytes.push(b'\n');
        bytes
    }

    /// The repositories whose imports `entry` may resolve or that may resolve imports of `entry`: they
    /// provide a package `entry` imports, or import a package it provides. `name` itself is left out.
    pub fn related(&self, name: &str, entry: &CatalogEntry) -> Vec<String> {
        let overlaps = |a: &[String], b: &[String]| a.iter().any(|x| b.binary_search(x).is_ok());
        self.repositories
            .iter()
            .filter(|(other, _)| other.as_str() != name)
            .filter(|(_, other)| {
                overlaps(&entry.imports_packages, &other.packages) || overlaps(&other.imports_packages, &entry.packages)
            })
            .map(|(other, _)| other.clone())
            .collect()
    }

    /// The repositories a question about modules of `names` can involve: those, every repository that
    /// imports their packages directly or through others (dependents live there), and every repository
    /// they import the same way (dependencies live there). Sorted.
    pub fn connected(&self, names: &[String]) -> Vec<String> {
        let imports = |a: &CatalogEntry, b: &CatalogEntry| {
            a.imports_packages.iter().any(|package| b.packages.binary_search(package).is_ok())
        };
        let known: Vec<String> = names.iter().filter(|name| self.repositories.contains_key(*name)).cloned().collect();
        let mut found: std::collections::BTreeSet<String> = known.iter().cloned().collect();
        for upstream in [false, true] {
            let mut todo = known.clone();
            let mut seen: std::collections::BTreeSet<String> = todo.iter().cloned().collect();
            while let Some(name) = todo.pop() {
                let here = &self.repositories[&name];
                for (other, entry) in &self.repositories {
                    let linked = if upstream { imports(here, entry) } else { imports(entry, here) };
                    if linked && seen.insert(other.clone()) {
                        todo.push(other.clone());
                    }
                }
            }
            found.extend(seen);
        }
        found.into_iter().collect()
    }

    /// The repositories a question names: those providing the top-level package of a code name it
    /// writes (`acme_auth.tokens`, `` `acme_auth` ``), and those whose name or package it writes as a
    /// name in prose, case aside (`Requests'`, `Flask's`: see `text::written_as_names`; "requests" in
    /// lower case is a word). Empty when it names none the catalog knows.
    pub fn named_in(&self, question: &str) -> Vec<String> {
        let tops: std::collections::BTreeSet<String> = crate::text::code_names(question)
            .into_iter()
            .filter_map(|name| name.text.split(['.', '/']).next().map(str::to_string))
            .collect();
        let written: std::collections::BTreeSet<String> =
            crate::text::written_as_names(question).into_iter().map(str::to_lowercase).collect();
        self.repositories
            .iter()
            .filter(|(name, entry)| {
                tops.iter().any(|top| entry.packages.binary_search(top).is_ok())
                    || written.contains(&name.to_lowercase())
                    || entry.packages.iter().any(|package| written.contains(&package.to_lowercase()))
            })
            .map(|(name, _)| name.clone())
            .collect()
    }

    /// The repositories to read for `questions`: those their modules connect when every question names
    /// a package of the catalog, else `None` (all of them: a question about the whole organisation).
    pub fn reading_for(&self, questions: &[&str]) -> Option<Vec<String>> {
        let mut named = Vec::new();
        for question in questions {
            let here = self.named_in(question);
            if here.is_empty() {
                return None;
            }
            named.extend(here);
        }
        (!named.is_empty()).then(|| self.connected(&named))
    }

    /// This catalog with `name` recorded as `entry` and its imports from and to other repositories
    /// replaced by `cross` (which must only hold imports involving `name`): the next generation.
    pub fn with_repository(&self, name: &str, mut entry: CatalogEntry, cross: Vec<CrossImport>) -> Catalog {
        let generation = self.generation + 1;
        entry.generation = generation;
        let mut repositories = self.repositories.clone();
        repositories.insert(name.to_string(), entry);
        let mut cross_imports: Vec<CrossImport> = self
            .cross_imports
            .iter()
            .filter(|import| import.importer_repo != name && import.imported_repo != name)
            .cloned()
            .chain(cross.into_iter().filter(|import| import.importer_repo == name || import.imported_repo == name))
            .collect();
        cross_imports.sort();
        cross_imports.dedup();
        Catalog { schema: CATALOG_SCHEMA.to_string(), generation, repositories, cross_imports }
    }
}
