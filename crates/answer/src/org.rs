//! Questions across an organisation's repositories (`ask --org`). The organisation's graph names every
//! module under its repository (`billing/billing/invoice.py`), so the one reader and the one graph
//! answer as for one repository. What only an organisation has is read here, before and after:
//! "which repositories import X" asks for the importers grouped by repository, and "in other
//! repositories" leaves out the repository the question's module lives in.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use regex::Regex;

use super::Answer;
use super::understand::{Part, Relation};
use strata_core::bundle::Bundle;
use strata_core::graph_view::{Direction, Filter, GraphView};

/// "in other repositories", "from any other repo", "other repos".
static OTHER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:(?:in|from|of|across|by)\s+(?:the\s+|any\s+|all\s+)?)?other\s+(?:repositories|repository|repos|repo)\b")
        .expect("valid regex")
});
/// Repositories as what is asked for: "which repositories", "what repo".
static PLURAL: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?i)\b(?:repositories|repos)\b").expect("valid regex"));
static WHICH_ONE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\b(which|what)\s+(?:repository|repo)\b").expect("valid regex"));

/// A question across repositories: the text the reader reads, and what to do with its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OrgQuestion {
    /// The question with repositories as the unit asked for read as modules.
    pub text: String,
    /// The answer's modules are wanted by repository.
    pub by_repository: bool,
    /// Modules of the repository the question is about are left out.
    pub other_repositories: bool,
}

pub(crate) fn read(question: &str) -> OrgQuestion {
    let other_repositories = OTHER.is_match(question);
    let text = OTHER.replace_all(question, " ");
    let by_repository = other_repositories || PLURAL.is_match(&text) || WHICH_ONE.is_match(&text);
    let text = PLURAL.replace_all(&text, "modules");
    let text = WHICH_ONE.replace_all(&text, "$1 module");
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    OrgQuestion { text, by_repository, other_repositories }
}

/// An answer from one repository's own index, as an answer about the organisation: its modules under
/// the repository's name (`billing/invoice.py` → `billing/billing/invoice.py`) and the repository said
/// first.
pub fn under_repository(answer: &mut Answer, repository: &str) {
    let prefix = |id: &str| format!("{repository}/{id}");
    for citation in &mut answer.citations {
        citation.id = prefix(&citation.id);
        citation.path = prefix(&citation.path);
    }
    for item in &mut answer.context {
        item.module = prefix(&item.module);
        item.id = match item.id.split_once(':') {
            Some((kind, rest)) => format!("{kind}:{}", prefix(rest)),
            None => prefix(&item.id),
        };
    }
    answer.answer = format!("In **{repository}**: {}", answer.answer);
}

/// The repository of a module id of the organisation's graph.
fn repository_of(id: &str) -> &str {
    id.split('/').next().unwrap_or(id)
}

/// Leads a structural answer whose parts list modules with those modules by repository (without the
/// asked-about modules' own repositories for "other repositories"). A package asked about by importers
/// or dependents stands for all its modules here: "which repositories import `acme_auth`" means any
/// module of it (`from acme_auth import tokens` is an import of `acme_auth/tokens.py`).
pub(crate) fn regroup(answer: &mut Answer, asked: &OrgQuestion, bundle: &Bundle) {
    if !asked.by_repository {
        return;
    }
    let Some(understood) = &answer.understood else { return };
    let graph = GraphView::of(bundle);
    let mut lines = Vec::new();
    for part in &understood.parts {
        let Some(listed) = part.result.as_ref().and_then(|result| result.modules.as_ref()) else { continue };
        let widened = package_wide(&graph, part);
        let modules: Vec<&str> = match &widened {
            Some(modules) => modules.iter().map(String::as_str).collect(),
            None => listed.iter().map(String::as_str).collect(),
        };
        let own: Vec<&str> = part.modules.iter().map(|entity| repository_of(&entity.id)).collect();
        let mut by_repository: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for id in modules {
            let repository = repository_of(id);
            if !(asked.other_repositories && own.contains(&repository)) {
                by_repository.entry(repository).or_default().push(id);
            }
        }
        let outside = if asked.other_repositories && !own.is_empty() {
            format!(" outside `{}`", own.join("`, `"))
        } else {
            String::new()
        };
        let package = match (&widened, part.modules.first()) {
            (Some(_), Some(entity)) => format!(" (any module of `{}`)", folder_of(&entity.id)),
            _ => String::new(),
        };
        if by_repository.is_empty() {
            lines.push(format!("No repository{outside}{package}."));
            continue;
        }
        let listed: Vec<String> = by_repository
            .iter()
            .map(|(repository, ids)| {
                let ids: Vec<String> = ids.iter().map(|id| format!("`{id}`")).collect();
                format!("**{repository}** ({}): {}", ids.len(), ids.join(", "))
            })
            .collect();
        let noun = if listed.len() == 1 { "repository" } else { "repositories" };
        lines.push(format!("{} {noun}{outside}{package}: {}.", listed.len(), listed.join("; ")));
    }
    if !lines.is_empty() {
        answer.answer = format!("{}\n\n{}", lines.join("\n"), answer.answer);
    }
}

/// For a package (`…/__init__.py`) asked about by importers or dependents: those of any of its
/// modules, outside it.
fn package_wide(graph: &GraphView<'_>, part: &Part) -> Option<Vec<String>> {
    let [entity] = part.modules.as_slice() else { return None };
    if !entity.id.ends_with("/__init__.py") || !matches!(part.relation, Relation::Importers | Relation::Dependents) {
        return None;
    }
    let folder = format!("{}/", folder_of(&entity.id));
    let members: Vec<&str> = graph.ids().iter().copied().filter(|id| id.starts_with(&folder)).collect();
    let filter = Filter::imports(part.runtime);
    let found: BTreeSet<&str> = if part.relation == Relation::Importers {
        members
            .iter()
            .flat_map(|id| graph.neighbours(id, Direction::Importers, &filter))
            .map(|neighbour| neighbour.id)
            .collect()
    } else {
        graph.reach(&members, Direction::Importers, &filter).ids().into_iter().collect()
    };
    Some(found.into_iter().filter(|id| !id.starts_with(&folder)).map(str::to_string).collect())
}

fn folder_of(init: &str) -> &str {
    init.strip_suffix("/__init__.py").unwrap_or(init)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repositories_are_read_as_modules_grouped_later() {
        let asked = read("Which repositories import acme_auth?");
        assert_eq!(
            asked,
            OrgQuestion {
                text: "Which modules import acme_auth?".into(),
                by_repository: true,
                other_repositories: false
            }
        );
        let asked = read("what in other repos depends on acme_auth.tokens?");
        assert_eq!(asked.text, "what depends on acme_auth.tokens?");
        assert!(asked.by_repository && asked.other_repositories);
        let asked = read("Which repo defines Invoice?");
        assert_eq!(asked.text, "Which module defines Invoice?");
        // Nothing about repositories: read as written.
        let asked = read("What imports billing.invoice in this repository?");
        assert_eq!(asked.text, "What imports billing.invoice in this repository?");
        assert!(!asked.by_repository);
    }
}
