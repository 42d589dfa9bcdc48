//! strata keeps a structural index of a Python repository.
//!
//! The pipeline, in module order: `source` lists the files of a git commit (or a plain directory) with
//! their blob ids; `python` parses each file once with tree-sitter into facts (imports, symbols, exports,
//! entry points); `graph` resolves imports into an importer→imported graph and computes its metrics
//! (cycles, transitive dependents, PageRank, folder index); `bundle` writes the on-disk contract
//! (`bundle.json`, Parquet tables, `graph.html`, `summary.md`, `manifest.json`); `search` turns the bundle
//! into chunks, embeds them and stores them in LanceDB. `pipeline` runs these in order without printing.
//! `answer` answers questions from an index: exact graph answers or retrieval (+ an optional LLM).
//! `commands` is the only layer that prints. `config` merges flags with `strata.toml`; `cli` is what
//! clap parses.

pub mod answer;
pub mod bundle;
pub mod cli;
pub mod commands;
pub mod config;
pub mod error_text;
pub mod eval;
pub mod github;
pub mod graph;
pub mod impact;
pub mod pipeline;
pub mod python;
pub mod search;
pub mod secret;
pub mod source;
pub mod views;
