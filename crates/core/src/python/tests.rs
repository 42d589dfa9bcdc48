//! Parser tests: each import form and context, symbols, exports, entry points and broken input.

use super::*;

fn facts(source: &str) -> FileFacts {
    parse_python_file(source.as_bytes()).facts
}

fn targets(facts: &FileFacts) -> Vec<(ImportTarget, ImportContext)> {
    facts.imports.iter().map(|import| (import.target.clone(), import.context)).collect()
}

fn module(name: &str) -> ImportTarget {
    ImportTarget::Module { module: name.to_string() }
}

fn from(level: u32, module: &str, names: &[&str]) -> ImportTarget {
    ImportTarget::From { level, module: module.to_string(), names: names.iter().map(|n| n.to_string()).collect() }
}

const PLAIN: ImportContext =
    ImportContext { type_checking: false, main_block: false, conditional: false, local: false };

#[test]
fn every_import_form() {
    let facts = facts(
        "import a.b as c, d\nfrom . import x\nfrom ..p import (m,\n    n as o)\nfrom q import *\nfrom __future__ import annotations\n",
    );
    assert_eq!(
        targets(&facts),
        vec![
            (module("a.b"), PLAIN),
            (module("d"), PLAIN),
            (from(1, "", &["x"]), PLAIN),
            (from(2, "p", &["m", "n"]), PLAIN),
            (ImportTarget::Star { level: 0, module: "q".into() }, PLAIN),
            (from(0, "__future__", &["annotations"]), PLAIN),
        ]
    );
    assert_eq!(facts.imports.iter().map(|i| i.line).collect::<Vec<_>>(), [1, 1, 2, 3, 5, 6]);
}

/// rich's `color.py` imports `rich.console` in its `if __name__ == "__main__":` block, and "Does
/// rich.style depend on rich.console?" was answered yes through it: such an import runs only when the
/// file is run as a script.
#[test]
fn imports_in_main_blocks_are_flagged_as_running_only_as_a_script() {
    let facts = facts(
        r#"import always
if __name__ == "__main__":
    import script_only
    if TYPE_CHECKING:
        import never
else:
    import otherwise
if ('__main__' == (__name__)):
    import reversed_in_parentheses
if x:
    pass
elif __name__ == "__main__":
    import in_elif
elif (TYPE_CHECKING):
    import tc_in_elif
def main():
    if __name__ == "__main__":
        import in_function
if __name__ != "__main__":
    import not_main
"#,
    );
    let context_of = |name: &str| {
        facts.imports.iter().find(|i| i.target == module(name)).map(|i| i.context).unwrap_or_else(|| panic!("{name}"))
    };
    let script = ImportContext { main_block: true, conditional: true, ..PLAIN };
    assert_eq!(context_of("always"), PLAIN);
    assert_eq!(context_of("script_only"), script);
    assert_eq!(context_of("never"), ImportContext { type_checking: true, ..script });
    assert_eq!(context_of("otherwise"), ImportContext { conditional: true, ..PLAIN });
    assert_eq!(context_of("reversed_in_parentheses"), script);
    assert_eq!(context_of("in_elif"), script);
    assert_eq!(context_of("tc_in_elif"), ImportContext { type_checking: true, ..PLAIN });
    assert_eq!(context_of("in_function"), ImportContext { local: true, conditional: true, ..PLAIN });
    assert_eq!(context_of("not_main"), ImportContext { conditional: true, ..PLAIN });
    assert_eq!(facts.entry_points.len(), 2, "{:?}", facts.entry_points);
}

