//! The chunk search through `vectors.parquet` against LanceDB's own query on the same table: the same
//! nearest neighbours, and the same fused ranking, for a table written whole and for one updated in place;
//! the pool of hits read without text, and the text of the hits an answer shows read after.

use super::chunks::{Chunk, ChunkKind};
use super::embed::{Embedder, HashingEmbedder};
use super::store::{ChunkStore, Hit};
use super::vectors::{VectorColumns, write_vectors};
use super::{PreviousTable, text_hash, update_search_index, write_search_index};

const TEXTS: &[&str] = &[
    "def send(request): open a connection, send the request and read the response",
    "class Session: keeps cookies and connection pools across requests",
    "def get_netrc_auth(url): read credentials for a host from the netrc file",
    "def parse_header_links(value): split a Link header into its urls and parameters",
    "class HTTPAdapter: the transport adapter that sends requests over urllib3 pools",
    "def to_native_string(string): convert a string to the native str type",
    "def rebuild_proxies(prepared): rebuild the proxy settings when a request is redirected",
    "def iter_content(chunk_size): iterate over the response body in chunks of bytes",
    "class CaseInsensitiveDict: a dict whose keys compare without case",
    "def super_len(o): the length of a file-like object or string, for the content length",
];

fn chunks(texts: &[&str]) -> Vec<Chunk> {
    texts
        .iter()
        .enumerate()
        .map(|(i, text)| Chunk {
            id: format!("code:m{i}.py:1-2"),
            kind: ChunkKind::Code,
            module: format!("m{i}.py"),
            folder: String::new(),
            symbol: None,
            line_start: 1,
            line_end: 2,
            text: text.to_string(),
        })
        .collect()
}

/// Two rankings agree: the same scores, and the same chunk wherever a score is not shared (chunks at
/// an equal distance or an equal fused score may come in either order).
fn agree(question: &str, a: &[Hit], b: &[Hit]) {
    let scores = |hits: &[Hit]| hits.iter().map(|hit| (hit.score * 1e5).round() as i64).collect::<Vec<_>>();
    let (sa, sb) = (scores(a), scores(b));
    let (mut sorted_a, mut sorted_b) = (sa.clone(), sb.clone());
    sorted_a.sort();
    sorted_b.sort();
    assert_eq!(sorted_a, sorted_b, "{question}: different scores");
    for (hit, score) in a.iter().zip(&sa) {
        if sa.iter().filter(|s| *s == score).count() == 1 {
            let other = b.iter().zip(&sb).find(|(_, s)| *s == score).map(|(hit, _)| hit.id.as_str());
            assert_eq!(other, Some(hit.id.as_str()), "{question}: score {score} is another chunk's");
        }
    }
}

async fn same_search_both_ways(dir: &std::path::Path) {
    let store = ChunkStore::open(dir).await.unwrap();
    let vectors = VectorColumns::open(dir).await.unwrap().expect("vectors.parquet is written with the table");
    let mut fused_compared = 0;
    for question in [
        "how are cookies kept across requests",
        "proxy settings after a redirect",
        "netrc credentials",
        "send the request over a connection and read the response",
    ] {
        let vector = HashingEmbedder.embed(&[question]).await.unwrap().remove(0);
        let nearest_file = store.search("", &vector, 4, Some(&vectors)).await.unwrap();
        let nearest_lance = store.search("", &vector, 4, None).await.unwrap();
        agree(question, &nearest_file, &nearest_lance);
        // The fused ranking depends on the order of chunks at an equal distance, which neither search
        // fixes the same way: compared when the nearest six have six different distances.
        let six = store.search("", &vector, 6, Some(&vectors)).await.unwrap();
        let mut distances: Vec<i64> = six.iter().map(|hit| (hit.score * 1e5).round() as i64).collect();
        distances.dedup();
        if distances.len() == six.len() {
            let through_file = store.search(question, &vector, 5, Some(&vectors)).await.unwrap();
            let through_lance = store.search(question, &vector, 5, None).await.unwrap();
            agree(question, &through_file, &through_lance);
            fused_compared += 1;
        }
    }
    assert!(fused_compared >= 2, "only {fused_compared} questions without ties");
}

/// The index of `dir` updated in place to `texts` (`all` and `hashes` its chunks and their text
/// hashes), written to a new folder.
async fn updated(dir: &std::path::Path, all: &[Chunk], hashes: Vec<String>, texts: &[&str]) -> tempfile::TempDir {
    let fresh = chunks(texts);
    let fresh_hashes: Vec<String> = fresh.iter().map(|chunk| text_hash(&chunk.text)).collect();
    let previous = std::collections::BTreeMap::from_iter(all.iter().map(|c| c.id.clone()).zip(hashes));
    let next = tempfile::tempdir().unwrap();
    let table = PreviousTable { index_dir: dir, hashes: &previous };
    update_search_index(next.path(), &fresh, &fresh_hashes, &[], &table, &HashingEmbedder).await.unwrap();
    next
}

