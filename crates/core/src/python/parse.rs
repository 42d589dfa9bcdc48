//! One pass over a file's statements with tree-sitter-python, collecting every fact at once.
//!
//! The walk visits statements and the blocks that hold them, never expressions, so it is shallow and
//! touches each statement node once; it keeps an explicit stack (no recursion) so deeply nested or
//! adversarial input cannot overflow the thread's stack. `ERROR` nodes are walked like blocks, which is
//! how imports are still found in a file with syntax errors.

use std::cell::RefCell;
use std::collections::BTreeSet;

use tree_sitter::{Node, Parser, Tree};

use super::decorators::entry_point_kind;
use super::text::{decode_source, end_line, node_text, start_line, string_literal_value};
use super::type_param_defaults::blank_type_parameter_defaults;
use super::{
    EntryPoint, EntryPointKind, FileFacts, ImportContext, ImportStatement, ImportTarget, ImportedName, Symbol,
    SymbolKind,
};

/// Facts plus the problems met while extracting them (which never stop extraction).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ParsedFile {
    pub facts: FileFacts,
    pub warnings: Vec<String>,
}

thread_local! {
    static PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

/// Parses one file. Never fails: undecodable bytes are decoded lossily and syntax errors yield the
/// facts tree-sitter recovered, each with a warning.
pub fn parse_python_file(bytes: &[u8]) -> ParsedFile {
    let (source, lossy) = decode_source(bytes);
    let mut warnings = Vec::new();
    if lossy {
        warnings.push("file is not valid UTF-8; decoded with replacement characters".to_string());
    }
    let Some(tree) = parse_tree(&source) else {
        warnings.push("tree-sitter gave up on this file; no facts extracted".to_string());
        return ParsedFile { facts: FileFacts::default(), warnings };
    };
    let tree = without_type_parameter_default_errors(tree, &source);
    let mut facts = extract_facts(&tree, &source);
    if let Some(line) = facts.first_syntax_error_line {
        warnings.push(format!("syntax error near line {line}; facts extracted from the recovered tree"));
    }
    facts.n_lines = count_lines(&source);
    ParsedFile { facts, warnings }
}

fn parse_tree(source: &str) -> Option<Tree> {
    PARSER.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            let mut parser = Parser::new();
            parser.set_language(&tree_sitter_python::LANGUAGE.into()).ok()?;
            *slot = Some(parser);
        }
        slot.as_mut()?.parse(source, None)
    })
}

/// A tree whose first error is a type-parameter default the grammar lacks is replaced by the tree of
/// the text with those defaults blanked (same offsets), when that moves the first error later or away.
fn without_type_parameter_default_errors(tree: Tree, source: &str) -> Tree {
    if !tree.root_node().has_error() {
        return tree;
    }
    let Some(retry) = blank_type_parameter_defaults(source).and_then(|blanked| parse_tree(&blanked)) else {
        return tree;
    };
    let first_error = |tree: &Tree| first_error_line(tree.root_node()).unwrap_or(u32::MAX);
    if first_error(&retry) > first_error(&tree) { retry } else { tree }
}

fn count_lines(source: &str) -> u32 {
    let newlines = source.bytes().filter(|&b| b == b'\n').count();
    let unterminated = usize::from(!source.is_empty() && !source.ends_with('\n'));
    u32::try_from(newlines + unterminated).unwrap_or(u32::MAX)
}

/// Where the walk is: which scope a statement belongs to and how its imports would run.
#[derive(Debug, Clone, Default)]
struct Scope {
    import_context: ImportContext,
    /// Name of the enclosing class when directly in a class body.
    class_name: Option<String>,
    /// True inside any function (symbols there are not recorded).
    in_function: bool,
    /// True inside a class body (names bound there are not module-level).
    in_class: bool,
    /// True inside a `try` statement (any of its blocks): names bound there may be compatibility fallbacks.
    in_try: bool,
}

impl Scope {
    fn is_module_level(&self) -> bool {
        !self.in_function && !self.in_class
    }

    fn conditional(&self) -> Scope {
        let mut scope = self.clone();
        scope.import_context.conditional = true;
        scope
    }

