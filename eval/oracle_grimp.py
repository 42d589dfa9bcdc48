#!/usr/bin/env python3
"""Oracle check: compare strata's import edges for one package with grimp's.

grimp (https://github.com/python-grimp/grimp) is the reference import-graph
builder used by import-linter.  strata follows grimp's edge convention:

  * ``from P import x``  -> edge to ``P.x`` when that is a module, else to ``P``;
  * ``import a.b.c``     -> edge to ``a.b.c`` when that is a module (a missing one is unresolved);
  * relative imports are resolved against the importing module's package;
  * imports under ``if TYPE_CHECKING:``, inside functions and in try/except
    blocks are all edges.

So for the modules of one package the two edge sets should be the same.  This
script runs ``strata index`` on a source tree (or reads an existing
``bundle.json``), builds grimp's graph of the same package from the same tree,
and compares the (importer, imported) pairs, both as dotted module names.

Every difference is put into a category (see ``CATEGORIES``) with the source
line that produced it, so a reader can judge which side is right.  Categories
that are documented, intended differences (e.g. strata treats files in folders
without ``__init__.py`` as modules, grimp ignores them) are "explained"; the
exit code is non-zero when the agreement *excluding explained differences*
falls below ``--threshold`` percent (default 99).

It also cross-checks three edge/node attributes on the common edges and modules:
  * ``line``          - strata keeps the first line importing the module; this
                        must be the smallest line grimp reports for that pair;
  * ``type_checking`` - strata's flag must be true exactly when grimp built with
                        ``exclude_type_checking_imports=True`` drops the pair;
  * external imports  - strata's per-module ``external_imports`` (stdlib plus
                        third-party top-level names) must equal grimp's external
                        (squashed) imports for that module.
These are reported (text and JSON) but do not change the exit code.

Example (the second indexes the package folder on its own; the edges must be the same):
  python3 eval/oracle_grimp.py --root ~/.cache/strata-corpus/flask-3.1.2 --package flask \\
      --source-dir src --strata /tmp/strata-oracle-bin
  python3 eval/oracle_grimp.py --root ~/.cache/strata-corpus/flask-3.1.2 --package flask \\
      --source-dir src --folder src/flask --strata /tmp/strata-oracle-bin
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

import grimp

# key -> (explained?, one-line explanation).  "Explained" means the difference is
# an intended, documented convention difference, not a bug on either side.
CATEGORIES: dict[str, tuple[bool, str]] = {
    "namespace": (
        True,
        "An end of the edge lives in a folder without __init__.py (an implicit "
        "namespace sub-package such as flask/sansio/); strata indexes such files "
        "as modules by design, grimp only walks regular packages and never sees them.",
    ),
    "strata-skipped-file": (
        True,
        "strata skipped the importing/imported file (too large or excluded, listed "
        "in bundle meta.skipped_files), so it has no node for it.",
    ),
    "self-import": (
        True,
        "The module imports itself (`import pkg` in pkg/__init__.py, `from . import a` in "
        "a.py); grimp keeps the self-loop, strata drops self-edges on purpose "
        "(src/graph/resolve.rs), as they carry no dependency.",
    ),
    "dotted-folder": (
        False,
        "A folder on the module's path has a '.' in its name (e.g. `dot.ted/`), so the file "
        "is not importable; grimp skips it, strata names it as if the dot were a package "
        "separator (strata bug: bogus module names that imports can resolve to).",
    ),
    "unknown-to-grimp": (
        False,
        "strata has a module grimp does not, and not because of a namespace folder.",
    ),
    "unknown-to-strata": (
        False,
        "grimp has a module strata does not index (and strata did not report skipping it).",
    ),
    "strata-partial-parse": (
        False,
        "strata only partly parsed the importer (parse_status != ok) while Python "
        "parsed it fine; the import was lost in error recovery.",
    ),
    "strata-extra": (
        False,
        "Both modules are known to both tools, but only strata resolves an import "
        "between them: a strata resolver/parser bug or a grimp miss; read the line.",
    ),
    "strata-missing": (
        False,
        "Both modules are known to both tools, but only grimp finds an import between "
        "them: strata failed to see or resolve this statement; read the line.",
    ),
}


@dataclass
class StrataView:
    """The part of strata's bundle that concerns one package, by dotted name."""

    root: str
    modules: dict[str, dict]  # dotted name -> node
    edges: dict[tuple[str, str], dict]  # (importer, imported) -> edge
    skipped: set[str] = field(default_factory=set)  # repo-relative paths
    # importer -> top-level names of repo modules outside the package it imports
    # (internal to strata, external to grimp's graph of the package)
    outside: dict[str, set[str]] = field(default_factory=dict)


