//! Turning one module's import statements into edges to repository modules, following grimp's
//! convention: `from P import x` is an edge to `P.x` when that is a module, otherwise to `P`;
//! `import a.b.c` is an edge to the longest prefix that is a module. Anything whose top-level name is
//! not in the repository is external, split into stdlib and third-party.

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

/// Everything one module's imports resolve to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ModuleImports {
    pub internal: Vec<ResolvedImport>,
    pub stdlib: BTreeSet<String>,
    pub third_party: BTreeSet<String>,
    /// Imports that look internal (relative, or under a repository package) but name nothing that exists.
    pub unresolved: BTreeSet<String>,
}

/// Resolves the imports of module `src` against the repository.
pub fn resolve_module_imports(index: &ModuleIndex, src: usize, imports: &[ImportStatement]) -> ModuleImports {
    let mut resolved = ModuleImports::default();
    for import in imports {
        match &import.target {
            ImportTarget::Module { module } => {
                resolve_absolute(index, module, None, ImportForm::Import, import, &mut resolved);
            }
            ImportTarget::From { level: 0, module, names } => {
                for name in names {
                    resolve_absolute(index, module, Some(name), ImportForm::From, import, &mut resolved);
                }
            }
            ImportTarget::Star { level: 0, module } => {
                resolve_absolute(index, module, None, ImportForm::Star, import, &mut resolved);
            }
            ImportTarget::From { level, module, names } => {
                let Some(base) = relative_base(index, src, *level, module) else {
                    let prefix = relative_text(*level, module);
                    let separator = if module.is_empty() { "" } else { "." };
                    resolved.unresolved.extend(names.iter().map(|name| format!("{prefix}{separator}{name}")));
                    continue;
                };
                for name in names {
                    let found = index.by_name(&join(&base, name)).or_else(|| index.longest_prefix(&base));
                    push_internal(&mut resolved, found, ImportForm::From, import, Some(name), || join(&base, name));
                }
            }
            ImportTarget::Star { level, module } => {
                let found = relative_base(index, src, *level, module).and_then(|base| index.longest_prefix(&base));
                push_internal(&mut resolved, found, ImportForm::Star, import, None, || relative_text(*level, module));
            }
        }
    }
    resolved.internal.retain(|edge| edge.dst != src);
    resolved
}

fn resolve_absolute(
    index: &ModuleIndex,
    module: &str,
    name: Option<&String>,
    form: ImportForm,
    import: &ImportStatement,
    resolved: &mut ModuleImports,
) {
    let top_level = module.split('.').next().unwrap_or_default();
    if !index.is_internal_top_level(top_level) {
        let bucket = if is_stdlib(top_level) { &mut resolved.stdlib } else { &mut resolved.third_party };
        bucket.insert(top_level.to_string());
        return;
    }
    let found = match name {
        Some(name) => index.by_name(&join(module, name)).or_else(|| index.longest_prefix(module)),
        None => index.longest_prefix(module),
    };
    push_internal(resolved, found, form, import, name, || match name {
        Some(name) => join(module, name),
        None => module.to_string(),
    });
}

fn push_internal(
    resolved: &mut ModuleImports,
    found: Option<usize>,
    form: ImportForm,
    import: &ImportStatement,
    name: Option<&String>,
    describe: impl FnOnce() -> String,
) {
    match found {
        Some(dst) => resolved.internal.push(ResolvedImport {
            dst,
            form,
            line: import.line,
            context: import.context,
            names: name.cloned().into_iter().collect(),
        }),
        None => {
            resolved.unresolved.insert(describe());
        }
    }
}

/// The absolute dotted name a relative import starts from, or `None` when it climbs above the top-level
/// package (Python's "attempted relative import beyond top-level package").
fn relative_base(index: &ModuleIndex, src: usize, level: u32, module: &str) -> Option<String> {
    let current = &index.modules[src];
    let mut package: &str = if current.is_package { &current.name } else { parent(&current.name) };
    for _ in 1..level {
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

fn relative_text(level: u32, module: &str) -> String {
    format!("{}{module}", ".".repeat(level as usize))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(paths: &[&str]) -> ModuleIndex {
        ModuleIndex::new(&paths.iter().map(|p| p.to_string()).collect::<Vec<_>>(), &[]).0
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
        assert_eq!(resolved.unresolved.iter().collect::<Vec<_>>(), ["....nowhere.x"]);
    }

    #[test]
    fn plain_import_uses_the_longest_module_prefix_and_splits_externals() {
        let index = index(&["p/__init__.py", "p/a.py", "q.py"]);
        let src = index.by_name("q").unwrap();
        let statements = [
            import(ImportTarget::Module { module: "p.a.missing".into() }),
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
