//! `strata check`: the architecture contracts of `strata.toml` against a commit. Violations are printed
//! with file and line (as error annotations in GitHub Actions); with a base index, only violations the
//! change introduces fail the run (exit 1), so existing debt never blocks a pull request. A contract
//! naming a module the commit does not have is an error naming it (exit 1), never a silent pass.

use std::collections::BTreeSet;
use std::io::Write;

use anyhow::{Result, bail};
use serde::Serialize;

use super::output::{MAX_ANNOTATIONS, escape_data, escape_property, in_github_actions};
use crate::cli::{CheckArgs, CheckFormat};
use strata_core::impact::contracts::{Contract, Violation, check, unknown_names};

#[derive(Serialize)]
struct CheckReport<'a> {
    contracts: usize,
    /// Violations the base index does not have (all of them without a base).
    new: Vec<&'a Violation>,
    /// Violations the base index already has.
    existing: Vec<&'a Violation>,
}

pub fn run_check_command(args: &CheckArgs) -> Result<()> {
    let head = super::head_against_base(&args.path, &args.rev, args.previous.as_ref(), &args.selection)?;
    let contracts = &head.settings.contracts;
    if contracts.is_empty() {
        bail!("strata.toml declares no [[contracts]]; see the README's `strata check` section for the kinds");
    }
    let unknown = unknown_names(&head.bundle, contracts);
    if !unknown.is_empty() {
        let named: Vec<String> = unknown.iter().map(ToString::to_string).collect();
        bail!("{}; fix the name in strata.toml (names are dotted modules, such as `shop.api`)", named.join("; "));
    }
    let base = head.previous.as_ref().map(|previous| &previous.bundle);
    let violations = check(&head.bundle, contracts, base);
    // What the base already breaks. `no-new-cycles` compares with the base itself: all it reports is new.
    let import_rules: Vec<Contract> =
        contracts.iter().filter(|c| !matches!(c, Contract::NoNewCycles { .. })).cloned().collect();
    let before: BTreeSet<(String, String, String)> = base
        .map(|base| {
            check(base, &import_rules, None).into_iter().map(|v| (v.contract, v.importer, v.imported)).collect()
        })
        .unwrap_or_default();
    let (existing, new): (Vec<&Violation>, Vec<&Violation>) = violations.iter().partition(|v| {
        let (contract, importer, imported) = v.key();
        before.contains(&(contract.to_string(), importer.to_string(), imported.to_string()))
    });
    let mut stdout = std::io::stdout().lock();
    match args.format {
        CheckFormat::Json => {
            let report = CheckReport { contracts: contracts.len(), new: new.clone(), existing: existing.clone() };
            serde_json::to_writer_pretty(&mut stdout, &report)?;
            writeln!(stdout)?;
        }
        CheckFormat::Text => {
            let listed =
                new.iter().map(|v| (v, "")).chain(existing.iter().map(|v| (v, " (already on the base branch)")));
            for (violation, note) in listed {
                let Violation { importer, line, contract, message, .. } = violation;
                writeln!(stdout, "{importer}:{line}: [{contract}] {message}{note}")?;
            }
            writeln!(
                stdout,
                "{} contract(s): {} new violation(s), {} existing",
                contracts.len(),
                new.len(),
                existing.len()
            )?;
        }
    }
    if in_github_actions() {
        for violation in new.iter().take(MAX_ANNOTATIONS) {
            eprintln!(
                "::error file={},line={},title={}::{}",
                escape_property(&violation.importer),
                violation.line,
                escape_property(&format!("strata check: {}", violation.contract)),
                escape_data(&violation.message)
            );
        }
    }
    if !new.is_empty() {
        bail!("{} new contract violation(s)", new.len());
    }
    Ok(())
}
