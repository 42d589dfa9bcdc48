//! Turning one module's import statements into edges to repository modules, following grimp's
//! convention: `from P import x` is an edge to `P.x` when that is a module, otherwise to `P`;
//! `import a.b.c` is an edge to `a.b.c`. Anything whose top-level name is not in the repository is
//! external, split into stdlib and third-party.
//!
//! An import of a repository package that names no module (`from .renamed import x` after `renamed.py`
//! was deleted, `import pkg.missing`) is a fact of its own, *unresolved*, with its line: it is never
//! mapped to an enclosing package's `__init__.py`, which would invent an edge. Imports of namespace
//! packages (folders without `__init__.py`) exist but have no file, so they are neither.

use std::collections::BTreeSet;

use crate::python::{ImportContext, ImportStatement, ImportTarget};

use super::modules::ModuleIndex;
use super::stdlib::is_stdlib;

/// One import statement's contribution to an edge, before edges between the same pair are merged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedImport {
    pub dst: usize,
    pub form: ImportForm,
    pub line: u32,
    pub context: ImportContext,
    /// Names imported from the target (`from p import a, b`), empty for `import p`.
    pub names: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ImportForm {
    Import,
    From,
    Star,
}

impl ImportForm {
    pub fn as_str(self) -> &'static str {
        match self {
            ImportForm::Import => "import",
            ImportForm::From => "from",
            ImportForm::Star => "star",
        }
    }
}

/// An import that names a module of the repository that does not exist: the dotted name that is missing
/// (or the relative import as written, when it climbs above the top-level package) and its line.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct UnresolvedImport {
    pub line: u32,
    pub name: String,
    /// True for a relative import that climbs above the top-level package: usually a sign that the
    /// indexed folder is inside a package that strata was not told about.
    pub beyond_top_level: bool,
}

/// Everything one module's imports resolve to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ModuleImports {
    pub internal: Vec<ResolvedImport>,
    pub stdlib: BTreeSet<String>,
    pub third_party: BTreeSet<String>,
    /// Imports that are internal (relative, or under a repository package) but name nothing that exists.
    pub unresolved: BTreeSet<UnresolvedImport>,
}

/// What one imported name leads to.
enum Target {
    Module(usize),
    /// A namespace package: importable, but no file to draw an edge to.
    Namespace,
    Missing(String),
}

/// Resolves the imports of module `src` against the repository.
pub fn resolve_module_imports(index: &ModuleIndex, src: usize, imports: &[ImportStatement]) -> ModuleImports {
    let mut resolved = ModuleImports::default();
    for import in imports {
        let (level, module) = match &import.target {
            ImportTarget::Module { module } => (0, module),
            ImportTarget::From { level, module, .. } | ImportTarget::Star { level, module } => (*level, module),
        };
        let base = if level == 0 {
            let top_level = module.split('.').next().unwrap_or_default();
            if !index.is_internal_top_level(top_level) {
                let bucket = if is_stdlib(top_level) { &mut resolved.stdlib } else { &mut resolved.third_party };
                bucket.insert(top_level.to_string());
                continue;
            }
            module.clone()
        } else {
            match relative_base(index, src, level, module) {
                Some(base) => base,
                None => {
                    let prefix = relative_text(level, module);
                    let separator = if module.is_empty() { "" } else { "." };
                    let names: Vec<String> = match &import.target {
                        ImportTarget::From { names, .. } => {
                            names.iter().map(|name| format!("{prefix}{separator}{name}")).collect()
                        }
                        _ => vec![prefix],
                    };
                    resolved.unresolved.extend(names.into_iter().map(|name| UnresolvedImport {
                        line: import.line,
                        name,
                        beyond_top_level: true,
                    }));
                    continue;
                }
            }
        };
        match &import.target {
            ImportTarget::Module { .. } => {
                push(&mut resolved, module_target(index, &base), ImportForm::Import, import, None)
            }
            ImportTarget::Star { .. } => {
                push(&mut resolved, module_target(index, &base), ImportForm::Star, import, None)
            }
            ImportTarget::From { names, .. } => {
                for name in names {
                    // `P.name` when that is a module, else `name` is an attribute of module P; a
                    // namespace package has no attributes, so then `P.name` is what is missing.
                    let target = match module_target(index, &join(&base, name)) {
                        Target::Missing(submodule) => match module_target(index, &base) {
                            Target::Namespace => Target::Missing(submodule),
                            other => other,
                        },
                        found => found,
                    };
                    push(&mut resolved, target, ImportForm::From, import, Some(name));
                }
            }
        }
    }
    resolved.internal.retain(|edge| edge.dst != src);
    resolved
}