    fn type_checking(&self) -> Scope {
        let mut scope = self.clone();
        scope.import_context.type_checking = true;
        scope
    }

    fn main_block(&self) -> Scope {
        let mut scope = self.conditional();
        scope.import_context.main_block = true;
        scope
    }
}

struct Extractor<'s> {
    source: &'s str,
    facts: FileFacts,
    /// Public module-level bindings: (name, inside a `try`).
    bindings: Vec<(String, bool)>,
}

fn extract_facts(tree: &Tree, source: &str) -> FileFacts {
    let root = tree.root_node();
    let mut extractor = Extractor { source, facts: FileFacts::default(), bindings: Vec::new() };
    extractor.facts.docstring = module_docstring(root, source);
    extractor.walk(root);
    if root.has_error() {
        extractor.facts.first_syntax_error_line = first_error_line(root);
    }
    let mut bindings = std::mem::take(&mut extractor.bindings);
    let mut names: Vec<String> = bindings.iter().map(|(name, _)| name.clone()).collect();
    names.sort();
    names.dedup();
    extractor.facts.public_names = names;
    bindings.extend(extractor.facts.imported_names.iter().map(|imported| (imported.name.clone(), imported.in_try)));
    let outside_try: BTreeSet<&str> =
        bindings.iter().filter(|(_, in_try)| !in_try).map(|(name, _)| name.as_str()).collect();
    let mut fallbacks: Vec<String> = bindings
        .iter()
        .filter(|(name, _)| !outside_try.contains(name.as_str()))
        .map(|(name, _)| name.clone())
        .collect();
    fallbacks.sort();
    fallbacks.dedup();
    extractor.facts.fallback_names = fallbacks;
    extractor.facts
}

