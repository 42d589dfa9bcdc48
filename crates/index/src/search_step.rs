//! The search stage of a run: chunks for the bundle and the files read, then the previous LanceDB
//! table updated in place (only changed chunks embedded), or, without a usable previous table or when
//! the update fails, the table written anew from every file.

use std::collections::BTreeMap;
use std::time::Instant;

use anyhow::Result;
use rayon::prelude::*;

use strata_core::python::decode_python_source;
use strata_core::source::FileEntry;
use strata_search::chunks::{Chunk, build_chunks};
use strata_search::lexicon::{self, Lexicon};
use strata_search::{PreviousTable, SearchIndexStats, text_hash, update_search_index, write_search_index};

use super::head::Head;
use super::reuse::kept_code_chunks;
use super::{IndexRequest, Warning, elapsed_ms};

/// Builds the search table for `head`; its bytes read are consumed. Step timings go into
/// `head.timings_ms` as `search.*`.
pub async fn build_search_index(request: &IndexRequest<'_>, head: &mut Head) -> Result<SearchIndexStats> {
    let contents = std::mem::take(&mut head.contents);
    let sources: BTreeMap<String, String> = head
        .to_read
        .iter()
        .zip(&contents)
        .map(|(file, bytes)| (file.path.clone(), decode_python_source(bytes)))
        .collect();
    drop(contents);
    let lexicon_clock = Instant::now();
    write_lexicon(request, head, &sources)?;
    head.timings_ms.insert("search.lexicon".to_string(), elapsed_ms(lexicon_clock));
    let chunk_clock = Instant::now();
    let fresh = build_chunks(&head.bundle, &sources);
    let fresh_hashes: Vec<String> = fresh.par_iter().map(|chunk| text_hash(&chunk.text)).collect();
    head.timings_ms.insert("search.chunks".to_string(), elapsed_ms(chunk_clock));
    let mut updated = None;
    if let (Some(previous), Some(dir)) = (&head.previous, request.previous)
        && previous.same_embedder
    {
        let update = async {
            let hashes = previous.manifest.chunk_hashes(dir)?;
            let kept = kept_code_chunks(&hashes, &head.selected, &head.keeps_code_chunks);
            let table = PreviousTable { index_dir: dir, hashes: &hashes };
            update_search_index(request.out_dir, &fresh, &fresh_hashes, &kept, &table, request.embedder).await
        };
        match update.await {
            Ok(stats) => updated = Some(stats),
            Err(error) => head.warnings.push(Warning {
                path: None,
                line: None,
                message: format!("could not update the previous search table in place ({error:#}); rewriting it"),
            }),
        }
    }
    let stats = match updated {
        Some(stats) => stats,
        None => rewrite_search_index(request, head, sources, (fresh, fresh_hashes)).await?,
    };
    for (step, ms) in &stats.timings_ms {
        head.timings_ms.insert(format!("search.{step}"), *ms);
    }
    Ok(stats)
}

/// `lexicon.parquet` for the head: terms of the files read now, the others' from the previous
/// lexicon; files in neither (a previous index without a usable lexicon) are read for it.
fn write_lexicon(request: &IndexRequest<'_>, head: &Head, sources: &BTreeMap<String, String>) -> Result<()> {
    let ids: Vec<&str> = head.bundle.nodes.keys().map(String::as_str).collect();
    let previous: Option<(Lexicon, Vec<&str>)> = match (&head.previous, request.previous) {
        (Some(previous), Some(dir)) => {
            let previous_ids: Vec<&str> = previous.bundle.nodes.keys().map(String::as_str).collect();
            lexicon::read_lexicon(dir, &previous_ids).ok().map(|lexicon| (lexicon, previous_ids))
        }
        _ => None,
    };
    let known: std::collections::BTreeSet<&str> =
        previous.as_ref().map(|(_, ids)| ids.iter().copied().collect()).unwrap_or_default();
    let unread: Vec<FileEntry> = head
        .selected
        .iter()
        .filter(|file| !sources.contains_key(&file.path) && !known.contains(file.path.as_str()))
        .cloned()
        .collect();
    let lexicon = if unread.is_empty() && head.skipped.is_empty() {
        lexicon::assemble(&ids, sources, previous.as_ref().map(|(l, ids)| (l, ids.as_slice())))?
    } else {
        let mut all = sources.clone();
        let contents = head.snapshot.read_all(&unread)?;
        all.extend(unread.iter().zip(&contents).map(|(f, bytes)| (f.path.clone(), decode_python_source(bytes))));
        // Modules skipped for their size have no text to take terms from.
        all.extend(head.skipped.iter().map(|skip| (skip.path.clone(), String::new())));
        lexicon::assemble(&ids, &all, previous.as_ref().map(|(l, ids)| (l, ids.as_slice())))?
    };
    lexicon::write_lexicon(request.out_dir, &lexicon, &ids)
}

/// The whole table written anew. Files whose code chunks were to be kept from the previous table are
/// read after all (without any, `fresh` is already every chunk); vectors of unchanged chunks still come
/// from the previous table when its embedder is this one (another embedder's vectors are useless,
/// whatever their dimension).
async fn rewrite_search_index(
    request: &IndexRequest<'_>,
    head: &Head,
    mut sources: BTreeMap<String, String>,
    fresh: (Vec<Chunk>, Vec<String>),
) -> Result<SearchIndexStats> {
    let unread: Vec<FileEntry> = head.selected.iter().filter(|f| !sources.contains_key(&f.path)).cloned().collect();
    let (chunks, hashes) = if unread.is_empty() {
        fresh
    } else {
        drop(fresh);
        let contents = head.snapshot.read_all(&unread)?;
        sources.extend(unread.iter().zip(&contents).map(|(f, bytes)| (f.path.clone(), decode_python_source(bytes))));
        let chunks = build_chunks(&head.bundle, &sources);
        let hashes = chunks.par_iter().map(|chunk| text_hash(&chunk.text)).collect();
        (chunks, hashes)
    };
    drop(sources);
    let vectors_from = head.previous.as_ref().filter(|p| p.same_embedder).and(request.previous);
    write_search_index(request.out_dir, &chunks, &hashes, vectors_from, request.embedder).await
}
