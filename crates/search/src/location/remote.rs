//! An index under an S3 prefix: the client (credentials and endpoint from the standard AWS
//! environment), single files read whole, the LanceDB table's URI and storage options, a whole index
//! downloaded (for `--previous`) or uploaded (for `--out`), every request counted.
//!
//! Settings come from the environment only: `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`/
//! `AWS_SESSION_TOKEN` (or the instance's or web identity's role), `AWS_REGION`/`AWS_DEFAULT_REGION`,
//! `AWS_ENDPOINT_URL` for S3-compatible stores (MinIO, Ceph, R2), and `AWS_ALLOW_HTTP=true` (implied by
//! an `http://` endpoint) for a local server. LanceDB gets the same endpoint, region and HTTP setting.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use bytes::Bytes;
use futures::{StreamExt, TryStreamExt};
use object_store::aws::AmazonS3Builder;
use object_store::path::Path as ObjectPath;
use object_store::{
    GetOptions, GetRange, ObjectStore, ObjectStoreExt, PutMode, PutOptions, PutPayload, RetryConfig, UpdateVersion,
};

use super::ObjectLocation;
use super::counting::{IoCounter, IoStats};
use crate::store::LANCEDB_DIR;
use strata_core::bundle::{BUNDLE_ZST_FILE, Bundle, parse_bundle, parse_compressed_bundle};

/// How many files are read or written at once.
const CONCURRENT_TRANSFERS: usize = 8;

/// The manifest names every other file's content: uploaded last, so a reader that finds a manifest
/// finds the files it describes.
const MANIFEST: &str = "manifest.json";

/// An index on object storage, opened (no request is made until something is read).
pub struct RemoteIndex {
    location: ObjectLocation,
    store: Arc<dyn ObjectStore>,
    counter: IoCounter,
    settings: S3Settings,
}

/// What an upload did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct UploadReport {
    pub files: usize,
    pub bytes: u64,
    /// Objects under the prefix that the new index does not have (an earlier version's table files),
    /// deleted after the manifest was written.
    pub deleted: usize,
}

/// The S3 settings strata reads itself, so object_store and LanceDB are told the same. Commands take
/// them from the environment ([`S3Settings::from_env`]); a program may set them itself.
#[derive(Debug, Clone, Default)]
pub struct S3Settings {
    pub endpoint: Option<String>,
    pub region: Option<String>,
    pub allow_http: bool,
    /// An access key id and secret; `None`: the standard AWS chain (environment, web identity, instance).
    pub credentials: Option<(String, String)>,
    /// A named profile (`AWS_PROFILE`) whose credentials are used when the environment holds no key:
    /// from `~/.aws/credentials` and `~/.aws/config` (or `AWS_SHARED_CREDENTIALS_FILE` and
    /// `AWS_CONFIG_FILE`), with SSO, `credential_process` and role assumption as the AWS CLI does.
    pub profile: Option<String>,
}

impl S3Settings {
    pub fn from_env() -> S3Settings {
        let var = |name: &str| std::env::var(name).ok().filter(|value| !value.trim().is_empty());
        let endpoint = var("AWS_ENDPOINT_URL").or_else(|| var("AWS_ENDPOINT"));
        let region = var("AWS_REGION").or_else(|| var("AWS_DEFAULT_REGION"));
        let allow_http = var("AWS_ALLOW_HTTP").is_some_and(|value| value.eq_ignore_ascii_case("true"))
            || endpoint.as_deref().is_some_and(|endpoint| endpoint.starts_with("http://"));
        let profile = var("AWS_PROFILE").filter(|_| var("AWS_ACCESS_KEY_ID").is_none());
        S3Settings { endpoint, region, allow_http, credentials: None, profile }
    }

    /// A custom endpoint without a region gets `us-east-1`, which S3-compatible servers accept; on AWS
    /// itself a missing region is left for the client to find.
    fn region(&self) -> Option<&str> {
        self.region.as_deref().or(self.endpoint.as_ref().map(|_| "us-east-1"))
    }
}

/// The credentials of the AWS profile `name`, read by the AWS SDK when first needed and kept until a
/// minute before they expire (lance-io's adapter, the one LanceDB uses for the same profile).
fn profile_credentials(name: &str) -> Arc<lance_io::object_store::providers::aws::AwsCredentialAdapter> {
    let provider = aws_config::profile::ProfileFileCredentialsProvider::builder().profile_name(name).build();
    let provider: Arc<dyn aws_credential_types::provider::ProvideCredentials> = Arc::new(provider);
    Arc::new(lance_io::object_store::providers::aws::AwsCredentialAdapter::new(provider, Duration::from_secs(60)))
}