#[test]
fn import_contexts() {
    let facts = facts(
        "from typing import TYPE_CHECKING\n\
         if TYPE_CHECKING:\n    import tc\nelse:\n    import not_tc\n\
         if typing.TYPE_CHECKING:\n    import tc2\n\
         try:\n    import fast\nexcept ImportError:\n    import slow\n\
         def f():\n    import local_one\n    if x:\n        import local_conditional\n\
         class C:\n    import in_class\n    def m(self):\n        import in_method\n\
         with ctx():\n    import in_with\n",
    );
    let context_of = |name: &str| {
        facts
            .imports
            .iter()
            .find(|i| i.target == module(name))
            .map(|i| i.context)
            .unwrap_or_else(|| panic!("{name} missing"))
    };
    assert_eq!(context_of("tc"), ImportContext { type_checking: true, ..PLAIN });
    assert_eq!(context_of("tc2"), ImportContext { type_checking: true, ..PLAIN });
    assert_eq!(context_of("not_tc"), ImportContext { conditional: true, ..PLAIN });
    assert_eq!(context_of("fast"), ImportContext { conditional: true, ..PLAIN });
    assert_eq!(context_of("slow"), ImportContext { conditional: true, ..PLAIN });
    assert_eq!(context_of("local_one"), ImportContext { local: true, ..PLAIN });
    assert_eq!(context_of("local_conditional"), ImportContext { local: true, conditional: true, ..PLAIN });
    assert_eq!(context_of("in_class"), PLAIN);
    assert_eq!(context_of("in_method"), ImportContext { local: true, ..PLAIN });
    assert_eq!(context_of("in_with"), PLAIN);
}

#[test]
fn symbols_with_bases_decorators_and_line_ranges() {
    let facts = facts(
        "@dataclass\nclass Point(Base, metaclass=Meta):\n    x: int\n\n    @property\n    def norm(self):\n        return 1\n\n    async def fetch(self):\n        def inner():\n            pass\n\nasync def top():\n    pass\n",
    );
    let summary: Vec<(&str, SymbolKind, u32, u32)> =
        facts.symbols.iter().map(|s| (s.qualname.as_str(), s.kind, s.line_start, s.line_end)).collect();
    assert_eq!(
        summary,
        [
            ("Point", SymbolKind::Class, 2, 11),
            ("Point.norm", SymbolKind::Method, 6, 7),
            ("Point.fetch", SymbolKind::Method, 9, 11),
            ("top", SymbolKind::Function, 13, 14),
        ]
    );
    assert_eq!(facts.symbols[0].bases, ["Base"]);
    assert_eq!(facts.symbols[0].decorators, ["dataclass"]);
    assert_eq!(facts.symbols[1].decorators, ["property"]);
    assert!(facts.symbols[2].is_async && facts.symbols[3].is_async);
    assert_eq!(facts.public_names, ["Point", "top"]);
}

#[test]
fn dunder_all_forms() {
    let facts = facts("__all__ = ['a', \"b\"]\n__all__ += ('c',)\n__all__.extend(['d'])\n__all__.append('e')\n");
    assert_eq!(facts.dunder_all, Some(vec!["a".into(), "b".into(), "c".into(), "d".into(), "e".into()]));
}

#[test]
fn public_names_without_dunder_all() {
    let facts = facts("X = 1\n_private = 2\na, (b, _c) = 1, (2, 3)\ndef f(): pass\nclass _Hidden: pass\n");
    assert_eq!(facts.dunder_all, None);
    assert_eq!(facts.public_names, ["X", "a", "b", "f"]);
}

#[test]
fn explicit_reexports_are_public_names() {
    let source = "from .app import Flask as Flask\nfrom .app import Request\nfrom . import json as js\n\
                  import os as os\nimport a.b as b\nfrom .x import _Y as _Y\ndef f():\n    from m import g as g\n";
    assert_eq!(facts(source).public_names, ["Flask", "f", "os"]);
}

#[test]
fn docstring_first_line() {
    assert_eq!(
        facts("# comment\n\"\"\"\n  Engine core.\n\nMore.\n\"\"\"\n").docstring.as_deref(),
        Some("Engine core.")
    );
    assert_eq!(facts("x = 1\n\"not a docstring\"\n").docstring, None);
}

