//! Small immutable files read whole. LanceDB reads a small table's files by many ranged requests one
//! after another (a full-text search reads each query term's postings from the index's
//! `part_0_invert.lance` in turn), and on object storage each is a round trip. Once a file is known
//! to be small ([`SMALL`], from the object size the first ranged answer reports), the next range
//! fetches it whole, once however many ranges ask for it at the same time (lance reads a file's parts
//! side by side), and every later range of it is served from memory. Only files under `_indices/`
//! and `data/` are kept: lance never rewrites them (a new version writes new files), so a copy never
//! goes stale, not even in a process that answers many questions while CI writes.

use std::collections::HashMap;
use std::fmt;
use std::ops::Range;
use std::sync::{Arc, Mutex};

use super::counting::IoCounter;
use bytes::Bytes;
use futures::stream::BoxStream;
use object_store::list::PaginatedListStore;
use object_store::path::Path;
use object_store::{
    Attributes, CopyOptions, GetOptions, GetResult, GetResultPayload, ListResult, MultipartUpload, ObjectMeta,
    ObjectStore, PutMultipartOptions, PutOptions, PutPayload, PutResult, RenameOptions, Result,
};

/// The largest file read whole: a few hundred kilobytes fetched once cost less than the several
/// round trips their ranges would.
pub(crate) const SMALL: u64 = 1 << 20;

/// The most bytes kept in memory by one store: a process that answers many questions across many
/// repositories reads further files range by range once it is full.
const CAPACITY: u64 = 64 << 20;

/// How the stores LanceDB opens for an index on object storage are wrapped: every request counted
/// (by the index's [`IoCounter`]), and small files read whole.
#[derive(Debug, Clone)]
pub(crate) struct LanceReads(pub(crate) IoCounter);

impl lance::io::WrappingObjectStore for LanceReads {
    fn wrap(&self, _store_prefix: &str, original: Arc<dyn ObjectStore>) -> Arc<dyn ObjectStore> {
        SmallFiles::wrap(self.0.wrap(original))
    }

    fn wrap_paginated(
        &self,
        _store_prefix: &str,
        original: Arc<dyn PaginatedListStore>,
    ) -> Option<Arc<dyn PaginatedListStore>> {
        // Listings pushed down to the paginated API bypass the wrapper; they are rare (opening a table
        // lists its versions at most) and counted as nothing rather than refused.
        Some(original)
    }
}

/// What is known of a file: its size, or its bytes.
#[derive(Debug, Clone)]
enum Known {
    Size(u64),
    Whole(Bytes, ObjectMeta),
}

#[derive(Debug)]
pub(crate) struct SmallFiles {
    inner: Arc<dyn ObjectStore>,
    known: Mutex<HashMap<Path, Known>>,
    /// One lock per file being fetched whole, so ranges asked at the same time wait for one fetch.
    fetching: Mutex<HashMap<Path, Arc<tokio::sync::Mutex<()>>>>,
    capacity: u64,
}

impl SmallFiles {
    pub(crate) fn wrap(inner: Arc<dyn ObjectStore>) -> Arc<dyn ObjectStore> {
        Arc::new(SmallFiles::with_capacity(inner, CAPACITY))
    }

    fn with_capacity(inner: Arc<dyn ObjectStore>, capacity: u64) -> SmallFiles {
        SmallFiles { inner, known: Mutex::new(HashMap::new()), fetching: Mutex::new(HashMap::new()), capacity }
    }

    /// Bytes kept in memory now.
    fn kept(&self) -> u64 {
        let Ok(map) = self.known.lock() else { return u64::MAX };
        map.values().map(|known| if let Known::Whole(bytes, _) = known { bytes.len() as u64 } else { 0 }).sum()
    }

    fn known(&self, location: &Path) -> Option<Known> {
        self.known.lock().ok()?.get(location).cloned()
    }

    fn remember(&self, location: &Path, known: Known) {
        if let Ok(mut map) = self.known.lock() {
            match (map.get(location), &known) {
                (Some(Known::Whole(..)), Known::Size(_)) => {}
                _ => {
                    map.insert(location.clone(), known);
                }
            }
        }
    }