impl Extractor<'_> {
    fn walk(&mut self, root: Node<'_>) {
        let mut stack: Vec<(Node<'_>, Scope, Vec<String>)> = vec![(root, Scope::default(), Vec::new())];
        while let Some((node, scope, decorators)) = stack.pop() {
            let mut children = Vec::new();
            self.visit(node, &scope, decorators, &mut children);
            // Reversed so statements are visited (and facts recorded) in source order.
            stack.extend(children.into_iter().rev());
        }
    }

    /// Records the facts of one node and queues the nodes below it that can hold statements.
    fn visit<'t>(
        &mut self,
        node: Node<'t>,
        scope: &Scope,
        decorators: Vec<String>,
        queue: &mut Vec<(Node<'t>, Scope, Vec<String>)>,
    ) {
        match node.kind() {
            "module" | "block" | "ERROR" => {
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    queue.push((child, scope.clone(), Vec::new()));
                }
            }
            "import_statement" => self.record_plain_import(node, scope),
            "import_from_statement" | "future_import_statement" => self.record_from_import(node, scope),
            "if_statement" => self.visit_if(node, scope, queue),
            "elif_clause" => self.visit_guarded_block(node, scope, queue),
            "else_clause" | "except_clause" | "except_group_clause" | "finally_clause" | "case_clause" => {
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    if child.kind() == "block" {
                        queue.push((child, scope.conditional(), Vec::new()));
                    }
                }
            }
            "try_statement" => {
                let mut inside = scope.conditional();
                inside.in_try = true;
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    queue.push((child, inside.clone(), Vec::new()));
                }
            }
            "for_statement" | "while_statement" => {
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    queue.push((child, scope.conditional(), Vec::new()));
                }
            }
            "match_statement" => {
                if let Some(body) = node.child_by_field_name("body") {
                    queue.push((body, scope.conditional(), Vec::new()));
                }
            }
            "with_statement" => {
                if let Some(body) = node.child_by_field_name("body") {
                    queue.push((body, scope.clone(), Vec::new()));
                }
            }
            "decorated_definition" => {
                let mut cursor = node.walk();
                let decorator_texts = node
                    .named_children(&mut cursor)
                    .filter(|child| child.kind() == "decorator")
                    .map(|decorator| self.decorator_text(decorator))
                    .collect();
                if let Some(definition) = node.child_by_field_name("definition") {
                    queue.push((definition, scope.clone(), decorator_texts));
                }
            }
            "function_definition" => self.visit_function(node, scope, decorators, queue),
            "class_definition" => self.visit_class(node, scope, decorators, queue),
            "expression_statement" if scope.is_module_level() => self.visit_module_expression(node, scope),
            _ => {}
        }
    }

    fn record_plain_import(&mut self, node: Node<'_>, scope: &Scope) {
        let mut cursor = node.walk();
        for name in node.children_by_field_name("name", &mut cursor) {
            self.record_explicit_reexport(name, scope);
            let dotted = match name.kind() {
                "aliased_import" => name.child_by_field_name("name"),
                _ => Some(name),
            };
            if let Some(dotted) = dotted {
                self.push_import(
                    ImportTarget::Module { module: node_text(dotted, self.source).to_string() },
                    node,
                    scope,
                );
            }
        }
    }

    fn record_from_import(&mut self, node: Node<'_>, scope: &Scope) {
        let (level, module) = match node.child_by_field_name("module_name") {
            Some(module_name) if module_name.kind() == "relative_import" => relative_module(module_name, self.source),
            Some(module_name) => (0, compact_dotted(node_text(module_name, self.source))),
            // `future_import_statement` has no module field.
            None => (0, "__future__".to_string()),
        };
        let mut cursor = node.walk();
        let is_star = node.named_children(&mut cursor).any(|child| child.kind() == "wildcard_import");
        if is_star {
            self.push_import(ImportTarget::Star { level, module }, node, scope);
            return;
        }
        let mut cursor = node.walk();
        for name in node.children_by_field_name("name", &mut cursor) {
            self.record_explicit_reexport(name, scope);
            self.record_imported_name(name, scope);
        }
        let mut cursor = node.walk();
        let names: Vec<String> = node
            .children_by_field_name("name", &mut cursor)
            .filter_map(|name| match name.kind() {
                "aliased_import" => name.child_by_field_name("name"),
                _ => Some(name),
            })
            .map(|name| compact_dotted(node_text(name, self.source)))
            .collect();
        self.push_import(ImportTarget::From { level, module, names }, node, scope);
    }

    /// `import x as x` and `from m import x as x` at module level are PEP 484's explicit re-export form
    /// (what `__init__.py` files of typed packages use instead of `__all__`): `x` is a public name.
    fn record_explicit_reexport(&mut self, name: Node<'_>, scope: &Scope) {
        if name.kind() != "aliased_import" || !scope.is_module_level() {
            return;
        }
        let (Some(imported), Some(alias)) = (name.child_by_field_name("name"), name.child_by_field_name("alias"))
        else {
            return;
        };
        let alias = node_text(alias, self.source);
        if compact_dotted(node_text(imported, self.source)) == alias {
            self.record_public_name(alias, scope);
        }
    }

    /// A public name a module-level `from … import` binds (the alias when there is one), tied to the
    /// statement about to be pushed: whether it is API depends on where it comes from (`bundle::build`).
    fn record_imported_name(&mut self, name: Node<'_>, scope: &Scope) {
        // Under `if TYPE_CHECKING:` nothing is bound at runtime: such names are for annotations only.
        if !scope.is_module_level() || scope.import_context.type_checking {
            return;
        }
        let bound = match name.kind() {
            "aliased_import" => name.child_by_field_name("alias"),
            _ => Some(name),
        };
        let Some(bound) = bound.map(|bound| compact_dotted(node_text(bound, self.source))) else { return };
        if !bound.starts_with('_') && !bound.contains('.') {
            let statement = self.facts.imports.len();
            self.facts.imported_names.push(ImportedName { name: bound, statement, in_try: scope.in_try });
        }
    }

    fn push_import(&mut self, target: ImportTarget, node: Node<'_>, scope: &Scope) {
        self.facts.imports.push(ImportStatement { target, line: start_line(node), context: scope.import_context });
    }

    fn visit_if<'t>(&mut self, node: Node<'t>, scope: &Scope, queue: &mut Vec<(Node<'t>, Scope, Vec<String>)>) {
        if scope.is_module_level()
            && node.child_by_field_name("condition").is_some_and(|condition| is_main_guard(condition, self.source))
        {
            self.facts.entry_points.push(EntryPoint {
                kind: EntryPointKind::Main,
                symbol: None,
                line: start_line(node),
                detail: "__main__".to_string(),
            });
        }
        self.visit_guarded_block(node, scope, queue);
        let mut cursor = node.walk();
        for alternative in node.children_by_field_name("alternative", &mut cursor) {
            queue.push((alternative, scope.clone(), Vec::new()));
        }
    }

    /// The body of an `if` or `elif`: under `TYPE_CHECKING` it never runs, under a module-level
    /// `__name__ == "__main__"` it runs only as a script, otherwise it may not run.
    fn visit_guarded_block<'t>(
        &mut self,
        node: Node<'t>,
        scope: &Scope,
        queue: &mut Vec<(Node<'t>, Scope, Vec<String>)>,
    ) {
        let condition = node.child_by_field_name("condition");
        let body_scope = if condition.is_some_and(|condition| is_type_checking_guard(condition, self.source)) {
            scope.type_checking()
        } else if scope.is_module_level() && condition.is_some_and(|condition| is_main_guard(condition, self.source)) {
            scope.main_block()
        } else {
            scope.conditional()
        };
        if let Some(consequence) = node.child_by_field_name("consequence") {
            queue.push((consequence, body_scope, Vec::new()));
        }
    }

    fn visit_function<'t>(
        &mut self,
        node: Node<'t>,
        scope: &Scope,
        decorators: Vec<String>,
        queue: &mut Vec<(Node<'t>, Scope, Vec<String>)>,
    ) {
        let name = node.child_by_field_name("name").map(|n| node_text(n, self.source).to_string());
        if let Some(name) = name.filter(|_| !scope.in_function) {
            let is_async = node.child(0).is_some_and(|first| first.kind() == "async");
            let (kind, qualname) = match &scope.class_name {
                Some(class_name) if scope.in_class => (SymbolKind::Method, format!("{class_name}.{name}")),
                _ => (SymbolKind::Function, name.clone()),
            };
            if scope.is_module_level() {
                self.record_public_name(&name, scope);
            }
            self.record_decorated_entry_points(&decorators, &qualname, node);
            self.facts.symbols.push(Symbol {
                name,
                qualname,
                kind,
                line_start: start_line(node),
                line_end: end_line(node),
                bases: Vec::new(),
                decorators,
                is_async,
            });
        }
        if let Some(body) = node.child_by_field_name("body") {
            let mut body_scope = scope.clone();
            body_scope.in_function = true;
            body_scope.in_class = false;
            body_scope.class_name = None;
            body_scope.import_context.local = true;
            queue.push((body, body_scope, Vec::new()));
        }
    }

    fn visit_class<'t>(
        &mut self,
        node: Node<'t>,
        scope: &Scope,
        decorators: Vec<String>,
        queue: &mut Vec<(Node<'t>, Scope, Vec<String>)>,
    ) {
        let name = node.child_by_field_name("name").map(|n| node_text(n, self.source).to_string());
        let Some(name) = name else { return };
        // Nested classes are walked for imports but recorded under their outer class's qualname.
        let qualname = match &scope.class_name {
            Some(outer) => format!("{outer}.{name}"),
            None => name.clone(),
        };
        if !scope.in_function {
            if scope.is_module_level() {
                self.record_public_name(&name, scope);
            }
            self.record_decorated_entry_points(&decorators, &qualname, node);
            self.facts.symbols.push(Symbol {
                name,
                qualname: qualname.clone(),
                kind: SymbolKind::Class,
                line_start: start_line(node),
                line_end: end_line(node),
                bases: self.class_bases(node),
                decorators,
                is_async: false,
            });
        }
        if let Some(body) = node.child_by_field_name("body") {
            let mut body_scope = scope.clone();
            body_scope.in_class = true;
            body_scope.class_name = Some(qualname);
            queue.push((body, body_scope, Vec::new()));
        }
    }

    fn class_bases(&self, node: Node<'_>) -> Vec<String> {
        let Some(arguments) = node.child_by_field_name("superclasses") else {
            return Vec::new();
        };
        let mut cursor = arguments.walk();
        arguments
            .named_children(&mut cursor)
            .filter(|argument| argument.kind() != "keyword_argument" && argument.kind() != "comment")
            .map(|argument| compact_whitespace(node_text(argument, self.source)))
            .collect()
    }

    fn decorator_text(&self, decorator: Node<'_>) -> String {
        let text = node_text(decorator, self.source).trim_start_matches('@').trim();
        compact_whitespace(text)
    }

    fn record_decorated_entry_points(&mut self, decorators: &[String], qualname: &str, node: Node<'_>) {
        for decorator in decorators {
            let (callee, arguments) = match decorator.split_once('(') {
                Some((callee, arguments)) => (callee.trim(), Some(arguments.trim_start())),
                None => (decorator.as_str(), None),
            };
            let first_arg_is_string = arguments.is_some_and(starts_with_string_literal);
            if let Some(kind) = entry_point_kind(callee, arguments.is_some(), first_arg_is_string) {
                self.facts.entry_points.push(EntryPoint {
                    kind,
                    symbol: Some(qualname.to_string()),
                    line: start_line(node),
                    detail: decorator.clone(),
                });
            }
        }
    }

    /// Module-level `__all__ = [...]`, `__all__ += [...]`, `__all__.extend([...])` and plain assignments.
    fn visit_module_expression(&mut self, node: Node<'_>, scope: &Scope) {
        let Some(expression) = node.named_child(0) else {
            return;
        };
        match expression.kind() {
            "assignment" | "augmented_assignment" => {
                let Some(left) = expression.child_by_field_name("left") else {
                    return;
                };
                if node_text(left, self.source) == "__all__" {
                    if let Some(right) = expression.child_by_field_name("right") {
                        let extend = expression.kind() == "augmented_assignment";
                        self.record_dunder_all(right, extend);
                    }
                } else if expression.kind() == "assignment" {
                    self.record_assigned_names(left, scope);
                }
            }
            "call" => {
                let callee = expression.child_by_field_name("function").map(|f| node_text(f, self.source));
                if matches!(callee, Some("__all__.extend" | "__all__.append"))
                    && let Some(arguments) = expression.child_by_field_name("arguments")
                {
                    self.record_dunder_all(arguments, true);
                }
            }
            _ => {}
        }
    }

    fn record_dunder_all(&mut self, value: Node<'_>, extend: bool) {
        let (mut names, mut parts) = (Vec::new(), Vec::new());
        collect_string_elements(value, self.source, &mut names, &mut parts);
        match (&mut self.facts.dunder_all, extend) {
            (Some(existing), true) => existing.extend(names),
            (slot, _) => {
                *slot = Some(names);
                self.facts.dunder_all_parts.clear();
            }
        }
        self.facts.dunder_all_parts.append(&mut parts);
    }

    fn record_public_name(&mut self, name: &str, scope: &Scope) {
        if !name.starts_with('_') {
            self.bindings.push((name.to_string(), scope.in_try));
        }
    }

    fn record_assigned_names(&mut self, target: Node<'_>, scope: &Scope) {
        match target.kind() {
            "identifier" => self.record_public_name(node_text(target, self.source), scope),
            "pattern_list" | "tuple_pattern" | "list_pattern" => {
                let mut cursor = target.walk();
                for element in target.named_children(&mut cursor) {
                    self.record_assigned_names(element, scope);
                }
            }
            _ => {}
        }
    }
}

