#!/usr/bin/env python3
"""Independent, stdlib-only import-graph oracle for strata's evaluation questions.

It shares no code with strata: it walks a repository with ``os.walk``, parses every
file with Python's own ``ast`` module and answers structural questions as JSON.
Ground truth in ``eval/questions/*.jsonl`` is derived with it (and checked by
``eval/check_questions.py``); it must never be fed strata's output.

Convention (grimp's edge rule, plus strata's documented extensions):

* Modules: every ``*.py`` file under ``--root``, skipping folders that are hidden
  (``.name``), ``__pycache__``, ``venv``, ``virtualenv``, ``site-packages``,
  ``node_modules``, ``build``, ``dist``, ``htmlcov`` or ``*.egg-info``.  A module's
  id is its repo-relative POSIX path.  Folders without ``__init__.py`` (namespace
  packages such as ``flask/sansio/``) still hold modules.
* Dotted names: source roots are the repo root, plus ``src/`` when files exist
  under it and ``src/__init__.py`` does not; a file's name is its path under the
  root giving the shortest name, ``.py`` and ``/__init__`` dropped.  Files whose
  folders (or stem) contain a dot are nodes no import can resolve to.
* A ``--root`` that is itself inside a package (``src/requests``) is named as that
  package: walking up, a folder belongs to the package while it has an
  ``__init__.py`` or its parent has one (``flask/sansio/``).
* Edges (importer -> imported), from imports anywhere in the file (functions,
  classes, try/except, ``if TYPE_CHECKING:``):
  ``import a.b.c`` -> ``a.b.c`` if that is a module;
  ``from P import x`` -> ``P.x`` if that is a module, else ``P`` if that is a module;
  ``from P import *`` -> ``P``; relative imports are resolved against the
  importer's package (its own name for ``__init__.py``); a module importing
  itself is not an edge.  An import under a repository top-level name that names
  no module (and no namespace folder) is *unresolved* (listed with its line by
  ``unresolved``), never an edge to an enclosing package; other names are external.
* An edge is ``type_checking`` when every statement producing it sits in the body
  of ``if TYPE_CHECKING:`` / ``if <x>.TYPE_CHECKING:`` (not its ``else``), and
  ``main_block`` when none of them runs on import and not all are ``type_checking``:
  each sits in the body of an ``if __name__ == "__main__":`` outside any function or
  class (which runs only when the file is a script) or under ``TYPE_CHECKING``.
  ``--runtime`` queries leave both out (impact, cycles, imports, rankings).
* Impact (transitive dependents) of M: modules that reach M along edges, M excluded.
  Cycles: strongly connected components of two or more modules.
* ``exports``: a literal ``__all__``, else public top-level definitions (functions,
  classes, assignments, also inside top-level if/try/with), names bound by top-level
  ``from M import x`` where M is the repository's own (relative, or under a
  repository top-level name), plus explicit re-exports (``import x as x``,
  ``from m import x as x``); ``fallback`` lists the exported names bound only inside
  ``try`` statements.  ``defined-in`` finds top-level
  functions/classes the same way, and ``Class.member`` for a top-level class's members.
* ``most-imported`` ranks modules by their number of direct importers.
* ``--no-namespace`` emulates grimp, which skips namespace *sub*-packages: modules
  in a folder without ``__init__.py`` below a regular top-level package (e.g.
  ``src/flask/sansio/*.py``) are dropped together with their edges.
* Files Python cannot parse are parsed up to the line before the error (so the
  imports above a deliberate syntax error still count).

* ``--extra-root DIR`` adds a source root (an alternative convention: django's
  ``tests/runtests.py`` puts ``tests/`` on ``sys.path``; flask's examples are
  installed projects), so ``from admin_views.models import X`` resolves too.

Usage: ast_oracle.py --root DIR [--no-namespace] [--extra-root DIR] COMMAND ...
       ast_oracle.py --self-test
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field

SKIP_DIRS = {"__pycache__", "venv", "virtualenv", "site-packages", "node_modules", "build", "dist", "htmlcov"}


@dataclass
class Module:
    path: str  # repo-relative POSIX path: the module id
    name: str | None  # dotted name, None when no import can reach it
    package: str | None  # package that relative imports resolve against
    namespace_sub: bool  # inside a namespace sub-package (dropped by --no-namespace)
    defs: set[str] = field(default_factory=set)  # top-level defs/classes and Class.member
    all_names: list[str] | None = None  # literal strings of __all__, if it is assigned
    all_parts: list[str] = field(default_factory=list)  # names concatenated into __all__ (`m_all + [...]`)
    public: set[str] = field(default_factory=set)  # public top-level definitions and explicit re-exports
    imported: list[tuple[str, ast.ImportFrom]] = field(default_factory=list)  # names bound by top-level from-imports
    outside_try: set[str] = field(default_factory=set)  # public names bound somewhere outside a try
    parse_error: str | None = None


@dataclass
class Graph:
    root: str
    modules: dict[str, Module]  # path -> Module
    by_name: dict[str, str]  # dotted name -> path
    edges: dict[tuple[str, str], dict]  # (importer, imported) -> {"lines", "type_checking", "main_block"}
    unresolved: dict[str, list[tuple[int, str]]] = field(default_factory=dict)  # path -> [(line, missing name)]
    collisions: list[list[str]] = field(default_factory=list)  # paths sharing a dotted name

    def find(self, ref: str) -> str:
        """A module path from a path or a dotted name."""
        ref = ref.strip().removeprefix("./")
        if ref in self.modules:
            return ref
        if ref in self.by_name:
            return self.by_name[ref]
        raise SystemExit(f"unknown module: {ref}")

    def out(self, runtime: bool = False) -> dict[str, set[str]]:
        adj: dict[str, set[str]] = defaultdict(set)
        for (a, b), e in self.edges.items():
            if not (runtime and (e["type_checking"] or e["main_block"])):
                adj[a].add(b)
        return adj

    def into(self, runtime: bool = False) -> dict[str, set[str]]:
        adj: dict[str, set[str]] = defaultdict(set)
        for a, targets in self.out(runtime).items():
            for b in targets:
                adj[b].add(a)
        return adj


# ---------------------------------------------------------------- discovery

def discover(root: str) -> list[str]:
    paths = []
    for dirpath, dirnames, filenames in os.walk(root):
        skip = lambda d: d.startswith(".") or d in SKIP_DIRS or d.endswith(".egg-info")
        dirnames[:] = sorted(d for d in dirnames if not skip(d))
        rel_dir = os.path.relpath(dirpath, root)
        for f in sorted(filenames):
            if f.endswith(".py"):
                paths.append(f if rel_dir == "." else f"{rel_dir.replace(os.sep, '/')}/{f}")
    return sorted(paths)


def naming(root: str, path: str, roots: list[str], enclosing: list[str] = ()) -> tuple[str | None, str | None, bool]:
    """(dotted name, package for relative imports, in a namespace sub-package).

    `enclosing` are the package names of `root` itself (see `enclosing_package`)."""
    best = None
    for r in roots:
        if r and not path.startswith(r + "/"):
            continue
        parts = path[len(r) + 1 if r else 0:].removesuffix(".py").split("/")
        is_pkg = parts[-1] == "__init__"
        if is_pkg:
            parts = parts[:-1]
        parts = list(enclosing) + parts
        if parts and (best is None or len(parts) < len(best[1])):
            best = (r, parts, is_pkg)
    if best is None:  # e.g. src/__init__.py directly under the src root
        return None, None, False
    r, parts, is_pkg = best
    package = ".".join(parts if is_pkg else parts[:-1])
    name = None if any("." in p or not p for p in parts) else ".".join(parts)
    # Package folders from the top-level package down: the enclosing ones are above `root`.
    top = os.path.join(root, r) if r else root
    for _ in enclosing:
        top = os.path.dirname(top)
    folders = [os.path.join(top, *parts[:i]) for i in range(1, len(parts) if not is_pkg else len(parts) + 1)]
    has_init = [os.path.exists(os.path.join(f, "__init__.py")) for f in folders]
    namespace_sub = bool(has_init) and has_init[0] and not all(has_init)
    return name, (None if any("." in p for p in package.split(".")) else package), namespace_sub


def parse(source: bytes) -> tuple[ast.Module, str | None]:
    try:
        return ast.parse(source), None
    except (SyntaxError, ValueError) as err:
        lines = source.split(b"\n")
        cut = min(getattr(err, "lineno", None) or len(lines), len(lines)) - 1
        while cut >= 0:  # parse the longest prefix ending before the error that parses
            try:
                return ast.parse(b"\n".join(lines[:cut])), f"{type(err).__name__}: {err}"
            except (SyntaxError, ValueError):
                cut -= 1
        return ast.Module(body=[], type_ignores=[]), f"{type(err).__name__}: {err}"


def is_type_checking_test(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def is_main_test(test: ast.expr) -> bool:
    """`__name__ == "__main__"`, in either order."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = [test.left, test.comparators[0]]
    is_name = lambda e: isinstance(e, ast.Name) and e.id == "__name__"
    is_main = lambda e: isinstance(e, ast.Constant) and e.value == "__main__"
    return (is_name(sides[0]) and is_main(sides[1])) or (is_main(sides[0]) and is_name(sides[1]))