    /// The whole file, from memory or fetched once now that it is known to be small; `None` when it
    /// is not to be read whole.
    async fn whole(&self, location: &Path) -> Result<Option<(Bytes, ObjectMeta)>> {
        if !immutable(location) {
            return Ok(None);
        }
        match self.known(location) {
            Some(Known::Whole(bytes, meta)) => Ok(Some((bytes, meta))),
            Some(Known::Size(size)) if size <= SMALL && self.kept().saturating_add(size) <= self.capacity => {
                let lock = match self.fetching.lock() {
                    Ok(mut fetching) => fetching.entry(location.clone()).or_default().clone(),
                    Err(_) => return Ok(None),
                };
                let _fetching = lock.lock().await;
                // Another range may have fetched it while this one waited.
                if let Some(Known::Whole(bytes, meta)) = self.known(location) {
                    return Ok(Some((bytes, meta)));
                }
                let result = self.inner.get_opts(location, GetOptions::default()).await?;
                let meta = result.meta.clone();
                let bytes = result.bytes().await?;
                self.remember(location, Known::Whole(bytes.clone(), meta.clone()));
                Ok(Some((bytes, meta)))
            }
            _ => Ok(None),
        }
    }
}

/// A file lance writes once and never changes: a data file or a file of an index.
fn immutable(location: &Path) -> bool {
    location.parts().any(|part| matches!(part.as_ref(), "data" | "_indices"))
}

/// Options that only ask for bytes (no condition, no version), which a copy can answer.
fn plain(options: &GetOptions) -> bool {
    !options.head
        && options.if_match.is_none()
        && options.if_none_match.is_none()
        && options.if_modified_since.is_none()
        && options.if_unmodified_since.is_none()
        && options.version.is_none()
}

impl fmt::Display for SmallFiles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SmallFiles({})", self.inner)
    }
}

#[async_trait::async_trait]
impl ObjectStore for SmallFiles {
    async fn put_opts(&self, location: &Path, payload: PutPayload, opts: PutOptions) -> Result<PutResult> {
        self.inner.put_opts(location, payload, opts).await
    }

    async fn put_multipart_opts(&self, location: &Path, opts: PutMultipartOptions) -> Result<Box<dyn MultipartUpload>> {
        self.inner.put_multipart_opts(location, opts).await
    }

    async fn get_opts(&self, location: &Path, options: GetOptions) -> Result<GetResult> {
        if plain(&options)
            && let Some((bytes, meta)) = self.whole(location).await?
        {
            let length = bytes.len() as u64;
            // A range the file cannot serve goes to the store, which says what is wrong with it.
            let range = match &options.range {
                None => Some(0..length),
                Some(range) => range.as_range(length).ok(),
            };
            if let Some(range) = range {
                let part = bytes.slice(range.start as usize..range.end as usize);
                return Ok(GetResult {
                    payload: GetResultPayload::Stream(Box::pin(futures::stream::once(async move { Ok(part) }))),
                    meta,
                    range,
                    attributes: Attributes::default(),
                    extensions: Default::default(),
                });
            }
        }
        let result = self.inner.get_opts(location, options).await?;
        if immutable(location) {
            self.remember(location, Known::Size(result.meta.size));
        }
        Ok(result)
    }

    async fn get_ranges(&self, location: &Path, ranges: &[Range<u64>]) -> Result<Vec<Bytes>> {
        if let Some((bytes, _)) = self.whole(location).await?
            && ranges.iter().all(|r| r.start <= r.end && r.end <= bytes.len() as u64)
        {
            return Ok(ranges.iter().map(|r| bytes.slice(r.start as usize..r.end as usize)).collect());
        }
        self.inner.get_ranges(location, ranges).await
    }

    fn delete_stream(&self, locations: BoxStream<'static, Result<Path>>) -> BoxStream<'static, Result<Path>> {
        self.inner.delete_stream(locations)
    }

    fn list(&self, prefix: Option<&Path>) -> BoxStream<'static, Result<ObjectMeta>> {
        self.inner.list(prefix)
    }

    fn list_with_offset(&self, prefix: Option<&Path>, offset: &Path) -> BoxStream<'static, Result<ObjectMeta>> {
        self.inner.list_with_offset(prefix, offset)
    }

    async fn list_with_delimiter(&self, prefix: Option<&Path>) -> Result<ListResult> {
        self.inner.list_with_delimiter(prefix).await
    }

    async fn copy_opts(&self, from: &Path, to: &Path, options: CopyOptions) -> Result<()> {
        self.inner.copy_opts(from, to, options).await
    }

    async fn rename_opts(&self, from: &Path, to: &Path, options: RenameOptions) -> Result<()> {
        self.inner.rename_opts(from, to, options).await
    }
}

