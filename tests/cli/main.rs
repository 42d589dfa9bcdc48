//! Whole-command tests of the `strata` binary over tiny fixture repositories, in one test binary.
//!
//! `support` owns temporary repositories (real git repositories written with gix and fixed dates,
//! so commit ids are stable) and runs the binary; each other module covers one command.

mod ask;
mod bot;
mod bot_gfm;
mod bot_limits;
mod bot_pull;
mod consistency;
mod embedder;
mod eval;
mod facts;
mod graph;
mod impact;
mod incremental;
mod index;
mod object_store;
mod oracle;
mod org;
mod support;
