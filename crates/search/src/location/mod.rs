//! Where an index lives: a local directory, or a prefix on S3-compatible object storage
//! (`s3://bucket/prefix/repo`). The binary parses every index flag into an [`IndexLocation`] once;
//! the commands then read a local index as they always have, and a remote one through
//! [`RemoteIndex`]: single files fetched whole, the LanceDB table opened at its own URI so LanceDB
//! reads only what a query needs. What the pipeline writes is always a local directory, uploaded
//! afterwards ([`RemoteIndex::upload`]).

mod counting;
mod org;
mod remote;
mod small;

use std::fmt;
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

pub use counting::{IoCounter, IoStats};
pub use org::{CatalogVersion, CommitRetry, Committed, OrgStore};
pub use remote::{RemoteIndex, S3Settings, UploadReport};

/// An index directory given on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IndexLocation {
    Local(PathBuf),
    Object(ObjectLocation),
}

/// A bucket and the key prefix under which an index's files sit (no leading or trailing `/`; empty for
/// the bucket's root).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectLocation {
    pub bucket: String,
    pub prefix: String,
}

impl IndexLocation {
    /// `s3://bucket[/prefix]` is object storage; anything without a `scheme://` is a local path.
    /// Other schemes are refused rather than taken for a folder named `gs:`.
    pub fn parse(text: &str) -> Result<IndexLocation> {
        let Some((scheme, rest)) = text.split_once("://") else {
            return Ok(IndexLocation::Local(PathBuf::from(text)));
        };
        if !scheme.eq_ignore_ascii_case("s3") {
            bail!("{text}: only s3:// object-store URLs are supported (S3, MinIO, R2, Ceph: set AWS_ENDPOINT_URL)");
        }
        let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        if bucket.is_empty() {
            bail!("{text} names no bucket; write s3://BUCKET/PREFIX");
        }
        // Rules every S3-compatible store shares; otherwise the server's own error comes after retries.
        if !bucket.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.') {
            bail!("{text}: a bucket name has only lower-case letters, digits, `-` and `.`");
        }
        if let Some(c) = prefix.chars().find(|&c| c == '?' || c == '#' || c.is_control()) {
            bail!("{text}: {c:?} is not taken in an object-store URL (no query or fragment); write s3://BUCKET/PREFIX");
        }
        let parts: Vec<&str> = prefix.split('/').filter(|part| !part.is_empty()).collect();
        if parts.iter().any(|part| *part == "." || *part == "..") {
            bail!("{text}: `.` and `..` are not allowed in an object-store prefix");
        }
        Ok(IndexLocation::Object(ObjectLocation { bucket: bucket.to_string(), prefix: parts.join("/") }))
    }

    /// The directory, when the index is local.
    pub fn local_dir(&self) -> Option<&Path> {
        match self {
            IndexLocation::Local(dir) => Some(dir),
            IndexLocation::Object(_) => None,
        }
    }
}

impl fmt::Display for IndexLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IndexLocation::Local(dir) => write!(f, "{}", dir.display()),
            IndexLocation::Object(object) => write!(f, "{object}"),
        }
    }
}

impl ObjectLocation {
    /// The URL of `name` (a `/`-separated path inside the index).
    pub fn uri_of(&self, name: &str) -> String {
        format!("{self}/{name}")
    }
}

impl fmt::Display for ObjectLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.prefix.is_empty() {
            write!(f, "s3://{}", self.bucket)
        } else {
            write!(f, "s3://{}/{}", self.bucket, self.prefix)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_paths_stay_local() {
        for text in ["strata-index", "/tmp/x", "./a/b", "s3-index", "weird:name"] {
            assert_eq!(IndexLocation::parse(text).unwrap(), IndexLocation::Local(PathBuf::from(text)));
        }
    }

    #[test]
    fn s3_urls_split_into_bucket_and_prefix() {
        let parsed = IndexLocation::parse("s3://bucket/org/repo/").unwrap();
        let IndexLocation::Object(object) = &parsed else { panic!("not object storage: {parsed:?}") };
        assert_eq!((object.bucket.as_str(), object.prefix.as_str()), ("bucket", "org/repo"));
        assert_eq!(parsed.to_string(), "s3://bucket/org/repo");
        assert_eq!(object.uri_of("lancedb"), "s3://bucket/org/repo/lancedb");
        let root = IndexLocation::parse("s3://bucket").unwrap();
        assert_eq!(root.to_string(), "s3://bucket");
    }

    #[test]
    fn bad_urls_are_refused_with_a_reason() {
        for text in [
            "s3://",
            "s3:///prefix",
            "gs://bucket/x",
            "s3://bucket/../x",
            "s3://My_Bucket/x",
            "s3://b/x?y=1",
            "s3://b/x#f",
        ] {
            let error = IndexLocation::parse(text).unwrap_err().to_string();
            assert!(error.contains(text), "{error}");
        }
    }
}