def imports(tree: ast.Module):
    """Yield (import node, under-TYPE_CHECKING flag, in-a-__main__-block flag) for every import."""
    def visit(node: ast.AST, tc: bool, main: bool, in_def: bool):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node, tc, main
        elif isinstance(node, ast.If) and is_type_checking_test(node.test):
            for stmt in node.body:
                yield from visit(stmt, True, main, in_def)
            for stmt in node.orelse:  # the else branch runs at runtime
                yield from visit(stmt, tc, main, in_def)
        elif isinstance(node, ast.If) and not in_def and is_main_test(node.test):
            for stmt in node.body:  # runs only when the file is run as a script
                yield from visit(stmt, tc, True, in_def)
            for stmt in node.orelse:
                yield from visit(stmt, tc, main, in_def)
        else:  # imports are statements: only statement blocks can hold them
            inner = in_def or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            for block in ("body", "orelse", "finalbody", "handlers", "cases"):
                for child in getattr(node, block, ()):
                    yield from visit(child, tc, main, inner)
    for stmt in tree.body:
        yield from visit(stmt, False, False, False)


def top_level(body: list[ast.stmt], in_try: bool = False, tc: bool = False):
    """(statement, inside a try, under `if TYPE_CHECKING:`) for module-level statements, looking inside
    top-level if/try/with blocks."""
    for stmt in body:
        yield stmt, in_try, tc
        if isinstance(stmt, ast.If) and is_type_checking_test(stmt.test):
            yield from top_level(stmt.body, in_try, True)
            yield from top_level(stmt.orelse, in_try, tc)
        elif isinstance(stmt, (ast.If, ast.Try, ast.With)):
            inner = in_try or isinstance(stmt, ast.Try)
            blocks = [stmt.body, getattr(stmt, "orelse", []), getattr(stmt, "finalbody", [])]
            blocks += [h.body for h in getattr(stmt, "handlers", [])]
            for block in blocks:
                yield from top_level(block, inner, tc)