fn module_target(index: &ModuleIndex, dotted: &str) -> Target {
    match index.by_name(dotted) {
        Some(found) => Target::Module(found),
        None if index.is_namespace(dotted) => Target::Namespace,
        None => Target::Missing(dotted.to_string()),
    }
}

fn push(
    resolved: &mut ModuleImports,
    target: Target,
    form: ImportForm,
    import: &ImportStatement,
    name: Option<&String>,
) {
    match target {
        Target::Module(dst) => resolved.internal.push(ResolvedImport {
            dst,
            form,
            line: import.line,
            context: import.context,
            names: name.cloned().into_iter().collect(),
        }),
        Target::Namespace => {}
        Target::Missing(missing) => {
            resolved.unresolved.insert(UnresolvedImport { line: import.line, name: missing, beyond_top_level: false });
        }
    }
}

/// The absolute dotted name a relative import starts from, or `None` when it climbs above the top-level
/// package (Python's "attempted relative import beyond top-level package").
fn relative_base(index: &ModuleIndex, src: usize, level: u32, module: &str) -> Option<String> {
    let current = &index.modules[src];
    let mut package: &str = if current.is_package { &current.name } else { parent(&current.name) };
    // Stops at the top: a level from a hostile file can be millions of dots.
    for _ in 1..level {
        if package.is_empty() {
            break;
        }
        package = parent(package);
    }
    if package.is_empty() {
        return None;
    }
    Some(join(package, module))
}

fn parent(dotted: &str) -> &str {
    dotted.rfind('.').map_or("", |dot| &dotted[..dot])
}

fn join(base: &str, name: &str) -> String {
    match (base.is_empty(), name.is_empty()) {
        (true, _) => name.to_string(),
        (_, true) => base.to_string(),
        _ => format!("{base}.{name}"),
    }
}