#[cfg(test)]
mod tests {
    use super::super::counting::IoStats;
    use super::*;
    use object_store::ObjectStoreExt;
    use object_store::memory::InMemory;

    async fn store_with(path: &str, size: usize) -> (Arc<dyn ObjectStore>, IoCounter, Vec<u8>) {
        let memory: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
        let data: Vec<u8> = (0..size).map(|i| (i % 251) as u8).collect();
        memory.put(&Path::from(path), data.clone().into()).await.unwrap();
        let counter = IoCounter::default();
        (SmallFiles::wrap(counter.wrap(memory)), counter, data)
    }

    #[tokio::test]
    async fn a_full_store_reads_further_files_range_by_range() {
        let memory: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
        for name in ["a", "b"] {
            memory.put(&Path::from(format!("t/data/{name}.lance")), vec![7_u8; 600].into()).await.unwrap();
        }
        let counter = IoCounter::default();
        let store = SmallFiles::with_capacity(counter.wrap(memory), 1_000);
        for name in ["a", "b"] {
            let path = Path::from(format!("t/data/{name}.lance"));
            for start in [0_u64, 100, 200, 300] {
                assert_eq!(&store.get_range(&path, start..start + 10).await.unwrap()[..], &[7_u8; 10]);
            }
        }
        // `a` fits (its first range, then whole); `b` would pass the 1,000 bytes: four ranges.
        assert_eq!(counter.take().requests, 2 + 4);
    }

    #[tokio::test]
    async fn a_small_data_file_is_fetched_whole_on_its_second_range_then_served_from_memory() {
        let path = Path::from("t/chunks.lance/data/a.lance");
        let (store, counter, data) = store_with(path.as_ref(), 10_000).await;
        for range in [0..100_u64, 5_000..5_300, 9_990..10_000, 20..40] {
            let bytes = store.get_range(&path, range.clone()).await.unwrap();
            assert_eq!(&bytes[..], &data[range.start as usize..range.end as usize]);
        }
        let parts = store.get_ranges(&path, &[1..2, 300..600]).await.unwrap();
        assert_eq!((&parts[0][..], &parts[1][..]), (&data[1..2], &data[300..600]));
        // The first range, then the whole file once; nothing after.
        assert_eq!(counter.take().requests, 2);
        // A range past the end still gets the store's own error.
        assert!(store.get_range(&path, 20_000..20_010).await.is_err());
    }

    #[tokio::test]
    async fn ranges_asked_at_the_same_time_wait_for_one_whole_fetch() {
        // A store that takes time to answer, so the ranges asked together are all in flight at once.
        let memory = InMemory::new();
        let path = Path::from("t/chunks.lance/_indices/i/part_0_invert.lance");
        memory.put(&path, vec![3_u8; 5_000].into()).await.unwrap();
        let config = object_store::throttle::ThrottleConfig {
            wait_get_per_call: std::time::Duration::from_millis(20),
            ..Default::default()
        };
        let slow: Arc<dyn ObjectStore> = Arc::new(object_store::throttle::ThrottledStore::new(memory, config));
        let counter = IoCounter::default();
        let store = SmallFiles::wrap(counter.wrap(slow));
        store.get_range(&path, 0..10).await.unwrap();
        let ranges = [10..20_u64, 100..200, 4_000..4_100, 30..40];
        let parts = futures::future::try_join_all(ranges.iter().map(|r| store.get_range(&path, r.clone()))).await;
        assert!(parts.unwrap().iter().all(|part| part.iter().all(|&b| b == 3)));
        // The first range, then the whole file once: not once per range in flight.
        assert_eq!(counter.take(), IoStats { requests: 2, bytes_read: 10 + 5_000 });
    }

    #[tokio::test]
    async fn large_files_and_files_lance_rewrites_are_read_range_by_range() {
        let large = Path::from("t/chunks.lance/_indices/i/part_0_invert.lance");
        let (store, counter, _) = store_with(large.as_ref(), (SMALL + 1) as usize).await;
        for start in [0_u64, 10, 20] {
            store.get_range(&large, start..start + 5).await.unwrap();
        }
        assert_eq!(counter.take().requests, 3);
        let hint = Path::from("t/chunks.lance/_versions/latest_version_hint.json");
        let (store, counter, _) = store_with(hint.as_ref(), 100).await;
        for start in [0_u64, 10, 20] {
            store.get_range(&hint, start..start + 5).await.unwrap();
        }
        assert_eq!(counter.take().requests, 3);
    }
}