def in_package(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def run_strata(strata: str, root: str, out_dir: str) -> str:
    """Index `root` with strata into `out_dir`; returns the bundle.json path."""
    cmd = [strata, "index", root, "--out", out_dir, "--json"]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"strata failed ({done.returncode}): {' '.join(cmd)}\n{done.stderr}")
    return os.path.join(out_dir, "bundle.json")


def load_strata(bundle_path: str, root: str, package: str) -> StrataView:
    with open(bundle_path, encoding="utf-8") as f:
        bundle = json.load(f)
    nodes = bundle["nodes"]
    modules = {n["module"]: n for n in nodes.values() if in_package(n["module"], package)}
    edges, outside = {}, {}
    for e in bundle["edges"]:
        pair = (nodes[e["src"]]["module"], nodes[e["dst"]]["module"])
        if in_package(pair[0], package) and in_package(pair[1], package):
            edges[pair] = e
        elif in_package(pair[0], package):
            outside.setdefault(pair[0], set()).add(pair[1].split(".")[0])
    skipped = {s["path"] for s in bundle["meta"].get("skipped_files", [])}
    return StrataView(root=root, modules=modules, edges=edges, skipped=skipped, outside=outside)


def build_grimp(package: str, source_dir: str, exclude_type_checking: bool = False,
                external: bool = False):
    """grimp's graph of `package`, imported from `source_dir` (first on sys.path)."""
    source_dir = os.path.abspath(source_dir)
    if sys.path[0] != source_dir:
        sys.path.insert(0, source_dir)
    origin = importlib.util.find_spec(package).origin or ""
    if not os.path.abspath(origin).startswith(source_dir + os.sep):
        sys.exit(f"grimp would read {package} from {origin}, not from {source_dir}")
    return grimp.build_graph(
        package,
        include_external_packages=external,
        exclude_type_checking_imports=exclude_type_checking,
        cache_dir=None,
    )


def grimp_edges(graph) -> set[tuple[str, str]]:
    return {(m, d) for m in graph.modules for d in graph.find_modules_directly_imported_by(m)}


def is_in_namespace_folder(root: str, node: dict) -> bool:
    """True when a folder between the module's file and its top package lacks __init__.py."""
    path = os.path.join(root, node["id"])
    levels = node["module"].count(".") + (1 if node["is_package"] else 0)
    folder = os.path.dirname(path)
    for _ in range(levels):
        if not os.path.exists(os.path.join(folder, "__init__.py")):
            return True
        folder = os.path.dirname(folder)
    return False


def has_dotted_folder(node: dict) -> bool:
    """True when a folder of the module's path has a '.' in its name (`a/b.c/d.py`)."""
    stem = node["id"].removesuffix(".py").removesuffix("/__init__")
    folders = stem.split("/")[-(node["module"].count(".") + 1):]
    return any("." in folder for folder in folders)


def module_category(name: str, sv: StrataView, graph) -> str | None:
    """Why one side lacks module `name` (None when both have it)."""
    if name not in graph.modules:
        node = sv.modules[name]
        if has_dotted_folder(node):
            return "dotted-folder"
        return "namespace" if is_in_namespace_folder(sv.root, node) else "unknown-to-grimp"
    if name not in sv.modules:
        guess = name.replace(".", "/")
        if any(s.endswith(guess + ".py") or s.endswith(guess + "/__init__.py") for s in sv.skipped):
            return "strata-skipped-file"
        return "unknown-to-strata"
    return None


def classify(pair, only_in: str, sv: StrataView, graph) -> str:
    """Category key (see CATEGORIES) for an edge found by one side only."""
    if pair[0] == pair[1]:
        return "self-import"
    for name in pair:
        category = module_category(name, sv, graph)
        if category:
            return category
    if only_in == "strata":
        return "strata-extra"
    if sv.modules[pair[0]].get("parse_status", "ok") != "ok":
        return "strata-partial-parse"
    return "strata-missing"


def module_differences(sv: StrataView, graph) -> dict[str, list[str]]:
    """Modules only one side has, grouped by category."""
    groups: dict[str, list[str]] = {}
    for name in sorted(set(sv.modules) ^ set(graph.modules)):
        groups.setdefault(module_category(name, sv, graph), []).append(name)
    return groups