/// How a relative import is shown: its dots, or their number when there are too many to read.
fn relative_text(level: u32, module: &str) -> String {
    const MAX_DOTS_SHOWN: u32 = 16;
    if level > MAX_DOTS_SHOWN {
        return format!("({level} dots){module}");
    }
    format!("{}{module}", ".".repeat(level as usize))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(paths: &[&str]) -> ModuleIndex {
        let paths: Vec<String> = paths.iter().map(|p| p.to_string()).collect();
        let roots = super::super::modules::source_roots(&paths, &[], &[]).unwrap();
        ModuleIndex::new(&paths, roots).0
    }

    fn import(target: ImportTarget) -> ImportStatement {
        ImportStatement { target, line: 1, context: ImportContext::default() }
    }

    fn from(level: u32, module: &str, names: &[&str]) -> ImportStatement {
        import(ImportTarget::From {
            level,
            module: module.into(),
            names: names.iter().map(|n| n.to_string()).collect(),
        })
    }

    fn targets(index: &ModuleIndex, resolved: &ModuleImports) -> Vec<String> {
        resolved.internal.iter().map(|edge| index.modules[edge.dst].id.clone()).collect()
    }

    #[test]
    fn from_import_prefers_the_submodule_then_the_package() {
        let index = index(&["p/__init__.py", "p/a.py", "p/b.py", "q.py"]);
        let src = index.by_name("q").unwrap();
        let resolved = resolve_module_imports(&index, src, &[from(0, "p", &["a", "Thing"])]);
        assert_eq!(targets(&index, &resolved), ["p/a.py", "p/__init__.py"]);
    }

    #[test]
    fn relative_imports_at_several_levels() {
        let index = index(&["p/__init__.py", "p/x.py", "p/sub/__init__.py", "p/sub/deep.py"]);
        let deep = index.by_name("p.sub.deep").unwrap();
        let resolved = resolve_module_imports(
            &index,
            deep,
            &[from(1, "", &["__init__"]), from(2, "x", &["f"]), from(2, "", &["x"])],
        );
        assert_eq!(targets(&index, &resolved), ["p/sub/__init__.py", "p/x.py", "p/x.py"]);
        let init = index.by_name("p.sub").unwrap();
        let resolved = resolve_module_imports(&index, init, &[from(1, "", &["deep"])]);
        assert_eq!(targets(&index, &resolved), ["p/sub/deep.py"]);
    }

    #[test]
    fn climbing_above_the_root_is_unresolved_not_a_panic() {
        let index = index(&["p/__init__.py", "p/a.py"]);
        let src = index.by_name("p.a").unwrap();
        let resolved = resolve_module_imports(&index, src, &[from(4, "nowhere", &["x"])]);
        assert!(resolved.internal.is_empty());
        let unresolved: Vec<&str> = resolved.unresolved.iter().map(|u| u.name.as_str()).collect();
        assert_eq!(unresolved, ["....nowhere.x"]);
        assert!(resolved.unresolved.iter().all(|u| u.beyond_top_level));
    }

    #[test]
    fn missing_modules_are_unresolved_never_an_edge_to_the_package() {
        let index = index(&["p/__init__.py", "p/a.py", "p/ns/b.py", "q.py"]);
        let a = index.by_name("p.a").unwrap();
        let statements = [
            from(1, "renamed", &["codes"]),
            from(0, "p.missing", &["thing"]),
            import(ImportTarget::Module { module: "p.a.missing".into() }),
            from(1, "", &["gone"]),
            from(0, "p.ns", &["b"]),
            import(ImportTarget::Module { module: "p.ns".into() }),
            from(0, "p", &["Thing"]),
        ];
        let resolved = resolve_module_imports(&index, a, &statements);
        // `from . import gone` is `from p import gone`: p exists, so `gone` is a name in it (an edge to p).
        assert_eq!(targets(&index, &resolved), ["p/__init__.py", "p/ns/b.py", "p/__init__.py"]);
        let unresolved: Vec<&str> = resolved.unresolved.iter().map(|u| u.name.as_str()).collect();
        assert_eq!(unresolved, ["p.a.missing", "p.missing", "p.renamed"]);
    }

    #[test]
    fn plain_import_resolves_the_exact_module_and_splits_externals() {
        let index = index(&["p/__init__.py", "p/a.py", "q.py"]);
        let src = index.by_name("q").unwrap();
        let statements = [
            import(ImportTarget::Module { module: "p.a".into() }),
            import(ImportTarget::Module { module: "os.path".into() }),
            import(ImportTarget::Module { module: "numpy".into() }),
        ];
        let resolved = resolve_module_imports(&index, src, &statements);
        assert_eq!(targets(&index, &resolved), ["p/a.py"]);
        assert_eq!(resolved.stdlib.iter().collect::<Vec<_>>(), ["os"]);
        assert_eq!(resolved.third_party.iter().collect::<Vec<_>>(), ["numpy"]);
    }

    #[test]
    fn self_imports_are_dropped() {
        let index = index(&["p/__init__.py"]);
        let src = index.by_name("p").unwrap();
        let resolved = resolve_module_imports(&index, src, &[from(1, "", &["helper"])]);
        assert!(resolved.internal.is_empty());
    }
}