impl RemoteIndex {
    /// The index at `location`, with the settings of the standard AWS environment.
    pub fn open(location: &ObjectLocation) -> Result<RemoteIndex> {
        RemoteIndex::open_with(location, S3Settings::from_env())
    }

    pub fn open_with(location: &ObjectLocation, settings: S3Settings) -> Result<RemoteIndex> {
        let mut builder = AmazonS3Builder::from_env()
            .with_bucket_name(&location.bucket)
            .with_allow_http(settings.allow_http)
            // A few quick retries: a store that is down should say so in seconds, not minutes.
            .with_retry(RetryConfig { max_retries: 3, retry_timeout: Duration::from_secs(20), ..Default::default() });
        if let Some(endpoint) = &settings.endpoint {
            builder = builder.with_endpoint(endpoint);
        }
        if let Some(region) = settings.region() {
            builder = builder.with_region(region);
        }
        if let Some((key, secret)) = &settings.credentials {
            builder = builder.with_access_key_id(key).with_secret_access_key(secret);
        } else if let Some(profile) = &settings.profile {
            builder = builder.with_credentials(profile_credentials(profile));
        }
        let store = builder.build().with_context(|| format!("cannot set up the S3 client for {location}"))?;
        let counter = IoCounter::default();
        Ok(RemoteIndex { location: location.clone(), store: counter.wrap(Arc::new(store)), counter, settings })
    }

    pub fn location(&self) -> &ObjectLocation {
        &self.location
    }

    /// The index at another prefix of the same bucket, through the same client and request counter.
    pub(crate) fn sibling(&self, prefix: String) -> RemoteIndex {
        RemoteIndex {
            location: ObjectLocation { bucket: self.location.bucket.clone(), prefix },
            store: self.store.clone(),
            counter: self.counter.clone(),
            settings: self.settings.clone(),
        }
    }

    /// The file `name` with the version the store gave it (for a conditional put), or `None`.
    pub(crate) async fn read_versioned(&self, name: &str) -> Result<Option<(Bytes, UpdateVersion)>> {
        let uri = self.location.uri_of(name);
        match self.store.get(&self.key(name)).await {
            Ok(result) => {
                let version = UpdateVersion { e_tag: result.meta.e_tag.clone(), version: result.meta.version.clone() };
                let bytes = result.bytes().await.map_err(|error| store_error(&error, &format!("cannot read {uri}")))?;
                Ok(Some((bytes, version)))
            }
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(error) => Err(store_error(&error, &format!("cannot read {uri}"))),
        }
    }

    /// The last `n` bytes of `name` (all of it when shorter) and its size, or `None` when it is missing.
    pub(crate) async fn read_tail(&self, name: &str, n: u64) -> Result<Option<(Bytes, u64)>> {
        let uri = self.location.uri_of(name);
        let options = GetOptions { range: Some(GetRange::Suffix(n)), ..Default::default() };
        match self.store.get_opts(&self.key(name), options).await {
            Ok(result) => {
                let size = result.meta.size;
                let bytes = result.bytes().await.map_err(|error| store_error(&error, &format!("cannot read {uri}")))?;
                Ok(Some((bytes, size)))
            }
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(error) => Err(store_error(&error, &format!("cannot read {uri}"))),
        }
    }

    /// The byte `ranges` of `name` (requests for nearby ranges are merged).
    pub(crate) async fn read_ranges(&self, name: &str, ranges: &[std::ops::Range<u64>]) -> Result<Vec<Bytes>> {
        self.store
            .get_ranges(&self.key(name), ranges)
            .await
            .map_err(|error| store_error(&error, &format!("cannot read {}", self.location.uri_of(name))))
    }

    /// Writes `name` only if it is still as read (`PutMode::Update`) or still absent (`PutMode::Create`):
    /// false when another writer changed it first.
    pub(crate) async fn put_conditionally(&self, name: &str, bytes: Bytes, mode: PutMode) -> Result<bool> {
        match self.store.put_opts(&self.key(name), PutPayload::from(bytes), PutOptions::from(mode)).await {
            Ok(_) => Ok(true),
            Err(object_store::Error::Precondition { .. } | object_store::Error::AlreadyExists { .. }) => Ok(false),
            Err(error) => Err(store_error(&error, &format!("cannot write {}", self.location.uri_of(name)))),
        }
    }

