//! `strata ask`: load an index, answer one question (or every line of `--questions FILE`, loading the
//! index once), print it as text, Markdown or JSON (one line per answer for a file).
//! Declining is an answer (exit 0); a missing or incompatible index is an error (exit 1). An index on
//! object storage is read in place; its JSON answers carry what each read (`storage`).

use std::io::Write;

use anyhow::{Context, Result};

use crate::cli::{AnswerFormat, AskArgs};
use strata_answer::loaded::LoadedIndex;
use strata_answer::{ChatSettings, render};
use strata_core::config::LlmServer;
use strata_core::secret::Secret;
use strata_search::location::IoStats;

pub fn run_ask_command(args: &AskArgs) -> Result<()> {
    let questions = match &args.questions {
        Some(path) => read_questions(path)?,
        None => vec![args.question.join(" ")],
    };
    let server = LlmServer::from_values(
        args.llm.openai_base_url.as_deref(),
        args.llm.openai_api_key.as_ref().map(Secret::expose),
    );
    let chat = server.as_ref().filter(|_| !args.offline).map(|server| {
        ChatSettings::for_server(server, &args.chat_model, std::time::Duration::from_secs(args.chat_timeout))
    });
    super::runtime()?.block_on(async {
        let (index, org) = match &args.org {
            Some(location) => {
                let store = super::org::org_store(location)?;
                let (catalog, _) = store.catalog().await?;
                if catalog.repositories.is_empty() {
                    anyhow::bail!(
                        "{location} holds no catalog yet; run `strata index --org {location}` in each repository first"
                    );
                }
                // Only the repositories the question's modules connect, when it names any (all of them
                // for a question about the whole organisation, such as its cycles).
                let asked: Vec<&str> = questions.iter().map(String::as_str).collect();
                let reading = catalog.reading_for(&asked);
                let graph = store.graph(&catalog, reading.as_deref(), &[]).await?;
                if args.verbose {
                    for warning in &graph.warnings {
                        eprintln!("strata ask: {warning}");
                    }
                }
                (LoadedIndex::organisation(graph.bundle, &location.to_string()), Some((store, catalog)))
            }
            None => (LoadedIndex::open_at(&args.index, server.as_ref()).await?, None),
        };
        let answerer = index.answerer(chat.as_ref());
        let mut stdout = std::io::stdout().lock();
        for question in &questions {
            let (answer, searched) = match &org {
                Some((store, catalog)) => {
                    strata_answer::answer_in_organisation(
                        &answerer,
                        store,
                        catalog,
                        question,
                        server.as_ref(),
                        chat.as_ref(),
                    )
                    .await?
                }
                None => (answerer.answer(question).await?, IoStats::default()),
            };
            // The model's own error text goes to the log, never into the answer.
            for diagnostic in &answer.diagnostics {
                eprintln!("strata ask: {diagnostic}");
            }
            // What this answer read from object storage (the first one's includes opening the index).
            let storage = match (&org, &index.remote) {
                (Some((store, _)), _) => {
                    let mut stats = store.take_stats();
                    stats += searched;
                    Some(StorageReport { location: store.location().to_string(), stats })
                }
                (None, Some(remote)) => {
                    Some(StorageReport { location: remote.location().to_string(), stats: remote.take_stats() })
                }
                (None, None) => None,
            };
            if let (true, Some(storage)) = (args.verbose, &storage) {
                eprintln!(
                    "strata ask: read {} bytes in {} requests from {}",
                    storage.stats.bytes_read, storage.stats.requests, storage.location
                );
            }
            let rendered = match (args.format, &storage) {
                (AnswerFormat::Text, _) => render::to_text(&answer),
                (AnswerFormat::Markdown, _) => render::to_markdown(&answer),
                (AnswerFormat::Json, Some(storage)) => {
                    let with_storage = WithStorage { answer: &answer, storage };
                    let text = if args.questions.is_some() {
                        serde_json::to_string(&with_storage)?
                    } else {
                        serde_json::to_string_pretty(&with_storage)?
                    };
                    text + "\n"
                }
                (AnswerFormat::Json, None) if args.questions.is_some() => serde_json::to_string(&answer)? + "\n",
                (AnswerFormat::Json, None) => render::to_json(&answer)? + "\n",
            };
            stdout.write_all(rendered.as_bytes())?;
        }
        stdout.flush()?;
        Ok(())
    })
}

/// A JSON answer with its `storage` key (flattened, so the answer's own fields print as they do alone).
#[derive(serde::Serialize)]
struct WithStorage<'a> {
    #[serde(flatten)]
    answer: &'a strata_answer::Answer,
    storage: &'a StorageReport,
}

/// The `storage` key of a JSON answer from an index on object storage.
#[derive(serde::Serialize)]
struct StorageReport {
    location: String,
    #[serde(flatten)]
    stats: IoStats,
}

/// The non-empty lines of a questions file (`-`: standard input). A line that is not valid UTF-8 is
/// still asked, its bad bytes replaced, with a warning naming it: one bad line loses no other answer.
fn read_questions(path: &std::path::Path) -> Result<Vec<String>> {
    let bytes = if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes)?;
        bytes
    } else {
        std::fs::read(path).with_context(|| format!("cannot read the questions file {}", path.display()))?
    };
    let (questions, bad_lines) = question_lines(&bytes);
    for line in bad_lines {
        eprintln!(
            "strata ask: line {line} of {} is not valid UTF-8; asked with its bad bytes replaced",
            path.display()
        );
    }
    Ok(questions)
}

/// The trimmed non-empty lines of `bytes`, and the numbers (from 1) of lines that were not UTF-8.
fn question_lines(bytes: &[u8]) -> (Vec<String>, Vec<usize>) {
    let mut questions = Vec::new();
    let mut bad_lines = Vec::new();
    for (number, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let text = String::from_utf8_lossy(line);
        if matches!(text, std::borrow::Cow::Owned(_)) {
            bad_lines.push(number + 1);
        }
        let text = text.trim();
        if !text.is_empty() {
            questions.push(text.to_string());
        }
    }
    (questions, bad_lines)
}

#[cfg(test)]
mod tests {
    use super::question_lines;

    #[test]
    fn a_line_that_is_not_utf8_is_kept_and_named() {
        let (questions, bad) = question_lines(b"what imports a?\r\n\xff\xfe odd\n\n  where is B defined?  \n");
        assert_eq!(questions, ["what imports a?", "\u{fffd}\u{fffd} odd", "where is B defined?"]);
        assert_eq!(bad, [2]);
    }
}
