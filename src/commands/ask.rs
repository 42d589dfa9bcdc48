//! `strata ask`: load an index, answer one question (or every line of `--questions FILE`, loading the
//! index once), print it as text, Markdown or JSON (one line per answer for a file).
//! Declining is an answer (exit 0); a missing or incompatible index is an error (exit 1).

use std::io::Write;

use anyhow::{Context, Result};

use crate::cli::{AnswerFormat, AskArgs};
use strata_answer::loaded::LoadedIndex;
use strata_answer::{ChatSettings, render};
use strata_core::config::LlmServer;
use strata_core::secret::Secret;

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
        let index = LoadedIndex::open(&args.index, server.as_ref()).await?;
        let answerer = index.answerer(chat.as_ref());
        let mut stdout = std::io::stdout().lock();
        for question in &questions {
            let answer = answerer.answer(question).await?;
            // The model's own error text goes to the log, never into the answer.
            for diagnostic in &answer.diagnostics {
                eprintln!("strata ask: {diagnostic}");
            }
            let rendered = match args.format {
                AnswerFormat::Text => render::to_text(&answer),
                AnswerFormat::Markdown => render::to_markdown(&answer),
                AnswerFormat::Json if args.questions.is_some() => serde_json::to_string(&answer)? + "\n",
                AnswerFormat::Json => render::to_json(&answer)? + "\n",
            };
            stdout.write_all(rendered.as_bytes())?;
        }
        stdout.flush()?;
        Ok(())
    })
}

/// The non-empty lines of a questions file (`-`: standard input).
fn read_questions(path: &std::path::Path) -> Result<Vec<String>> {
    let text = if path.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin())?
    } else {
        std::fs::read_to_string(path).with_context(|| format!("cannot read the questions file {}", path.display()))?
    };
    Ok(text.lines().map(str::trim).filter(|line| !line.is_empty()).map(str::to_string).collect())
}