/// The search index of `TEXTS` written whole: its folder, chunks and their text hashes.
async fn written() -> (tempfile::TempDir, Vec<Chunk>, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let all = chunks(TEXTS);
    let hashes: Vec<String> = all.iter().map(|chunk| text_hash(&chunk.text)).collect();
    write_search_index(dir.path(), &all, &hashes, None, &HashingEmbedder).await.unwrap();
    (dir, all, hashes)
}

#[tokio::test]
async fn the_search_through_the_vectors_file_is_lancedbs() {
    let (dir, all, hashes) = written().await;
    same_search_both_ways(dir.path()).await;

    // Rows recorded for another version of the table are not used: the chunks are found by id.
    let copy = tempfile::tempdir().unwrap();
    super::copy_tree(dir.path(), copy.path(), false).unwrap();
    let store = ChunkStore::open(copy.path()).await.unwrap();
    let dimension = HashingEmbedder.dimension();
    write_vectors(copy.path(), store.all_vectors().await.unwrap(), dimension, store.version() + 1).unwrap();
    assert!(!VectorColumns::open(copy.path()).await.unwrap().unwrap().rows_are_of(store.version()));
    same_search_both_ways(copy.path()).await;

    // Updated in place: one chunk changed, one gone, one new; the file follows the table.
    let mut texts: Vec<&str> = TEXTS[..9].to_vec();
    texts[0] = "def send(request, stream): send the request and stream the response body";
    texts.push("def guess_filename(obj): the name of a file-like object");
    let next = updated(dir.path(), &all, hashes, &texts).await;
    let vectors = VectorColumns::open(next.path()).await.unwrap().unwrap();
    let nearest = vectors.nearest(&HashingEmbedder.embed(&["guess the file name"]).await.unwrap()[0], 1).await.unwrap();
    assert_eq!(vectors.ids(&nearest).await.unwrap(), ["code:m9.py:1-2"], "the new chunk is in the file");
    same_search_both_ways(next.path()).await;
}

#[tokio::test]
async fn the_search_reads_no_text_and_the_texts_asked_for_are_each_chunks_own() {
    let (dir, all, _) = written().await;
    let store = ChunkStore::open(dir.path()).await.unwrap();
    let vectors = VectorColumns::open(dir.path()).await.unwrap();
    let question = "how are cookies kept across requests";
    let vector = HashingEmbedder.embed(&[question]).await.unwrap().remove(0);
    let pool = store.search(question, &vector, 5, vectors.as_ref()).await.unwrap();
    assert_eq!(pool.len(), 5);
    assert!(pool.iter().all(|hit| hit.text.is_empty() && !hit.module.is_empty()), "the pool's rows come without text");
    assert!(pool.iter().all(|hit| hit.row.is_some()), "every hit knows its row: {pool:?}");
    let wanted: Vec<(&str, Option<u64>)> =
        pool.iter().take(2).map(|hit| (hit.id.as_str(), hit.row)).chain([("code:gone.py:1-2", None)]).collect();
    let texts = store.texts(&wanted).await.unwrap();
    assert_eq!(texts.len(), 2, "an id the table does not hold is left out");
    for hit in pool.iter().take(2) {
        let chunk = all.iter().find(|chunk| chunk.id == hit.id).unwrap();
        assert_eq!(texts[&hit.id], chunk.text);
    }
    // Rows that hold other chunks (recorded for another version of the table), a row the table does
    // not have, and no row: each chunk's own text all the same, found by id.
    let (a, b) = (&pool[0], &pool[1]);
    let wrong = [(a.id.as_str(), b.row), (b.id.as_str(), Some(1 << 40)), (pool[2].id.as_str(), None)];
    let texts = store.texts(&wrong).await.unwrap();
    assert_eq!(texts.len(), 3);
    for hit in pool.iter().take(3) {
        let chunk = all.iter().find(|chunk| chunk.id == hit.id).unwrap();
        assert_eq!(texts[&hit.id], chunk.text, "{}", hit.id);
    }
}

/// After an update in place the rows `vectors.parquet` records are the updated table's: each takes
/// its own chunk.
#[tokio::test]
async fn the_rows_the_vectors_file_records_are_the_tables() {
    let (dir, all, hashes) = written().await;
    let mut texts: Vec<&str> = TEXTS[1..].to_vec();
    texts.push("def guess_filename(obj): the name of a file-like object");
    let next = updated(dir.path(), &all, hashes, &texts).await;
    let store = ChunkStore::open(next.path()).await.unwrap();
    let vectors = VectorColumns::open(next.path()).await.unwrap().unwrap();
    let vector = HashingEmbedder.embed(&["the name of a file"]).await.unwrap().remove(0);
    assert!(vectors.rows_are_of(store.version()), "the file's rows are of the table it was written from");
    let nearest = vectors.nearest(&vector, texts.len()).await.unwrap();
    assert_eq!(nearest.len(), texts.len());
    let taken = store.take_only(&nearest.iter().map(|near| near.row.expect("rows recorded")).collect::<Vec<_>>()).await;
    for (near, id) in nearest.iter().zip(vectors.ids(&nearest).await.unwrap()) {
        let chunk = chunks(&texts).into_iter().find(|chunk| chunk.id == id).unwrap();
        assert_eq!(taken.get(&id), Some(&chunk.text), "row {:?} of {id}", near.row);
    }
}