def namespace_check(sv: StrataView, source_dir: str, package: str, namespace_modules: list[str]) -> dict:
    """Let grimp judge strata's namespace-package edges too.

    Copies the package, adds an empty __init__.py to each folder that lacks one
    (which does not change what any import statement refers to), builds grimp's
    graph of the copy and compares the edges that touch a namespace module.
    """
    if not namespace_modules:
        return {"namespace_modules": 0, "edges_both": 0, "only_strata": [], "only_grimp": []}
    with tempfile.TemporaryDirectory(prefix="strata-oracle-ns-") as tmp:
        shutil.copytree(os.path.join(source_dir, package), os.path.join(tmp, package))
        for dirpath, _, files in os.walk(os.path.join(tmp, package)):
            if any(f.endswith(".py") for f in files) and "__init__.py" not in files:
                open(os.path.join(dirpath, "__init__.py"), "w").close()
        filled = build_grimp(package, tmp)
        sys.path.remove(os.path.abspath(tmp))
    touches = lambda pair: pair[0] in namespace_modules or pair[1] in namespace_modules
    ours = {p for p in sv.edges if touches(p)}
    theirs = {p for p in grimp_edges(filled) if touches(p) and p[0] != p[1]}
    return {"namespace_modules": len(namespace_modules), "edges_both": len(ours & theirs),
            "only_strata": sorted(map(list, ours - theirs)), "only_grimp": sorted(map(list, theirs - ours))}


def source_line(root: str, rel_path: str, line: int) -> str:
    with open(os.path.join(root, rel_path), encoding="utf-8", errors="replace") as f:
        for number, text in enumerate(f, start=1):
            if number == line:
                return text.strip()
    return "<line not found>"


def evidence(pair, only_in: str, sv: StrataView, graph) -> list[dict]:
    """Where each side found the import: [{file, line, text}]."""
    if only_in == "strata":
        e = sv.edges[pair]
        return [{"file": e["src"], "line": e["line"], "text": source_line(sv.root, e["src"], e["line"]),
                 "type_checking": e["type_checking"], "names": e["names"]}]
    details = graph.get_import_details(importer=pair[0], imported=pair[1])
    file = sv.modules[pair[0]]["id"] if pair[0] in sv.modules else pair[0]
    return [{"file": file, "line": d["line_number"], "text": d["line_contents"]} for d in details]


def attribute_checks(sv: StrataView, graph, runtime_graph, external_graph, package: str) -> dict:
    """Line, type_checking and external-import mismatches on what both sides share."""
    bad_line, bad_tc, bad_ext = [], [], []
    shared, runtime = grimp_edges(graph), grimp_edges(runtime_graph)
    for pair, e in sorted(sv.edges.items()):
        if pair not in shared:
            continue
        lines = sorted(d["line_number"] for d in graph.get_import_details(importer=pair[0], imported=pair[1]))
        if e["line"] != lines[0]:
            bad_line.append({"edge": list(pair), "strata": e["line"], "grimp": lines})
        grimp_tc = pair not in runtime
        if grimp_tc != e["type_checking"]:
            bad_tc.append({"edge": list(pair), "strata": e["type_checking"], "grimp": grimp_tc, "grimp_lines": lines})
    for name, node in sorted(sv.modules.items()):
        if name not in external_graph.modules:
            continue
        theirs = {m for m in external_graph.find_modules_directly_imported_by(name) if not in_package(m, package)}
        ext = node["external_imports"]
        ours = set(ext["stdlib"]) | set(ext["third_party"]) | sv.outside.get(name, set())
        if theirs != ours:
            bad_ext.append({"module": name, "only_strata": sorted(ours - theirs), "only_grimp": sorted(theirs - ours)})
    return {"line": bad_line, "type_checking": bad_tc, "external_imports": bad_ext}


def compare(sv: StrataView, graph) -> dict:
    ours, theirs = set(sv.edges), grimp_edges(graph)
    both, union = ours & theirs, ours | theirs
    diffs = []
    for only_in, pairs in (("strata", ours - theirs), ("grimp", theirs - ours)):
        for pair in sorted(pairs):
            diffs.append({"edge": list(pair), "only_in": only_in,
                          "category": classify(pair, only_in, sv, graph),
                          "evidence": evidence(pair, only_in, sv, graph)})
    explained = sum(1 for d in diffs if CATEGORIES[d["category"]][0])
    pct = lambda num, den: round(100.0 * num / den, 3) if den else 100.0
    return {
        "strata_modules": len(sv.modules),
        "grimp_modules": len(graph.modules),
        "strata_edges": len(ours),
        "grimp_edges": len(theirs),
        "intersection": len(both),
        "union": len(union),
        "agreement_pct": pct(len(both), len(union)),
        "grimp_recall_pct": pct(len(both), len(theirs)),
        "explained_differences": explained,
        "agreement_excluding_explained_pct": pct(len(both), len(union) - explained),
        "module_differences": module_differences(sv, graph),
        "differences": diffs,
    }