/// String literals that are elements of a list/tuple/set literal, through `+` concatenations and
/// call argument lists (`__all__.extend([...])`), and the names concatenated with them (`parts`:
/// `models_all + [...]`, `__all__.extend(other_all)`).
fn collect_string_elements(node: Node<'_>, source: &str, names: &mut Vec<String>, parts: &mut Vec<String>) {
    match node.kind() {
        "list" | "tuple" | "set" | "parenthesized_expression" | "argument_list" | "binary_operator" => {
            let mut cursor = node.walk();
            for child in node.named_children(&mut cursor) {
                collect_string_elements(child, source, names, parts);
            }
        }
        "string" => names.extend(string_literal_value(node, source)),
        "identifier" => parts.push(node_text(node, source).to_string()),
        // `base.__all__ + [...]`: another module's list, by the name that module is bound to.
        "attribute" if node.child_by_field_name("attribute").is_some_and(|a| node_text(a, source) == "__all__") => {
            parts.push(compact_dotted(node_text(node, source)));
        }
        _ => {}
    }
}

fn module_docstring(root: Node<'_>, source: &str) -> Option<String> {
    let mut cursor = root.walk();
    let first = root.named_children(&mut cursor).find(|child| child.kind() != "comment")?;
    if first.kind() != "expression_statement" {
        return None;
    }
    let value = string_literal_value(first.named_child(0)?, source)?;
    let line = value.lines().map(str::trim).find(|line| !line.is_empty())?;
    Some(line.chars().take(200).collect())
}