def dunder_all_value(value: ast.expr, mod: Module) -> None:
    """The strings of a list, tuple or set (through `+`), and the names concatenated with them."""
    if isinstance(value, (ast.List, ast.Tuple, ast.Set)):
        for e in value.elts:
            dunder_all_value(e, mod)
    elif isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
        dunder_all_value(value.left, mod)
        dunder_all_value(value.right, mod)
    elif isinstance(value, ast.Constant) and isinstance(value.value, str):
        mod.all_names.append(value.value)
    elif isinstance(value, ast.Name):
        mod.all_parts.append(value.id)
    elif isinstance(value, ast.Attribute) and value.attr == "__all__":
        mod.all_parts.append(ast.unparse(value))


def collect_names(mod: Module, tree: ast.Module) -> None:
    defs_types = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    for stmt, in_try, tc in top_level(tree.body):
        bound: list[str] = []
        if isinstance(stmt, defs_types):
            mod.defs.add(stmt.name)
            bound.append(stmt.name)
            if isinstance(stmt, ast.ClassDef):
                mod.defs.update(f"{stmt.name}.{s.name}" for s in stmt.body if isinstance(s, defs_types))
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for t in targets:
                bound += [n.id for n in ast.walk(t) if isinstance(n, ast.Name)]
                if isinstance(t, ast.Name) and t.id == "__all__" and stmt.value is not None:
                    mod.all_names, mod.all_parts = [], []
                    dunder_all_value(stmt.value, mod)
        elif (isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == "__all__"
              and mod.all_names is not None):
            dunder_all_value(stmt.value, mod)
        elif (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and mod.all_names is not None
              and ast.unparse(stmt.value.func) in ("__all__.extend", "__all__.append")):
            for arg in stmt.value.args:
                dunder_all_value(arg, mod)
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)) and getattr(stmt, "module", "") != "__future__":
            bound += [a.asname for a in stmt.names if a.asname == a.name]  # explicit re-export only
            if isinstance(stmt, ast.ImportFrom) and not tc:  # TYPE_CHECKING imports bind nothing at runtime
                for a in stmt.names:
                    name = a.asname or a.name
                    if a.name != "*" and not name.startswith("_"):
                        mod.imported.append((name, stmt))
                        if not in_try:
                            mod.outside_try.add(name)
        public = [n for n in bound if not n.startswith("_")]
        mod.public.update(public)
        if not in_try:
            mod.outside_try.update(public)


