//! What an index on object storage costs to read: an `ObjectStore` wrapper that counts requests and
//! the bytes they return, shared by strata's own reads (manifest, bundle, lexicon) and LanceDB's (the
//! same counter wraps the stores lance opens, under `small::LanceReads`). It counts and forwards; it
//! never changes a request or retries one.

use std::fmt;
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use bytes::Bytes;
use futures::stream::BoxStream;
use object_store::path::Path;
use object_store::{
    CopyOptions, GetOptions, GetResult, ListResult, MultipartUpload, ObjectMeta, ObjectStore, PutMultipartOptions,
    PutOptions, PutPayload, PutResult, RenameOptions, Result,
};
use serde::Serialize;

/// Requests made and bytes read so far, through every store that shares this counter.
#[derive(Debug, Clone, Default)]
pub struct IoCounter {
    requests: Arc<AtomicU64>,
    bytes_read: Arc<AtomicU64>,
}

/// A reading of an [`IoCounter`]: requests of any kind (reads, lists, writes) and bytes read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct IoStats {
    pub requests: u64,
    pub bytes_read: u64,
}

/// Two readings together (an answer that read through several clients).
impl std::ops::AddAssign for IoStats {
    fn add_assign(&mut self, other: IoStats) {
        self.requests += other.requests;
        self.bytes_read += other.bytes_read;
    }
}

impl IoCounter {
    /// What was counted since the last call (or since the counter was made), and starts again at zero.
    pub fn take(&self) -> IoStats {
        IoStats {
            requests: self.requests.swap(0, Ordering::Relaxed),
            bytes_read: self.bytes_read.swap(0, Ordering::Relaxed),
        }
    }

    /// `store` with every request counted here.
    pub(crate) fn wrap(&self, store: Arc<dyn ObjectStore>) -> Arc<dyn ObjectStore> {
        Arc::new(CountingStore { inner: store, counter: self.clone() })
    }

    fn request(&self, bytes_read: u64) {
        self.requests.fetch_add(1, Ordering::Relaxed);
        self.bytes_read.fetch_add(bytes_read, Ordering::Relaxed);
    }
}

#[derive(Debug)]
struct CountingStore {
    inner: Arc<dyn ObjectStore>,
    counter: IoCounter,
}

impl fmt::Display for CountingStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Counting({})", self.inner)
    }
}

#[async_trait::async_trait]
impl ObjectStore for CountingStore {
    async fn put_opts(&self, location: &Path, payload: PutPayload, opts: PutOptions) -> Result<PutResult> {
        self.counter.request(0);
        self.inner.put_opts(location, payload, opts).await
    }

    async fn put_multipart_opts(&self, location: &Path, opts: PutMultipartOptions) -> Result<Box<dyn MultipartUpload>> {
        self.counter.request(0);
        self.inner.put_multipart_opts(location, opts).await
    }

    async fn get_opts(&self, location: &Path, options: GetOptions) -> Result<GetResult> {
        let head = options.head;
        let result = self.inner.get_opts(location, options).await;
        let bytes = match &result {
            Ok(result) if !head => result.range.end - result.range.start,
            _ => 0,
        };
        self.counter.request(bytes);
        result
    }

    async fn get_ranges(&self, location: &Path, ranges: &[Range<u64>]) -> Result<Vec<Bytes>> {
        // Forwarded whole so the inner store coalesces as it would unwrapped; counted as one request
        // per range, an upper bound on what coalescing sends.
        let result = self.inner.get_ranges(location, ranges).await;
        let bytes = result.as_ref().map_or(0, |parts| parts.iter().map(|part| part.len() as u64).sum());
        self.counter.requests.fetch_add(ranges.len().max(1) as u64, Ordering::Relaxed);
        self.counter.bytes_read.fetch_add(bytes, Ordering::Relaxed);
        result
    }

    fn delete_stream(&self, locations: BoxStream<'static, Result<Path>>) -> BoxStream<'static, Result<Path>> {
        self.counter.request(0);
        self.inner.delete_stream(locations)
    }

    fn list(&self, prefix: Option<&Path>) -> BoxStream<'static, Result<ObjectMeta>> {
        self.counter.request(0);
        self.inner.list(prefix)
    }

    fn list_with_offset(&self, prefix: Option<&Path>, offset: &Path) -> BoxStream<'static, Result<ObjectMeta>> {
        self.counter.request(0);
        self.inner.list_with_offset(prefix, offset)
    }

    async fn list_with_delimiter(&self, prefix: Option<&Path>) -> Result<ListResult> {
        self.counter.request(0);
        self.inner.list_with_delimiter(prefix).await
    }

    async fn copy_opts(&self, from: &Path, to: &Path, options: CopyOptions) -> Result<()> {
        self.counter.request(0);
        self.inner.copy_opts(from, to, options).await
    }

    async fn rename_opts(&self, from: &Path, to: &Path, options: RenameOptions) -> Result<()> {
        self.counter.request(0);
        self.inner.rename_opts(from, to, options).await
    }
}
