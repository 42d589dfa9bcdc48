//! Whole-command tests of the `strata` binary over tiny fixture repositories, in one test binary.
//!
//! `support` owns temporary repositories (real git repositories made with the git CLI and fixed dates,
//! so commit ids are stable) and runs the binary; each other module covers one command.

mod ask;
mod bot;
mod eval;
mod incremental;
mod index;
mod support;