def print_report(summary: dict) -> None:
    s = summary
    print(f"package {s['package']}  (root {s['root']})")
    print(f"modules: strata {s['strata_modules']}, grimp {s['grimp_modules']}")
    print(f"edges:   strata {s['strata_edges']}, grimp {s['grimp_edges']}, "
          f"both {s['intersection']}, union {s['union']}")
    print(f"agreement {s['agreement_pct']}% (|both|/|union|), grimp recall {s['grimp_recall_pct']}%, "
          f"excluding explained {s['agreement_excluding_explained_pct']}%")
    for key, names in s["module_differences"].items():
        print(f"modules only in {'grimp' if key in ('strata-skipped-file', 'unknown-to-strata') else 'strata'}"
              f" [{key}]: {len(names)}: {', '.join(names)}")
    by_category: dict[str, list] = {}
    for d in s["differences"]:
        by_category.setdefault(d["category"], []).append(d)
    for key, diffs in by_category.items():
        explained, why = CATEGORIES[key]
        print(f"\n[{key}] {len(diffs)} edge(s), {'explained' if explained else 'UNEXPLAINED'}: {why}")
        for d in diffs:
            print(f"  only in {d['only_in']:6} {d['edge'][0]} -> {d['edge'][1]}")
            for ev in d["evidence"]:
                print(f"      {ev['file']}:{ev['line']}: {ev['text']}")
    ns = s["namespace_check"]
    print(f"\nnamespace check (grimp on a copy with __init__.py added, {ns['namespace_modules']} "
          f"namespace modules): {ns['edges_both']} edges agree, "
          f"{len(ns['only_strata'])} only in strata, {len(ns['only_grimp'])} only in grimp")
    for only_in in ("only_strata", "only_grimp"):
        for pair in ns[only_in]:
            print(f"      {only_in}: {pair[0]} -> {pair[1]}")
    print("\nattribute checks on shared edges/modules:")
    for key, bad in s["attribute_mismatches"].items():
        print(f"  {key}: {len(bad)} mismatch(es)")
        for item in bad:
            print(f"      {json.dumps(item)}")
    print(f"\nresult: {'OK' if s['ok'] else 'FAIL'} (threshold {s['threshold_pct']}%)")


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--root", required=True, help="source tree to index (e.g. an unpacked sdist)")
    p.add_argument("--package", required=True, help="top-level package to compare, e.g. flask")
    p.add_argument("--source-dir", default=".", help="dir under --root to put on sys.path for grimp")
    p.add_argument("--strata", default="/tmp/strata-oracle-bin", help="strata binary")
    p.add_argument("--bundle", help="existing bundle.json to read instead of running strata")
    p.add_argument("--folder", default=".",
                   help="folder under --root that strata indexes (e.g. src/flask: the package folder on its own)")
    p.add_argument("--threshold", type=float, default=99.0, help="min agreement %% excluding explained")
    p.add_argument("--json", action="store_true", help="print a JSON summary instead of the text report")
    return p.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    root = os.path.abspath(args.root)
    indexed = os.path.normpath(os.path.join(root, args.folder))  # strata's module ids are relative to it
    with tempfile.TemporaryDirectory(prefix="strata-oracle-") as tmp:
        bundle = args.bundle or run_strata(args.strata, indexed, tmp)
        sv = load_strata(bundle, indexed, args.package)
    source_dir = os.path.join(root, args.source_dir)
    graph = build_grimp(args.package, source_dir)
    runtime_graph = build_grimp(args.package, source_dir, exclude_type_checking=True)
    external_graph = build_grimp(args.package, source_dir, external=True)
    summary = {"package": args.package, "root": root, **compare(sv, graph)}
    namespace_modules = summary["module_differences"].get("namespace", [])
    summary["namespace_check"] = namespace_check(sv, source_dir, args.package, namespace_modules)
    summary["attribute_mismatches"] = attribute_checks(sv, graph, runtime_graph, external_graph, args.package)
    summary["threshold_pct"] = args.threshold
    summary["ok"] = summary["agreement_excluding_explained_pct"] >= args.threshold
    if args.json:
        json.dump(summary, sys.stdout, indent=2)
        print()
    else:
        print_report(summary)
    return 0 if summary["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