# ---------------------------------------------------------------- resolution

def resolve(node: ast.stmt, mod: Module, by_name: dict[str, str], namespaces: set[str], top_names: set[str]):
    """(dotted names of the repo modules one import statement points to, missing dotted names)."""
    found, missing = [], []

    def target(dotted: str) -> str | None:
        """'module', 'namespace' or None."""
        return "module" if dotted in by_name else "namespace" if dotted in namespaces else None

    if isinstance(node, ast.Import):
        for a in node.names:
            if a.name.split(".")[0] not in top_names:
                continue
            kind = target(a.name)
            if kind == "module":
                found.append(a.name)
            elif kind is None:
                missing.append(a.name)
        return found, missing
    base = node.module or ""
    if node.level:
        if mod.package is None or not mod.package:
            return [], []  # relative import without a known parent package
        pkg = mod.package.split(".")
        if node.level - 1 >= len(pkg):
            return [], []
        pkg = pkg[:len(pkg) - (node.level - 1)]
        base = ".".join(pkg + ([node.module] if node.module else []))
    elif base.split(".")[0] not in top_names:
        return [], []
    for a in node.names:
        sub = f"{base}.{a.name}"
        if a.name != "*" and target(sub):
            if target(sub) == "module":
                found.append(sub)
        elif target(base) == "module":
            found.append(base)
        elif target(base) is None:
            missing.append(base)
        elif a.name != "*":  # a namespace package has no attributes besides its submodules
            missing.append(sub)
    return found, missing


def enclosing_package(root: str) -> list[str]:
    """Package names of `root` itself: folders upward while one has __init__.py or its parent does."""
    names, here = [], os.path.abspath(root)
    while True:
        parent = os.path.dirname(here)
        if parent == here:
            break
        if not (os.path.exists(os.path.join(here, "__init__.py")) or os.path.exists(os.path.join(parent, "__init__.py"))):
            break
        names.insert(0, os.path.basename(here))
        here = parent
    return names


def build_graph(root: str, no_namespace: bool = False, extra_roots: tuple[str, ...] = ()) -> Graph:
    """The import graph of `root`; `extra_roots` adds source roots (e.g. "tests" for django's runtests.py)."""
    root = os.path.abspath(root)
    paths = discover(root)
    enclosing = enclosing_package(root)
    roots = [""] + [r.strip("/") for r in extra_roots]
    if not enclosing and any(p.startswith("src/") for p in paths) and not os.path.exists(
            os.path.join(root, "src", "__init__.py")):
        roots.append("src")
    modules, by_name, trees, collisions = {}, {}, {}, []
    for p in paths:
        name, package, ns = naming(root, p, roots, enclosing)
        mod = modules[p] = Module(p, name, package, ns)
        if name is not None:
            if name in by_name:
                collisions.append([by_name[name], p])  # same dotted name: the first path wins
            else:
                by_name[name] = p
        with open(os.path.join(root, p), "rb") as f:
            trees[p], mod.parse_error = parse(f.read())
        collect_names(mod, trees[p])
    namespaces = {n.rsplit(".", i)[0] for n in by_name for i in range(1, n.count(".") + 1)} - set(by_name)
    top_names = {n.split(".")[0] for n in by_name}
    edges: dict[tuple[str, str], dict] = {}
    unresolved: dict[str, list[tuple[int, str]]] = {}
    for p, tree in trees.items():
        for node, tc, main in imports(tree):
            found, missing = resolve(node, modules[p], by_name, namespaces, top_names)
            unresolved.setdefault(p, []).extend((node.lineno, m) for m in missing)
            for target in found:
                dst = by_name[target]
                if dst == p:
                    continue
                e = edges.setdefault((p, dst), {"lines": [], "type_checking": True, "main_block": True})
                e["lines"].append(node.lineno)
                e["type_checking"] = e["type_checking"] and tc
                e["main_block"] = e["main_block"] and (tc or main)  # none runs on import, so far
    for e in edges.values():
        e["lines"] = sorted(set(e["lines"]))
        e["main_block"] = e["main_block"] and not e["type_checking"]
    unresolved = {p: sorted(set(u)) for p, u in unresolved.items() if u}
    if no_namespace:  # as grimp: such modules are unknown, imports of them lead nowhere
        dropped = {p for p, m in modules.items() if m.namespace_sub}
        modules = {p: m for p, m in modules.items() if p not in dropped}
        by_name = {n: p for n, p in by_name.items() if p not in dropped}
        edges = {k: e for k, e in edges.items() if not dropped & set(k)}
    return Graph(root, modules, by_name, edges, unresolved=unresolved, collisions=collisions)


