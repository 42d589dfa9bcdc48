//! The light half of strata: everything from a commit's files to the bundle on disk, without LanceDB.
//!
//! In pipeline order: `source` lists the files of a git commit (or a plain directory) with their blob
//! ids; `python` parses each file once with tree-sitter into facts (imports, symbols, exports, entry
//! points); `graph` resolves imports into an importer→imported graph and computes its metrics (cycles,
//! transitive dependents, PageRank, folder index); `bundle` defines and writes the on-disk contract
//! (`bundle.json`, Parquet tables, `graph.html`, `summary.md`, `manifest.json`). `graph_view` is the
//! one way every command asks a bundle's graph a question (reach, paths, rankings, cycles, with the
//! same filters and the same words); `views` draws focused graph views, `impact` computes what a
//! change touches. `config` merges flags with `strata.toml`;
//! `text` is the one way words are split, stemmed and told to be code; `secret` keeps tokens out of logs; `error_text` phrases errors for people.

pub mod bundle;
pub mod config;
pub mod error_text;
pub mod graph;
pub mod graph_view;
pub mod impact;
pub mod org;
pub mod python;
pub mod secret;
pub mod source;
pub mod text;
pub mod views;