#[test]
fn entry_points() {
    let facts = facts(
        "@app.get(\"/items/{id}\")\ndef read(id): ...\n\n@router.post('/x')\nasync def create(): ...\n\n\
         @click.command()\ndef cli(): ...\n\n@shared_task\ndef job(): ...\n\n@cache.get\ndef not_a_route(): ...\n\n\
         if __name__ == \"__main__\":\n    cli()\n",
    );
    let found: Vec<(EntryPointKind, Option<&str>)> =
        facts.entry_points.iter().map(|e| (e.kind, e.symbol.as_deref())).collect();
    assert_eq!(
        found,
        [
            (EntryPointKind::HttpRoute, Some("read")),
            (EntryPointKind::HttpRoute, Some("create")),
            (EntryPointKind::CliCommand, Some("cli")),
            (EntryPointKind::Task, Some("job")),
            (EntryPointKind::Main, None),
        ]
    );
    assert_eq!(facts.entry_points[0].detail, "app.get(\"/items/{id}\")");
}

#[test]
fn syntax_errors_keep_the_recovered_imports_and_warn() {
    let parsed = parse_python_file(b"import good\n\ndef broken(:\n    pass\n\nfrom other import thing\n");
    assert!(parsed.facts.imports.iter().any(|i| i.target == module("good")));
    assert!(parsed.facts.imports.iter().any(|i| i.target == from(0, "other", &["thing"])));
    assert_eq!(parsed.facts.first_syntax_error_line, Some(3));
    assert_eq!(parsed.warnings.len(), 1);
    assert!(parsed.warnings[0].contains("syntax error near line 3"), "{:?}", parsed.warnings);
}

#[test]
fn type_parameter_defaults_are_valid_python() {
    let parsed = parse_python_file(
        b"from typing import Any\n\nclass EventType[_DataT: Mapping[str, Any] = Mapping[str, Any]](str):\n    def m(self): ...\n\nimport late\n",
    );
    assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
    assert_eq!(parsed.facts.first_syntax_error_line, None);
    assert!(parsed.facts.imports.iter().any(|i| i.target == module("late")));
    let class = &parsed.facts.symbols[0];
    assert_eq!(
        (class.name.as_str(), class.line_start, class.bases.as_slice()),
        ("EventType", 3, &["str".to_string()][..])
    );
}

#[test]
fn a_real_syntax_error_after_a_type_parameter_default_is_still_reported() {
    let parsed = parse_python_file(b"class Box[T = int]:\n    pass\n\ndef broken(:\n    pass\n");
    assert_eq!(parsed.facts.first_syntax_error_line, Some(4));
    assert_eq!(parsed.warnings.len(), 1, "{:?}", parsed.warnings);
}

#[test]
fn declared_latin1_is_decoded_without_a_warning() {
    let parsed = parse_python_file(b"# -*- coding: latin-1 -*-\n\"\"\"Caf\xe9.\"\"\"\nimport os\n");
    assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
    assert_eq!(parsed.facts.docstring.as_deref(), Some("Caf\u{e9}."));
}

#[test]
fn regression_lone_carriage_return_counts_as_a_line_break() {
    let parsed = parse_python_file(b"import a\rimport b\r\nimport c\n");
    assert_eq!(parsed.facts.imports.iter().map(|i| i.line).collect::<Vec<_>>(), [1, 2, 3]);
}

#[test]
fn non_utf8_is_decoded_lossily_with_a_warning() {
    let parsed = parse_python_file(b"# caf\xe9\nimport os\n");
    assert_eq!(parsed.facts.imports.len(), 1);
    assert!(parsed.warnings[0].contains("not valid UTF-8"));
}

#[test]
fn regression_deeply_nested_expressions_do_not_overflow_the_stack() {
    let source = format!("x = {}1{}\nimport after\n", "(".repeat(20_000), ")".repeat(20_000));
    let facts = parse_python_file(source.as_bytes()).facts;
    assert!(facts.imports.iter().any(|i| i.target == module("after")));
}

#[test]
fn empty_and_binary_input_never_panic() {
    assert_eq!(parse_python_file(b"").facts, FileFacts::default());
    let parsed = parse_python_file(&[0, 159, 146, 150, 255, 0, 10, 40]);
    assert!(parsed.facts.imports.is_empty());
    assert!(!parsed.warnings.is_empty());
}

#[test]
fn line_count() {
    assert_eq!(facts("a = 1\nb = 2").n_lines, 2);
    assert_eq!(facts("a = 1\n").n_lines, 1);
}