    /// Deletes `name` (nothing to do when it is gone already).
    pub(crate) async fn delete(&self, name: &str) -> Result<()> {
        match self.store.delete(&self.key(name)).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(error) => Err(store_error(&error, &format!("cannot delete {}", self.location.uri_of(name)))),
        }
    }

    /// The counter of every request made for this index, LanceDB's included.
    pub fn counter(&self) -> &IoCounter {
        &self.counter
    }

    /// What was read since the last call.
    pub fn take_stats(&self) -> IoStats {
        self.counter.take()
    }

    /// The file `name` (a `/`-separated path inside the index), or `None` when there is none.
    pub async fn read(&self, name: &str) -> Result<Option<Bytes>> {
        let uri = self.location.uri_of(name);
        match self.store.get(&self.key(name)).await {
            Ok(result) => {
                Ok(Some(result.bytes().await.map_err(|error| store_error(&error, &format!("cannot read {uri}")))?))
            }
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(error) => Err(store_error(&error, &format!("cannot read {uri}"))),
        }
    }

    /// The index's bundle, from `bundle.json.zst` when the index has one (a tenth of the bytes), else
    /// from `bundle.json` (an index written before it existed).
    pub async fn read_bundle(&self) -> Result<Bundle> {
        if let Some(bytes) = self.read(BUNDLE_ZST_FILE).await? {
            return parse_compressed_bundle(&bytes, &self.location.uri_of(BUNDLE_ZST_FILE));
        }
        let uri = self.location.uri_of("bundle.json");
        let bytes = self.read("bundle.json").await?.with_context(|| {
            format!("cannot read {uri}: it is missing; re-run `strata index --out {}`", self.location)
        })?;
        parse_bundle(&bytes, &uri)
    }

    /// Every file under the prefix, as (path inside the index, size).
    pub async fn list(&self) -> Result<Vec<(String, u64)>> {
        let prefix = (!self.location.prefix.is_empty()).then(|| ObjectPath::from(self.location.prefix.as_str()));
        let objects: Vec<_> = self
            .store
            .list(prefix.as_ref())
            .try_collect()
            .await
            .map_err(|error| store_error(&error, &format!("cannot list {}", self.location)))?;
        let mut files = Vec::new();
        for object in objects {
            let key = object.location.as_ref();
            let name = if self.location.prefix.is_empty() {
                key
            } else {
                key.strip_prefix(self.location.prefix.as_str()).and_then(|rest| rest.strip_prefix('/')).unwrap_or(key)
            };
            files.push((name.to_string(), object.size));
        }
        files.sort();
        Ok(files)
    }

    /// Copies the index into the empty directory `dir`: the files named in `only`, or with `None`
    /// everything stored under the prefix (what `--previous` needs: an incremental run updates the
    /// table's files in place). Returns how many files were copied: none when nothing is stored there.
    pub async fn download(&self, dir: &Path, only: Option<&[&str]>) -> Result<usize> {
        let names: Vec<String> = match only {
            Some(names) => names.iter().map(|name| name.to_string()).collect(),
            None => self.list().await?.into_iter().map(|(name, _)| name).collect(),
        };
        let copied = futures::stream::iter(names)
            .map(|name| async move {
                let parts: Vec<&str> = name.split('/').collect();
                if parts.iter().any(|part| part.is_empty() || *part == "." || *part == "..") {
                    bail!("{} holds an object named {name:?}, which is not a path inside an index", self.location);
                }
                let Some(bytes) = self.read(&name).await? else {
                    return Ok(false);
                };
                let path = parts.iter().fold(dir.to_path_buf(), |path, part| path.join(part));
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
                }
                std::fs::write(&path, &bytes).with_context(|| format!("cannot write {}", path.display()))?;
                Ok(true)
            })
            .buffer_unordered(CONCURRENT_TRANSFERS)
            .try_collect::<Vec<bool>>()
            .await?;
        Ok(copied.into_iter().filter(|copied| *copied).count())
    }

    /// Uploads the index written in `dir`: every file but `manifest.json`, then `manifest.json`, then
    /// deletes what an earlier index left under the prefix that this one does not have.
    pub async fn upload(&self, dir: &Path) -> Result<UploadReport> {
        let mut local = Vec::new();
        local_files(dir, "", &mut local)?;
        if !local.iter().any(|name| name == MANIFEST) {
            bail!("{} holds no {MANIFEST} to upload", dir.display());
        }
        let earlier: Vec<String> = self.list().await?.into_iter().map(|(name, _)| name).collect();
        let (manifest, others): (Vec<String>, Vec<String>) = local.iter().cloned().partition(|name| name == MANIFEST);
        let sizes: Vec<u64> = futures::stream::iter(others)
            .map(|name| self.upload_file(dir, name))
            .buffer_unordered(CONCURRENT_TRANSFERS)
            .try_collect()
            .await?;
        let manifest_size = self.upload_file(dir, manifest[0].clone()).await?;
        let wanted: BTreeSet<&str> = local.iter().map(String::as_str).collect();
        let stale: Vec<&String> = earlier.iter().filter(|name| !wanted.contains(name.as_str())).collect();
        for name in &stale {
            match self.store.delete(&self.key(name)).await {
                Ok(()) | Err(object_store::Error::NotFound { .. }) => {}
                Err(error) => {
                    return Err(store_error(&error, &format!("cannot delete {}", self.location.uri_of(name))));
                }
            }
        }
        Ok(UploadReport { files: local.len(), bytes: sizes.iter().sum::<u64>() + manifest_size, deleted: stale.len() })
    }

    /// The LanceDB database (the folder holding the `chunks` table) on object storage.
    pub(crate) fn table_database_uri(&self) -> String {
        self.location.uri_of(LANCEDB_DIR)
    }

    /// The storage options LanceDB needs beyond what it reads from the environment itself.
    pub(crate) fn lance_storage_options(&self) -> Vec<(String, String)> {
        let mut options = Vec::new();
        if let Some(endpoint) = &self.settings.endpoint {
            options.push(("aws_endpoint".to_string(), endpoint.clone()));
        }
        if let Some(region) = self.settings.region() {
            options.push(("aws_region".to_string(), region.to_string()));
        }
        if self.settings.allow_http {
            options.push(("allow_http".to_string(), "true".to_string()));
        }
        options
    }

    /// Read parameters that route LanceDB's requests through this index's counter, small files read
    /// whole (`small`).
    pub(crate) fn lance_read_params(&self) -> lance::dataset::ReadParams {
        let wrapper: Arc<dyn lance::io::WrappingObjectStore> = Arc::new(super::small::LanceReads(self.counter.clone()));
        lance::dataset::ReadParams {
            store_options: Some(lance::io::ObjectStoreParams {
                object_store_wrapper: Some(wrapper),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    fn key(&self, name: &str) -> ObjectPath {
        if self.location.prefix.is_empty() {
            ObjectPath::from(name)
        } else {
            ObjectPath::from(format!("{}/{name}", self.location.prefix))
        }
    }

    async fn upload_file(&self, dir: &Path, name: String) -> Result<u64> {
        let path = name.split('/').fold(dir.to_path_buf(), |path, part| path.join(part));
        let bytes = std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
        let size = bytes.len() as u64;
        self.store
            .put(&self.key(&name), PutPayload::from(bytes))
            .await
            .map_err(|error| store_error(&error, &format!("cannot upload {}", self.location.uri_of(&name))))?;
        Ok(size)
    }
}

/// `what` failed, in one line. object_store's errors repeat their sources in their own text (and again
/// as a chain), with the server's whole XML body: this keeps the S3 error code and message when the
/// server sent one, else the request and the innermost cause.
fn store_error(error: &object_store::Error, what: &str) -> anyhow::Error {
    let text = error.to_string();
    if text.contains("169.254.169.254") {
        // No key in the environment, so the client asked the instance metadata service, which is not
        // there: say what to set rather than how that request failed.
        return anyhow!(
            "{what}: no AWS credentials found; set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN), or run where an instance or web-identity role is available"
        );
    }
    let between = |start: &str, end: &str| {
        let from = text.find(start)? + start.len();
        Some(text[from..].split(end).next()?.trim().to_string())
    };
    if let Some(code) = between("<Code>", "</Code>") {
        return match between("<Message>", "</Message>") {
            Some(message) => anyhow!("{what}: the server answered {code}: {message}"),
            None => anyhow!("{what}: the server answered {code}"),
        };
    }
    let mut innermost: &dyn std::error::Error = error;
    while let Some(source) = innermost.source() {
        innermost = source;
    }
    let request = text.split(" - ").next().unwrap_or(&text);
    let cause = innermost.to_string();
    if request.contains(&cause) { anyhow!("{what}: {request}") } else { anyhow!("{what}: {request}: {cause}") }
}

/// The files under `dir`, as `/`-separated paths relative to it, in a stable order.
fn local_files(dir: &Path, relative: &str, out: &mut Vec<String>) -> Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read {}", dir.display()))?
        .collect::<std::io::Result<_>>()
        .with_context(|| format!("cannot read {}", dir.display()))?;
    entries.sort_by_key(|entry| entry.file_name());
    for entry in entries {
        let name = entry.file_name();
        let name = name.to_str().with_context(|| format!("{} has a file name that is not UTF-8", dir.display()))?;
        let path = if relative.is_empty() { name.to_string() } else { format!("{relative}/{name}") };
        if entry.file_type()?.is_dir() {
            local_files(&entry.path(), &path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}
