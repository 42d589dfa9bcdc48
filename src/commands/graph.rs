//! `strata graph`: the import graph of an index as Mermaid, DOT or JSON. A module-level Mermaid diagram
//! too large for GitHub falls back to the package level, saying so on stderr.

use std::io::Write;

use anyhow::{Result, bail};

use crate::cli::{GraphArgs, GraphFormat, GraphLevel};
use strata_core::bundle::{Bundle, Manifest, read_bundle};
use strata_core::views::render::{dot, mermaid};
use strata_core::views::{Level, ViewRequest, view};

pub fn run_graph_command(args: &GraphArgs) -> Result<()> {
    let index = super::staged::stage(&args.index, super::staged::GRAPH_FILES)?;
    let manifest = Manifest::read(index.dir())?;
    let bundle = read_bundle(index.dir())?;
    if args.format == GraphFormat::Html {
        return write_page(args, &manifest, &bundle);
    }
    let mut request = ViewRequest {
        level: match args.level {
            GraphLevel::Package => Level::Package,
            GraphLevel::Module => Level::Module,
        },
        focus: args.focus.clone(),
        depth: args.depth,
        cycles: args.cycles,
        runtime: args.runtime,
        package_depth: args.package_depth,
    };
    let shown = view(&bundle, &request)?;
    let text = match args.format {
        GraphFormat::Json => serde_json::to_string_pretty(&shown)? + "\n",
        GraphFormat::Dot => dot(&shown),
        GraphFormat::Mermaid => fitting_mermaid(&bundle, &mut request)?,
        GraphFormat::Html => unreachable!("written above"),
    };
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(())
}

/// The interactive page, opening on the module to focus on, or the cycles, and without `TYPE_CHECKING`
/// imports with `--runtime`; code links need the repository's address (`STRATA_REPOSITORY_URL`).
fn write_page(args: &GraphArgs, manifest: &Manifest, bundle: &Bundle) -> Result<()> {
    let mut start = Vec::new();
    if let Some(focus) = &args.focus {
        let folder = focus.trim_end_matches('/');
        match strata_core::views::find_module(bundle, focus) {
            Some(module) => start.push(format!("module={}", strata_github::percent_encode(module))),
            None if bundle.folder_index.contains_key(folder) => {
                start.push(format!("open={}", strata_github::percent_encode(folder)))
            }
            None => bail!("--focus {focus} names no module or package (folder) of the index"),
        }
    }
    if args.cycles {
        start.push("tab=cycles".to_string());
    }
    if args.runtime {
        start.push("tc=0".to_string());
    }
    let repository = std::env::var("STRATA_REPOSITORY_URL").ok().filter(|url| !url.is_empty());
    let links = repository
        .zip(manifest.selection.as_ref())
        .map(|(repository, selection)| strata_core::bundle::CodeLinks { repository, folder: selection.folder.clone() });
    let page = strata_core::bundle::render_graph_html(bundle, links.as_ref(), &start.join("&"))?;
    std::io::stdout().lock().write_all(page.as_bytes())?;
    Ok(())
}

/// Mermaid that GitHub renders: when the view is too large, the package level, then packages folded to
/// fewer folder levels, each step said on stderr.
fn fitting_mermaid(bundle: &Bundle, request: &mut ViewRequest) -> Result<String> {
    let mut why = match mermaid(&view(bundle, request)?) {
        Ok(text) => return Ok(text),
        Err(why) => why,
    };
    if request.level == Level::Module {
        eprintln!("note: the module graph is too large for GitHub's Mermaid ({why}); showing the package level");
        request.level = Level::Package;
        why = match mermaid(&view(bundle, request)?) {
            Ok(text) => return Ok(text),
            Err(why) => why,
        };
    }
    let deepest = bundle.nodes.values().map(|n| n.folder.split('/').count()).max().unwrap_or(1);
    if request.package_depth.is_none() {
        // A flat package shown as its modules may be what is too large: one box each, first.
        request.package_depth = Some(deepest);
        if view(bundle, request)? != view(bundle, &ViewRequest { package_depth: None, ..request.clone() })? {
            eprintln!(
                "note: the package graph is too large for GitHub's Mermaid ({why}); showing every package as one box"
            );
            why = match mermaid(&view(bundle, request)?) {
                Ok(text) => return Ok(text),
                Err(why) => why,
            };
        }
    }
    for depth in (1..deepest.min(request.package_depth.unwrap_or(deepest))).rev() {
        eprintln!(
            "note: the package graph is too large for GitHub's Mermaid ({why}); folding folders below depth {depth}"
        );
        request.package_depth = Some(depth);
        why = match mermaid(&view(bundle, request)?) {
            Ok(text) => return Ok(text),
            Err(why) => why,
        };
    }
    bail!("the graph is too large for GitHub's Mermaid even folded ({why}); use --focus, --cycles or --format dot")
}
