//! `strata ask`: load an index, answer one question, print it as text, Markdown or JSON.
//! Declining is an answer (exit 0); a missing or incompatible index is an error (exit 1).

use std::io::Write;

use anyhow::Result;

use crate::answer::loaded::LoadedIndex;
use crate::answer::{ChatSettings, render};
use crate::cli::{AnswerFormat, AskArgs};
use crate::config::LlmServer;

pub fn run_ask_command(args: &AskArgs) -> Result<()> {
    let question = args.question.join(" ");
    let server = LlmServer::from_values(args.llm.openai_base_url.as_deref(), args.llm.openai_api_key.as_deref());
    let chat =
        server.as_ref().filter(|_| !args.offline).map(|server| ChatSettings::for_server(server, &args.chat_model));
    let answer = super::runtime()?.block_on(async {
        let index = LoadedIndex::open(&args.index, server.as_ref()).await?;
        index.answerer(chat.as_ref()).answer(&question).await
    })?;
    let rendered = match args.format {
        AnswerFormat::Text => render::to_text(&answer),
        AnswerFormat::Markdown => render::to_markdown(&answer),
        AnswerFormat::Json => render::to_json(&answer)? + "\n",
    };
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(rendered.as_bytes())?;
    stdout.flush()?;
    Ok(())
}
