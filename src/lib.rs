//! The `strata` binary's library half: what clap parses (`cli`) and the subcommands (`commands`), the
//! only layer that prints.
//!
//! The work is done by the workspace's crates, one per pipeline stage, dependencies pointing one way:
//! `strata-core` (source → python → graph → bundle, plus views, impact and config) → `strata-search`
//! (chunks, embeddings, LanceDB) → `strata-answer` (questions) → `strata-index` (the pipeline over one
//! plan) → `strata-github` (the bot), with `strata-eval` beside github.

pub mod cli;
pub mod commands;
