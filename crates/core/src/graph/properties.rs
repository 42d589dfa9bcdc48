//! Property tests of module naming and import resolution on hostile input: any file paths (`..` in
//! every position, empty segments, dots, odd characters) and any import statements (huge relative
//! levels, empty and dotted names with empty parts) resolve without a panic, every edge points at a
//! real module, and nothing resolves to a module Python could not import. `PROPTEST_CASES` sets the
//! number of cases (`scripts/fuzz` runs them for minutes).

use proptest::prelude::*;

use super::{ModuleIndex, resolve_module_imports, source_roots};
use crate::python::{ImportContext, ImportStatement, ImportTarget};

fn segment() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(vec!["pkg", "sub", "a", "b", "__init__", "src", "lib", "tests", "x.y", "v1.2"])
            .prop_map(str::to_string),
        1 => prop::sample::select(vec!["..", ".", "", " ", "é", "-", "__main__", "a b"]).prop_map(str::to_string),
        1 => "[a-z_]{1,6}",
    ]
}

fn path() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(segment(), 0..4),
        prop::sample::select(vec!["__init__.py", "mod.py", "a.py", ".py", "b.pyi"]),
    )
        .prop_map(|(folders, file)| {
            let mut parts = folders;
            parts.push(file.to_string());
            parts.join("/")
        })
}

fn dotted() -> impl Strategy<Value = String> {
    prop::collection::vec(segment(), 0..4).prop_map(|parts| parts.join("."))
}

fn import() -> impl Strategy<Value = ImportStatement> {
    let level = prop_oneof![4 => 0u32..4, 1 => Just(u32::MAX), 1 => 4u32..1000];
    let target = prop_oneof![
        dotted().prop_map(|module| ImportTarget::Module { module }),
        (level.clone(), dotted(), prop::collection::vec(segment(), 0..3))
            .prop_map(|(level, module, names)| ImportTarget::From { level, module, names }),
        (level, dotted()).prop_map(|(level, module)| ImportTarget::Star { level, module }),
    ];
    (target, 0u32..10_000, any::<bool>()).prop_map(|(target, line, type_checking)| ImportStatement {
        target,
        line,
        context: ImportContext { type_checking, ..ImportContext::default() },
    })
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_paths_and_imports_resolve_without_a_panic(
        paths in prop::collection::vec(path(), 1..12),
        imports in prop::collection::vec(import(), 0..20),
        configured_root in prop::option::of(prop::sample::select(vec!["src", "..", "lib/..", "", "pkg/sub"])),
    ) {
        let mut paths = paths;
        paths.sort();
        paths.dedup();
        let configured: Vec<String> = configured_root.map(str::to_string).into_iter().collect();
        let Ok(roots) = source_roots(&paths, &configured, &[]) else {
            return Ok(()); // an unusable configured root is a clear error, not a case to resolve
        };
        let (index, _) = ModuleIndex::new(&paths, roots);
        for src in 0..index.modules.len() {
            let resolved = resolve_module_imports(&index, src, &imports);
            for edge in &resolved.internal {
                prop_assert!(edge.dst < index.modules.len(), "edge to module {} of {}", edge.dst, index.modules.len());
                prop_assert!(index.modules[edge.dst].importable, "edge to {}, which Python cannot import", index.modules[edge.dst].id);
            }
        }
    }
}
