//! A question about code across an organisation's repositories (`ask --org`, and the bot with an
//! organisation's store), searched in the repositories' own indexes, read in place. No chunk table
//! spans repositories, so the search is in two steps: the candidate repositories are put in order,
//! those the question names, or when it names none, all of them ranked for the question on their lexicons
//! ([`strata_search::route`]: one ranking across them, every term weighed by its rarity over all of
//! them); then the first is searched, with its own ranking and decline, and answers or declines under
//! its repository's name.
//!
//! The order decides, not the answers' evidence: each repository's decline model scores its evidence
//! against its own words, so a small repository's scores run higher than a large one's for the same
//! match, while the ranking across repositories weighs every word alike. On the organisation bench
//! (`bench/org.sh`), of the questions two or more repositories could answer, the first by words was
//! the right repository for 32 of 40, the best-evidenced answer for 25. Nor is the next repository
//! searched when the first declines: the question is less likely about it, and on the same bench
//! searching up to three in turn declined fewer questions about things the repositories lack (requests
//! 69 → 67 %, scrapy 93 → 90 %) to answer one more answerable question (of 192), and read more.

use anyhow::Result;
use strata_core::config::LlmServer;
use strata_core::org::{Catalog, CatalogEntry};
use strata_search::location::{IndexLocation, IoStats, OrgStore};

use super::generate::ChatSettings;
use super::loaded::LoadedIndex;
use super::{Answer, Answerer, Mode, under_repository};
use futures::StreamExt;

/// How many lexicons are read at once when ranking the repositories.
const ROUTED_AT_ONCE: usize = 16;
/// How many of the next repositories by their words a note names.
const NEXT_NAMED: usize = 3;

/// The repositories a question can be about: those it names (a package written as code, or a
/// repository's or package's name written as a name, `Catalog::named_in`) and the ones connected to
/// them by imports, or every repository when it names none.
fn candidates(catalog: &Catalog, question: &str) -> Vec<String> {
    catalog.reading_for(&[question]).unwrap_or_else(|| catalog.repositories.keys().cloned().collect())
}

/// `question` answered for an organisation (`org`: the answerer of its joined graph): by the graph when
/// it answers exactly, else from the repositories' code. The candidate repositories come in order
/// (those it names, or when it names none, all of them by their words) and the first is searched: its
/// answer or decline, its modules under the repository's name, with a note naming the repository
/// searched and the next ones by their words; the organisation's decline when no candidate holds the
/// question's words; the graph's reply when there is no candidate. With what the code search read
/// through its own client (the lexicons and the catalog are read through `store`'s, counted there).
pub async fn answer_in_organisation(
    org: &Answerer<'_>,
    store: &OrgStore,
    catalog: &Catalog,
    question: &str,
    server: Option<&LlmServer>,
    chat: Option<&ChatSettings>,
) -> Result<(Answer, IoStats)> {
    let graph_answer = org.answer(question).await?;
    if graph_answer.mode == Mode::Structural {
        return Ok((graph_answer, IoStats::default()));
    }
    let candidates = candidates(catalog, question);
    let named: Vec<String> = catalog.named_in(question).into_iter().filter(|name| candidates.contains(name)).collect();
    // A question that names a repository is about it: the others' lexicons are not read.
    let by_words = named.is_empty();
    let order = if by_words { route(store, catalog, &candidates, question).await } else { named };
    let Some(first) = order.first() else {
        let declined = (!candidates.is_empty()).then(|| {
            let n = candidates.len();
            let of = if n == 1 { format!("the repository {}", candidates[0]) } else { format!("the {n} repositories") };
            org.declined(
                question,
                format!("I don't know: the code of {of} this question can be about holds none of its words."),
                Vec::new(),
            )
        });
        return Ok((declined.unwrap_or(graph_answer), IoStats::default()));
    };
    let location = IndexLocation::Object(store.index_location(&catalog.repositories[first].index));
    let index = LoadedIndex::open_at(&location, server).await?;
    let mut answer = index.answerer(chat).answer(question).await?;
    let stats = index.remote.as_ref().map(|remote| remote.take_stats()).unwrap_or_default();
    under_repository(&mut answer, first);
    answer.notes.push(match candidates.len() {
        1 => format!("searched the code of {first}"),
        _ if !by_words => format!("searched the code of {first}, which the question names"),
        n => format!("searched the code of {first}: the first by their words of {n} repositories"),
    });
    let next: Vec<&str> = order.iter().skip(1).take(NEXT_NAMED).map(String::as_str).collect();
    if !next.is_empty() {
        let how = if by_words { "next by their words" } else { "also named" };
        answer.notes.push(format!("{how}: {}", next.join(", ")));
    }
    Ok((answer, stats))
}

/// `candidates` whose best module scores highest for the question on their lexicons, best first
/// (ties in name order); one holding none of the question's words is left out, and so is one whose
/// lexicon cannot be read (a damaged index, or one written before lexicons: its search could not run
/// either).
async fn route(store: &OrgStore, catalog: &Catalog, candidates: &[String], question: &str) -> Vec<String> {
    let entries: Vec<(&String, &CatalogEntry)> =
        candidates.iter().filter_map(|name| Some((name, catalog.repositories.get(name)?))).collect();
    let lexicons: Vec<Option<strata_search::lexicon::Lexicon>> = futures::stream::iter(&entries)
        .map(|(name, entry)| async move { store.lexicon(name, entry).await.ok() })
        .buffered(ROUTED_AT_ONCE)
        .collect()
        .await;
    let readable: Vec<(&String, &strata_search::lexicon::Lexicon)> =
        entries.iter().zip(&lexicons).filter_map(|((name, _), lexicon)| Some((*name, lexicon.as_ref()?))).collect();
    let terms = strata_core::text::question_terms(question);
    let lexicon_refs: Vec<&strata_search::lexicon::Lexicon> = readable.iter().map(|(_, lexicon)| *lexicon).collect();
    let scores = strata_search::route::route(&terms, &lexicon_refs, &strata_core::bundle::fitted_ranking());
    let mut ranked: Vec<(f32, &String)> = readable
        .iter()
        .zip(scores)
        .filter(|(_, score)| *score > 0.0)
        .map(|((name, _), score)| (score, *name))
        .collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    ranked.into_iter().map(|(_, name)| name.clone()).collect()
}