# ---------------------------------------------------------------- queries

def imports_of(g: Graph, m: str, runtime: bool = False) -> list[str]:
    return sorted(g.out(runtime).get(g.find(m), ()))


def imported_by(g: Graph, m: str, runtime: bool = False) -> list[str]:
    return sorted(g.into(runtime).get(g.find(m), ()))


def impact(g: Graph, m: str, runtime: bool = False) -> list[str]:
    start, into = g.find(m), g.into(runtime)
    seen, todo = {start}, [start]
    while todo:
        for n in into.get(todo.pop(), ()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return sorted(seen - {start})


def cycles(g: Graph, runtime: bool = False) -> list[list[str]]:
    """Strongly connected components of size >= 2 (iterative Tarjan), largest first."""
    adj = {k: sorted(v) for k, v in g.out(runtime).items()}
    index, low, on_stack, stack, comps, counter = {}, {}, set(), [], [], 0
    for start in sorted(g.modules):
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
                on_stack.add(v)
            succ = adj.get(v, [])
            if i < len(succ):
                work.append((v, i + 1))
                w = succ[i]
                if w not in index:
                    work.append((w, 0))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    comps.append(sorted(comp))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
    return sorted(comps, key=lambda c: (-len(c), c))


def cycle_of(g: Graph, m: str, runtime: bool = False) -> list[str]:
    p = g.find(m)
    return next((c for c in cycles(g, runtime) if p in c), [])


def most_imported(g: Graph, top: int = 10, runtime: bool = False, within: str = "") -> dict:
    """Modules by number of direct importers; the list runs past `top` while tied.

    `within` (a path prefix such as "django/") counts only modules and importers under it."""
    into = {k: {i for i in v if i.startswith(within)} for k, v in g.into(runtime).items() if k.startswith(within)}
    ranked = sorted(((len(v), k) for k, v in into.items() if v), key=lambda t: (-t[0], t[1]))
    cutoff = ranked[top - 1][0] if len(ranked) >= top else 0
    shown = [{"module": k, "importers": n} for n, k in ranked if n >= cutoff]
    groups = defaultdict(list)
    for row in shown:
        groups[row["importers"]].append(row["module"])
    ties = [v for _, v in sorted(groups.items(), reverse=True) if len(v) > 1]
    return {"top": top, "within": within, "ranking": shown, "ties": ties}


def defined_in(g: Graph, name: str) -> list[str]:
    return sorted(p for p, m in g.modules.items() if name in m.defs)


def dunder_all(g: Graph, mod: Module, reading: set[str]) -> list[str]:
    """A module's __all__: its strings, then the __all__ of each repository module it concatenates
    (`from m import __all__ as m_all`, `from . import m` ... `m.__all__`), each name once."""
    names = list(mod.all_names or [])
    reading = reading | {mod.path}
    for part in mod.all_parts:
        bound, imported = (part[:-len(".__all__")], part[:-len(".__all__")]) if part.endswith(".__all__") else (part, "__all__")
        stmts = [node for name, node in mod.imported if name == bound]
        if not stmts:
            continue
        node = stmts[-1]
        alias = next((a for a in node.names if (a.asname or a.name) == bound and a.name == imported), None)
        if alias is None:
            continue
        base = node.module or ""
        if node.level:
            if not mod.package:
                continue
            pkg = mod.package.split(".")
            if node.level - 1 >= len(pkg):
                continue
            base = ".".join(pkg[:len(pkg) - (node.level - 1)] + ([node.module] if node.module else []))
        target = g.by_name.get(f"{base}.{imported}") or g.by_name.get(base)
        if target and target not in reading and g.modules[target].all_names is not None:
            names += dunder_all(g, g.modules[target], reading)
    return list(dict.fromkeys(names))


def exports(g: Graph, m: str) -> dict:
    mod = g.modules[g.find(m)]
    if mod.all_names is not None:
        return {"module": mod.path, "source": "__all__", "names": dunder_all(g, mod, set()), "fallback": []}
    top_names = {n.split(".")[0] for n in g.by_name}
    names = set(mod.public)
    names.update(name for name, node in mod.imported if node.level or (node.module or "").split(".")[0] in top_names)
    return {"module": mod.path, "source": "public top-level names", "names": sorted(names),
            "fallback": sorted(names - mod.outside_try)}


def edge_list(g: Graph) -> list[dict]:
    """Every edge as dotted names (comparable whatever folder was indexed), with its flag."""
    name = {p: m.name or p for p, m in g.modules.items()}
    return sorted(({"src": name[a], "dst": name[b], "type_checking": e["type_checking"], "main_block": e["main_block"]}
                   for (a, b), e in g.edges.items()), key=lambda e: (e["src"], e["dst"]))


def edge_paths(g: Graph) -> list[dict]:
    """Every edge as repo-relative paths (the module ids of an index of the same folder), for
    `strata eval --oracle-edges`: claims in answers are checked against this graph, not strata's."""
    return sorted(({"src": a, "dst": b, "type_checking": e["type_checking"], "main_block": e["main_block"]}
                   for (a, b), e in g.edges.items()), key=lambda e: (e["src"], e["dst"]))


def stats(g: Graph) -> dict:
    comps, rcomps = cycles(g), cycles(g, True)
    return {"root": g.root, "modules": len(g.modules), "edges": len(g.edges),
            "type_checking_edges": sum(e["type_checking"] for e in g.edges.values()),
            "main_block_edges": sum(e["main_block"] for e in g.edges.values()),
            "unimportable_modules": sorted(p for p, m in g.modules.items() if m.name is None),
            "partially_parsed": {p: m.parse_error for p, m in g.modules.items() if m.parse_error},
            "name_collisions": g.collisions,
            "cycles": [len(c) for c in comps], "cycles_runtime": [len(c) for c in rcomps]}


def query(g: Graph, q: dict):
    """Answer one machine-readable query: {"op", "module" | "name", "runtime", "top", "within"}."""
    rt, m = bool(q.get("runtime", False)), q.get("module")
    ops = {"imports-of": lambda: imports_of(g, m, rt), "imported-by": lambda: imported_by(g, m, rt),
           "impact": lambda: impact(g, m, rt), "cycles": lambda: cycles(g, rt), "cycle-of": lambda: cycle_of(g, m, rt),
           "most-imported": lambda: most_imported(g, int(q.get("top", 10)), rt, q.get("within", "")),
           "defined-in": lambda: defined_in(g, q["name"]), "exports": lambda: exports(g, m), "stats": lambda: stats(g),
           "edges": lambda: edge_list(g), "edge-paths": lambda: edge_paths(g), "names": lambda: {p: m.name for p, m in sorted(g.modules.items())},
           "unresolved": lambda: [
               {"module": p, "line": line, "name": name} for p, u in sorted(g.unresolved.items()) for line, name in u]}
    if q["op"] not in ops:
        raise ValueError(f"unknown op {q['op']}")
    return ops[q["op"]]()


# ---------------------------------------------------------------- self-test

SELF_TEST_TREES = {
    "relative imports, from-package-import-submodule, self-import": {
        "pkg/__init__.py": "from . import a\nfrom . import helper_name\nimport pkg\n",
        "pkg/a.py": "from .b import thing\nfrom pkg.sub import *\nfrom .sub import deep\n",
        "pkg/b.py": "import pkg.sub.deep.Missing\nimport os\nfrom . import b\n",
        "pkg/c.py": "def f():\n    from .sub import deep\n",
        "pkg/sub/__init__.py": "",
        "pkg/sub/deep.py": "from ..c import f\nclass K:\n    def m(self): ...\n__all__ = ['K']\n",
        "top.py": "from . import pkg\nimport os\nimport os.path as path\nfrom pkg import a as a\n"
                  "_private = 1\nPUBLIC = 2\n",
    },
    "TYPE_CHECKING, namespace sub-package, src layout": {
        "src/lib/__init__.py": "",
        "src/lib/x.py": "import typing\nif typing.TYPE_CHECKING:\n    from .y import Y\nelse:\n"
                        "    from . import z\n",
        "src/lib/y.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from lib import x\n"
                        "from lib.ns import n\n",
        "src/lib/z.py": "from lib.x import *\n", "src/lib/ns/n.py": "from .. import y\n",
        "tests/test_x.py": "from lib import x\n", ".hidden/h.py": "import lib\n", "build/b.py": "import lib\n",
    },
}

SELF_TEST_TREES["a package folder as root, unresolved imports, exports"] = {
    "src/lib/__init__.py": "from .models import Model\nfrom .gone import codes\nimport os\nfrom typing import Any\n"
                           "try:\n    import ssl\nexcept ImportError:\n    ssl = None\n"
                           "try:\n    from .speedups import fast\nexcept ImportError:\n    fast = None\n",
    "src/lib/models.py": "from lib.missing import thing\nfrom . import ns\nimport lib.ns.inner\nclass Model: ...\n",
    "src/lib/speedups.py": "def fast(): ...\n",
    "src/lib/ns/inner.py": "from ..models import Model\n",
}

SELF_TEST_TREES["__main__ blocks"] = {
    "app/__init__.py": "",
    "app/style.py": "from . import color\n",
    "app/color.py": "import os\nif __name__ == '__main__':\n    from app import console\n"
                    "    if TYPE_CHECKING:\n        from app import never\nelse:\n    from app import runs\n",
    "app/console.py": "from app import style\ndef main():\n    if __name__ == '__main__':\n        from app import local\n",
    "app/never.py": "", "app/runs.py": "", "app/local.py": "",
    "app/both.py": "if TYPE_CHECKING:\n    from app import style\nif __name__ == '__main__':\n    from app import style\n",
}

SELF_TEST_EXPECT = {
    "relative imports, from-package-import-submodule, self-import": lambda g: [
        (imports_of(g, "pkg"), ["pkg/a.py"]),  # helper_name resolves to pkg itself, `import pkg` too: no edge
        (imports_of(g, "pkg.a"), ["pkg/b.py", "pkg/sub/__init__.py", "pkg/sub/deep.py"]),
        (imports_of(g, "pkg/b.py"), []),  # pkg.sub.deep.Missing is no module; `from . import b` is a self-import
        (g.unresolved["pkg/b.py"], [(1, "pkg.sub.deep.Missing")]),
        (imports_of(g, "pkg.c"), ["pkg/sub/deep.py"]),  # import inside a function
        (imports_of(g, "pkg.sub.deep"), ["pkg/c.py"]),  # `from ..c import f`: f is not a module
        (imports_of(g, "top"), ["pkg/a.py"]),  # `from . import pkg`: relative import without a parent package
        (cycles(g), [["pkg/c.py", "pkg/sub/deep.py"]]),
        (impact(g, "pkg.sub.deep"), ["pkg/__init__.py", "pkg/a.py", "pkg/c.py", "top.py"]),
        (defined_in(g, "K.m"), ["pkg/sub/deep.py"]),
        (exports(g, "pkg.sub.deep")["names"], ["K"]), (exports(g, "top")["names"], ["PUBLIC", "a", "pkg"]),
    ],
    "a package folder as root, unresolved imports, exports": lambda g: [
        (edge_list(build_graph(os.path.join(g.root, "src", "lib"))), edge_list(g)),  # named as package lib
        (edge_list(g), [{"src": "lib", "dst": "lib.models", "type_checking": False, "main_block": False},
                        {"src": "lib", "dst": "lib.speedups", "type_checking": False, "main_block": False},
                        {"src": "lib.models", "dst": "lib.ns.inner", "type_checking": False, "main_block": False},
                        {"src": "lib.ns.inner", "dst": "lib.models", "type_checking": False, "main_block": False}]),
        (g.unresolved, {"src/lib/__init__.py": [(2, "lib.gone")], "src/lib/models.py": [(1, "lib.missing")]}),
        (exports(g, "lib")["names"], ["Model", "codes", "fast", "ssl"]),
        (exports(g, "lib")["fallback"], ["fast", "ssl"]),
    ],
    "__main__ blocks": lambda g: [
        (g.edges[("app/color.py", "app/console.py")]["main_block"], True),
        (g.edges[("app/color.py", "app/never.py")]["type_checking"], True),  # TYPE_CHECKING inside the block
        (g.edges[("app/color.py", "app/never.py")]["main_block"], False),
        (g.edges[("app/color.py", "app/runs.py")]["main_block"], False),  # the else branch runs on import
        (g.edges[("app/console.py", "app/local.py")]["main_block"], False),  # not module level
        (g.edges[("app/both.py", "app/style.py")]["main_block"], True),  # never on import, once as a script
        (cycles(g), [["app/color.py", "app/console.py", "app/style.py"]]),
        (cycles(g, runtime=True), []),
        (impact(g, "app/console.py", runtime=True), []),
        (impact(g, "app/console.py"), ["app/both.py", "app/color.py", "app/style.py"]),
    ],
    "TYPE_CHECKING, namespace sub-package, src layout": lambda g: [
        (sorted(g.modules), ["src/lib/__init__.py", "src/lib/ns/n.py", "src/lib/x.py", "src/lib/y.py",
                             "src/lib/z.py", "tests/test_x.py"]),
        (g.modules["src/lib/ns/n.py"].name, "lib.ns.n"), (g.modules["tests/test_x.py"].name, "tests.test_x"),
        (g.edges[("src/lib/x.py", "src/lib/y.py")]["type_checking"], True),
        (g.edges[("src/lib/x.py", "src/lib/z.py")]["type_checking"], False),  # else branch is runtime
        (cycles(g), [["src/lib/ns/n.py", "src/lib/x.py", "src/lib/y.py", "src/lib/z.py"]]),
        (cycles(g, runtime=True), [["src/lib/ns/n.py", "src/lib/y.py"], ["src/lib/x.py", "src/lib/z.py"]]),
        (imported_by(g, "lib.x"), ["src/lib/y.py", "src/lib/z.py", "tests/test_x.py"]),
        (impact(g, "src/lib/x.py", runtime=True), ["src/lib/z.py", "tests/test_x.py"]),
        (sorted(build_graph(g.root, no_namespace=True).modules),
         ["src/lib/__init__.py", "src/lib/x.py", "src/lib/y.py", "src/lib/z.py", "tests/test_x.py"]),
    ],
}


def self_test() -> int:
    failures = 0
    for title, files in SELF_TEST_TREES.items():
        with tempfile.TemporaryDirectory(prefix="ast-oracle-") as tmp:
            for rel, text in files.items():
                os.makedirs(os.path.dirname(os.path.join(tmp, rel)), exist_ok=True)
                with open(os.path.join(tmp, rel), "w") as f:
                    f.write(text)
            for i, (got, want) in enumerate(SELF_TEST_EXPECT[title](build_graph(tmp))):
                if got != want:
                    failures += 1
                    print(f"FAIL [{title}] check {i}: got {got!r}, want {want!r}")
    print("self-test:", "OK" if not failures else f"{failures} failure(s)")
    return 1 if failures else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", help="repository directory to index")
    ap.add_argument("--no-namespace", action="store_true", help="drop namespace sub-package modules (grimp's view)")
    ap.add_argument("--extra-root", action="append", default=[], metavar="DIR",
                    help="another source root, e.g. tests (django's runtests.py puts it on sys.path)")
    ap.add_argument("--self-test", action="store_true", help="check synthetic trees and exit")
    sub = ap.add_subparsers(dest="op")
    for op in ("imports-of", "imported-by", "impact", "cycle-of", "exports"):
        s = sub.add_parser(op)
        s.add_argument("module", help="path (src/flask/app.py) or dotted name (flask.app)")
        s.add_argument("--runtime", action="store_true", help="ignore TYPE_CHECKING-only edges")
    s = sub.add_parser("cycles")
    s.add_argument("--runtime", action="store_true")
    s = sub.add_parser("most-imported")
    s.add_argument("--top", type=int, default=10)
    s.add_argument("--runtime", action="store_true")
    s.add_argument("--within", default="", help="path prefix: count only modules and importers under it")
    sub.add_parser("defined-in").add_argument("name", help="Name or Class.method")
    sub.add_parser("stats")
    sub.add_parser("edges", help="every edge as dotted names")
    sub.add_parser("edge-paths", help="every edge as repo-relative paths (for strata eval --oracle-edges)")
    sub.add_parser("names", help="every module path and its dotted name")
    sub.add_parser("unresolved", help="imports of repository packages that name no module, with lines")
    args = ap.parse_args(argv)
    if args.self_test:
        return self_test()
    if not args.root or not args.op:
        ap.error("--root and a command are required (or --self-test)")
    g = build_graph(args.root, args.no_namespace, tuple(args.extra_root))
    q = {k: v for k, v in vars(args).items() if k in ("op", "module", "name", "runtime", "top", "within")}
    json.dump(query(g, q), sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
