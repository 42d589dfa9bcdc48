//! The `strata` binary: parse the command line, run the subcommand, map the outcome to an exit code.

use std::process::ExitCode;

use clap::Parser;

use strata::cli::{Cli, Command};
use strata::commands;

/// mimalloc for Rust allocations and, through `tree_sitter::set_allocator`, for tree-sitter's C code:
/// parsing allocates a node per token and glibc's malloc was a tenth of the profile.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Exit codes of every subcommand (the contract in the README and `docs/ask.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Exit {
    Success = 0,
    Failure = 1,
    Usage = 2,
}

fn main() -> ExitCode {
    // SAFETY: called once, before any tree-sitter object exists; mimalloc's functions are thread-safe
    // and match the C allocator signatures tree-sitter expects.
    unsafe {
        tree_sitter::set_allocator(
            Some(libmimalloc_sys::mi_malloc),
            Some(libmimalloc_sys::mi_calloc),
            Some(libmimalloc_sys::mi_realloc),
            Some(libmimalloc_sys::mi_free),
        );
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.print();
            return ExitCode::from(if error.use_stderr() { Exit::Usage } else { Exit::Success } as u8);
        }
    };
    let result = match &cli.command {
        Command::Index(args) => commands::run_index_command(args),
        Command::Ask(args) => commands::run_ask_command(args),
        Command::Diff(args) => commands::run_diff_command(args),
        Command::Impact(args) => commands::run_impact_command(args),
        Command::Check(args) => commands::run_check_command(args),
        Command::Graph(args) => commands::run_graph_command(args),
        Command::Bot(args) => commands::run_bot_command(args),
        Command::Fetch(args) => commands::run_fetch_command(args),
        Command::Eval(args) => commands::run_eval_command(args),
        Command::Fit(args) => commands::run_fit_command(args),
    };
    ExitCode::from(exit_for(result) as u8)
}

fn exit_for(result: anyhow::Result<()>) -> Exit {
    let Err(error) = result else {
        return Exit::Success;
    };
    if is_broken_pipe(&error) {
        return Exit::Success;
    }
    // Errors can quote paths and files (a pull request's): no line of one may start a workflow command.
    let text = strata_core::error_text::clean_error_text(&format!("{error:#}"));
    eprintln!("error: {}", commands::output::indent_continuation(&text));
    Exit::Failure
}

/// `strata index --json | head` must not report an error when `head` stops reading.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_follow_the_contract() {
        assert_eq!(exit_for(Ok(())) as u8, 0);
        assert_eq!(exit_for(Err(anyhow::anyhow!("boom"))) as u8, 1);
        let pipe = std::io::Error::new(std::io::ErrorKind::BrokenPipe, "closed");
        assert_eq!(exit_for(Err(anyhow::Error::new(pipe).context("writing"))) as u8, 0);
        assert_eq!(Exit::Usage as u8, 2);
    }
}
