//! Linking what a question names to modules of the bundle: a path (`scrapy/core/engine.py`), a dotted
//! name (`scrapy.core.engine` or a unique suffix such as `core.engine`), a file or package name
//! (`engine`), or a class or function defined in a module (`ExecutionEngine`), tolerating small
//! misspellings. Pure over the bundle.

use std::collections::BTreeMap;

use strata_core::bundle::Bundle;

/// What a mention resolved to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Linked {
    /// One module (the best when several share a name; the others are listed).
    Module { id: String, alternatives: Vec<String> },
    /// A class or function and the modules that define it.
    Symbol { name: String, modules: Vec<String> },
}

pub struct EntityLinker<'b> {
    bundle: &'b Bundle,
    by_module_name: BTreeMap<String, String>,
    by_short_name: BTreeMap<String, Vec<String>>,
    symbols: BTreeMap<String, Vec<String>>,
}

/// Whether module `id` of `bundle` is a top-level package (see [`EntityLinker::is_top_level_package`]),
/// without building a linker.
pub fn is_top_level_package(bundle: &Bundle, id: &str) -> bool {
    id.ends_with("__init__.py") && bundle.nodes.get(id).is_some_and(|node| !node.module.contains('.'))
}

impl<'b> EntityLinker<'b> {
    pub fn new(bundle: &'b Bundle) -> EntityLinker<'b> {
        let mut by_module_name = BTreeMap::new();
        let mut by_short_name: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut symbols: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for node in bundle.nodes.values() {
            by_module_name.insert(node.module.to_lowercase(), node.id.clone());
            let short = node.module.rsplit('.').next().unwrap_or(&node.module).to_lowercase();
            by_short_name.entry(short).or_default().push(node.id.clone());
            for symbol in &node.symbols {
                symbols.entry(symbol.name.clone()).or_default().push(node.id.clone());
            }
        }
        EntityLinker { bundle, by_module_name, by_short_name, symbols }
    }

    /// Links one mention (already cut out of the question).
    /// A top-level package (`flask/__init__.py`, `src/flask/__init__.py`: a dotted name without a dot),
    /// which a question naming it bare ("cycles in flask") means as the whole project.
    pub fn is_top_level_package(&self, id: &str) -> bool {
        is_top_level_package(self.bundle, id)
    }

    pub fn link(&self, mention: &str) -> Option<Linked> {
        let mention = clean_mention(mention);
        if mention.is_empty() {
            return None;
        }
        let lower = mention.to_lowercase();
        if let Some(id) = self.exact_module(&mention, &lower) {
            return Some(Linked::Module { id, alternatives: Vec::new() });
        }
        // `src/flask/app.py` where the index has `flask/app.py` (or the reverse, handled by dotted names).
        if let Some(id) = mention.strip_prefix("src/").and_then(|rest| self.exact_module(rest, &rest.to_lowercase())) {
            return Some(Linked::Module { id, alternatives: Vec::new() });
        }
        if let Some(modules) = self.symbols.get(&mention) {
            return Some(Linked::Symbol { name: mention.clone(), modules: modules.clone() });
        }
        let dotted = lower.trim_end_matches(".py").replace('/', ".");
        let suffix_matches: Vec<String> = self
            .by_module_name
            .iter()
            .filter(|(name, _)| name.ends_with(&format!(".{dotted}")))
            .map(|(_, id)| id.clone())
            .collect();
        if !suffix_matches.is_empty() {
            return Some(self.best_of(suffix_matches));
        }
        if let Some(ids) = self.by_short_name.get(&dotted) {
            return Some(self.best_of(ids.clone()));
        }
        // Extra words around a precise name ("the Scaffold module, src/flask/sansio/scaffold.py"): a word
        // that names a module exactly wins over a fuzzy match of the whole mention.
        let exact_word = mention
            .split(|c: char| c.is_whitespace() || c == ',')
            .rev()
            .map(clean_mention)
            .filter(|word| word.contains(['/', '.']))
            .find_map(|word| self.exact_module(&word, &word.to_lowercase()).or_else(|| self.path_suffix(&word)));
        if let Some(id) = exact_word {
            return Some(Linked::Module { id, alternatives: Vec::new() });
        }
        self.fuzzy(&mention, &dotted)
    }

    /// Links an ordinary English-looking word only when it names something exactly: a module's short
    /// or dotted name, or a class or function written with its capitals (`Blueprint`). Misspellings are
    /// tolerated only when the question says it is a module (`the sesions module`).
    pub fn link_word(&self, word: &str, said_module: bool) -> Option<Linked> {
        let lower = word.to_lowercase();
        if let Some(id) = self.by_module_name.get(&lower) {
            return Some(Linked::Module { id: id.clone(), alternatives: Vec::new() });
        }
        if let Some(ids) = self.by_short_name.get(&lower) {
            return Some(self.best_of(ids.clone()));
        }
        if let Some(modules) = self.symbols.get(word) {
            return Some(Linked::Symbol { name: word.to_string(), modules: modules.clone() });
        }
        if said_module { self.fuzzy(word, &lower).filter(|l| matches!(l, Linked::Module { .. })) } else { None }
    }

    /// The modules defining a top-level class or function of exactly this name, not a method.
    pub fn class_or_function(&self, name: &str) -> Option<Vec<String>> {
        self.symbols.get(name).cloned()
    }

    /// The modules defining a class or function of exactly this name (`Model.save` for a method).
    pub fn symbol(&self, name: &str) -> Option<Vec<String>> {
        if let Some(modules) = self.class_or_function(name) {
            return Some(modules);
        }
        // `Model.save`, or a method's bare name (`charge_with_retry`).
        let (class, method) = name.rsplit_once('.').map_or((None, name), |(c, m)| (Some(c), m));
        if !method.chars().all(|c| c.is_alphanumeric() || c == '_') || method.is_empty() {
            return None;
        }
        let modules: Vec<String> = self
            .bundle
            .nodes
            .values()
            .filter(|node| {
                node.symbols
                    .iter()
                    .any(|s| class.is_none_or(|class| s.name == class) && s.methods.iter().any(|m| m.name == method))
            })
            .map(|node| node.id.clone())
            .collect();
        (!modules.is_empty()).then_some(modules)
    }

    /// The modules a code name denotes exactly, never by a guess: the module it names (a path or a
    /// dotted name), else the modules defining it (`Session`, `Session.send`, a bare method name),
    /// else, for a dotted name, the module its longest prefix names when that module defines the rest
    /// (`requests.sessions.Session.send`). Empty when nothing matches exactly.
    pub fn exact(&self, name: &str) -> Vec<String> {
        let name = name.trim().trim_end_matches("()");
        if name.is_empty() {
            return Vec::new();
        }
        if let Some(id) = self.exact_module(name, &name.to_lowercase()) {
            return vec![id];
        }
        if let Some(id) = name.strip_prefix("src/").and_then(|rest| self.exact_module(rest, &rest.to_lowercase())) {
            return vec![id];
        }
        if let Some(modules) = self.symbol(name) {
            return modules;
        }
        let parts: Vec<&str> = name.split('.').collect();
        for cut in (1..parts.len()).rev() {
            let (module, rest) = (parts[..cut].join("."), parts[cut..].join("."));
            if let Some(id) = self.exact_module(&module, &module.to_lowercase())
                && self.symbol(&rest).is_some_and(|modules| modules.contains(&id))
            {
                return vec![id];
            }
        }
        Vec::new()
    }

    /// For a dotted name that leads into a module of the index and then names nothing it holds
    /// (`sympy.ml.autofit`: `sympy` is the package, and no module, folder, class or function is
    /// called `ml`): the module and the first part after it. `None` when the name resolves, when no
    /// prefix of it is a module of the index, or when the part after the module names a module,
    /// folder or symbol anywhere (a re-export or an attribute may still be found through it).
    pub fn missing_under(&self, name: &str) -> Option<(String, String)> {
        let name = name.trim().trim_end_matches("()");
        let parts: Vec<&str> = name.split('.').collect();
        if parts.len() < 2 || parts.iter().any(|part| part.is_empty()) || !self.exact(name).is_empty() {
            return None;
        }
        let (module, cut) = (1..parts.len()).rev().find_map(|cut| {
            let prefix = parts[..cut].join(".");
            self.exact_module(&prefix, &prefix.to_lowercase()).map(|id| (id, cut))
        })?;
        let next = parts[cut];
        let lower = next.to_lowercase();
        let a_path_part =
            self.bundle.nodes.keys().any(|id| id.split('/').any(|part| part.trim_end_matches(".py") == lower));
        if a_path_part || self.symbol(next).is_some() {
            return None;
        }
        Some((module, next.to_string()))
    }

    /// The one module whose path ends with `/{word}` (`flaskr/auth.py` under `examples/tutorial/`).
    fn path_suffix(&self, word: &str) -> Option<String> {
        let suffix = format!("/{}", word.trim_start_matches('/'));
        let mut found =
            self.bundle.nodes.keys().filter(|id| id.ends_with(&suffix) || id.ends_with(&format!("{suffix}.py")));
        let first = found.next()?.clone();
        found.next().is_none().then_some(first)
    }

    /// A path, a path without `.py`, a package folder, or a dotted name (`flask/json/tag.py` under a
    /// `src/` root is `flask.json.tag`).
    fn exact_module(&self, mention: &str, lower: &str) -> Option<String> {
        let nodes = &self.bundle.nodes;
        for candidate in [mention.to_string(), format!("{mention}.py"), format!("{mention}/__init__.py")] {
            if nodes.contains_key(&candidate) {
                return Some(candidate);
            }
        }
        let dotted = lower.strip_suffix(".py").unwrap_or(lower).trim_end_matches("/__init__").replace('/', ".");
        self.by_module_name.get(lower).or_else(|| self.by_module_name.get(&dotted)).cloned()
    }

    /// Several modules share the name: the most central wins, the rest are alternatives.
    fn best_of(&self, mut ids: Vec<String>) -> Linked {
        ids.sort_by(|a, b| {
            let rank = |id: &String| self.bundle.nodes.get(id).map_or(0.0, |node| node.pagerank);
            rank(b).total_cmp(&rank(a)).then_with(|| a.len().cmp(&b.len())).then_with(|| a.cmp(b))
        });
        let id = ids.remove(0);
        Linked::Module { id, alternatives: ids }
    }

    /// Small misspellings of a module's short name or a symbol name.
    fn fuzzy(&self, mention: &str, dotted: &str) -> Option<Linked> {
        let allowed = |len: usize| {
            if len <= 4 {
                0
            } else if len <= 8 {
                1
            } else {
                2
            }
        };
        let budget = allowed(dotted.len());
        if budget == 0 {
            return None;
        }
        let mut best: Option<(usize, Linked)> = None;
        // `shop.pricng`: a misspelt full name.
        if dotted.contains('.') {
            for (name, id) in &self.by_module_name {
                let distance = strsim::levenshtein(name, dotted);
                if distance <= budget && best.as_ref().is_none_or(|(d, _)| distance < *d) {
                    best = Some((distance, Linked::Module { id: id.clone(), alternatives: Vec::new() }));
                }
            }
        }
        for (short, ids) in &self.by_short_name {
            let distance = strsim::levenshtein(short, dotted);
            if distance <= budget && best.as_ref().is_none_or(|(d, _)| distance < *d) {
                best = Some((distance, self.best_of(ids.clone())));
            }
        }
        for (name, modules) in &self.symbols {
            let distance = strsim::levenshtein(&name.to_lowercase(), &mention.to_lowercase());
            if distance <= budget && best.as_ref().is_none_or(|(d, _)| distance < *d) {
                best = Some((distance, Linked::Symbol { name: name.clone(), modules: modules.clone() }));
            }
        }
        best.map(|(_, linked)| linked)
    }
}

/// Strips quotes, backticks, trailing punctuation and filler words (`the`, `module`, `file`...).
pub fn clean_mention(mention: &str) -> String {
    let mut words: Vec<&str> = mention
        .split_whitespace()
        .map(|word| {
            word.trim_matches(|c: char| matches!(c, '`' | '"' | '\'' | '?' | '!' | ',' | ';' | ':' | '(' | ')'))
        })
        .filter(|word| !word.is_empty())
        .collect();
    const FILLER: &[&str] = &[
        "the",
        "a",
        "an",
        "module",
        "modules",
        "file",
        "package",
        "class",
        "function",
        "method",
        "in",
        "of",
        "called",
        "named",
        "top-level",
    ];
    while words.first().is_some_and(|w| FILLER.contains(&w.to_lowercase().as_str())) {
        words.remove(0);
    }
    while words.last().is_some_and(|w| FILLER.contains(&w.to_lowercase().as_str())) {
        words.pop();
    }
    words.join(" ").trim_end_matches('.').to_string()
}