/// `from ..p.q import x` → (2, "p.q").
fn relative_module(node: Node<'_>, source: &str) -> (u32, String) {
    let mut level = 0;
    let mut module = String::new();
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        match child.kind() {
            "import_prefix" => level += node_text(child, source).matches('.').count(),
            "dotted_name" => module = compact_dotted(node_text(child, source)),
            _ => {}
        }
    }
    (u32::try_from(level).unwrap_or(u32::MAX), module)
}

/// `TYPE_CHECKING`, `typing.TYPE_CHECKING`, `t.TYPE_CHECKING`, in parentheses or not.
fn is_type_checking_guard(condition: Node<'_>, source: &str) -> bool {
    let condition = without_parentheses(condition);
    match condition.kind() {
        "identifier" => node_text(condition, source) == "TYPE_CHECKING",
        "attribute" => condition
            .child_by_field_name("attribute")
            .is_some_and(|attribute| node_text(attribute, source) == "TYPE_CHECKING"),
        _ => false,
    }
}

/// `__name__ == "__main__"` in either order, in parentheses or not.
fn is_main_guard(condition: Node<'_>, source: &str) -> bool {
    let condition = without_parentheses(condition);
    if condition.kind() != "comparison_operator" || !node_text(condition, source).contains("==") {
        return false;
    }
    let mut cursor = condition.walk();
    let operands: Vec<Node<'_>> = condition.named_children(&mut cursor).map(without_parentheses).collect();
    let is_name = |n: &Node<'_>| n.kind() == "identifier" && node_text(*n, source) == "__name__";
    let is_main = |n: &Node<'_>| string_literal_value(*n, source).as_deref() == Some("__main__");
    operands.len() == 2
        && ((is_name(&operands[0]) && is_main(&operands[1])) || (is_main(&operands[0]) && is_name(&operands[1])))
}

/// The expression inside any number of parentheses (`((x))` is `x`), as Python's own parser sees it.
fn without_parentheses(mut node: Node<'_>) -> Node<'_> {
    while node.kind() == "parenthesized_expression" {
        let mut cursor = node.walk();
        let inner: Vec<Node<'_>> = node.named_children(&mut cursor).filter(|child| child.kind() != "comment").collect();
        match inner.as_slice() {
            [only] => node = *only,
            _ => break,
        }
    }
    node
}

fn starts_with_string_literal(arguments: &str) -> bool {
    let unprefixed = arguments.trim_start_matches(['r', 'R', 'b', 'B', 'u', 'U', 'f', 'F']);
    unprefixed.starts_with('"') || unprefixed.starts_with('\'')
}

/// `a . b` (legal Python) → `a.b`.
fn compact_dotted(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace() && *c != '\\').collect()
}

fn compact_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Only called for trees that contain an error, so a second (cursor) walk costs nothing on clean files.
fn first_error_line(root: Node<'_>) -> Option<u32> {
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        if node.is_error() || node.is_missing() {
            return Some(start_line(node));
        }
        if node.has_error() && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return None;
            }
        }
    }
}
