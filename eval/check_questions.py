#!/usr/bin/env python3
"""Validate an evaluation question set (eval/questions/*.jsonl) and re-derive its structural answers.

For every line it checks the keys and types required by schemas/eval-questions.schema.json
(without the jsonschema package), that every module path in `expected` (and in each
convention variant) exists under --root, and, for items whose provenance method includes
"oracle", recomputes the answer with eval/ast_oracle.py from the item's `oracle_query`
and compares it with `expected` and with each stored convention variant:

  runtime_only        the same query with runtime=true (TYPE_CHECKING-only edges left out)
  grimp_no_namespace  the graph without namespace sub-package modules (ast_oracle --no-namespace)
  extra_source_roots  the graph with the variant's `roots` added as source roots

Prints one line per mismatch and a summary; exits 1 on any mismatch or schema error.

  python3 eval/check_questions.py --questions eval/questions/flask.jsonl --root ~/.cache/strata-corpus/flask-3.1.2
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ast_oracle  # noqa: E402

CATEGORIES = {"imports_of", "imported_by", "impact", "cycles", "central", "defined_in", "exports",
              "where_handled", "behavioural", "unanswerable"}
METHODS = {"read", "oracle", "read+oracle"}
OPS = {"imports-of", "imported-by", "impact", "cycles", "cycle-of", "most-imported", "defined-in", "exports"}
CONVENTIONS = {"runtime_only", "grimp_no_namespace", "extra_source_roots"}
TOP_KEYS = {"id": str, "repo": str, "version": str, "category": str, "question": str, "answerable": bool,
            "expected": dict, "convention_sensitive": bool, "provenance": dict}
OPTIONAL_TOP = {"conventions": dict, "oracle_query": dict}
EXPECTED_KEYS = {"modules": list, "reference": str}
OPTIONAL_EXPECTED = {"number": int, "yes_no": bool, "ranking": list, "ranking_k": int, "ranking_ties": list,
                     "roots": list}


def schema_errors(item: dict, line_no: int) -> list[str]:
    """Key/type problems of one item (the schema's required shape)."""
    errs = []

    def check(obj, required, optional, where):
        for key, typ in required.items():
            if key not in obj:
                errs.append(f"{where}: missing {key}")
            elif not isinstance(obj[key], typ) or (typ is int and isinstance(obj[key], bool)):
                errs.append(f"{where}: {key} should be {typ.__name__}")
        for key, value in obj.items():
            if key not in required and key not in optional:
                errs.append(f"{where}: unexpected key {key}")
            elif key in optional and (not isinstance(value, optional[key]) or
                                      (optional[key] is int and isinstance(value, bool))):
                errs.append(f"{where}: {key} should be {optional[key].__name__}")

    check(item, TOP_KEYS, OPTIONAL_TOP, f"line {line_no}")
    if errs:
        return errs
    where = item["id"]
    if not re.fullmatch(rf"{re.escape(item['repo'])}-\d{{3}}", item["id"]):
        errs.append(f"{where}: id must be <repo>-NNN")
    if item["category"] not in CATEGORIES:
        errs.append(f"{where}: unknown category {item['category']}")
    check(item["expected"], EXPECTED_KEYS, {k: v for k, v in OPTIONAL_EXPECTED.items() if k != "roots"},
          f"{where}.expected")
    exp = item["expected"]
    if not all(isinstance(m, str) for m in exp.get("modules", [])):
        errs.append(f"{where}: expected.modules must hold strings")
    if ("ranking" in exp) != ("ranking_k" in exp):
        errs.append(f"{where}: ranking and ranking_k go together")
    if item["answerable"] == (item["category"] == "unanswerable"):
        errs.append(f"{where}: answerable must be false exactly for category unanswerable")
    if item["answerable"] == (exp.get("modules") == []):
        errs.append(f"{where}: expected.modules must be empty exactly when unanswerable")
    convs = item.get("conventions", {})
    if item["convention_sensitive"] != bool(convs):
        errs.append(f"{where}: convention_sensitive must be true exactly when conventions are given")
    for name, variant in convs.items():
        if name not in CONVENTIONS:
            errs.append(f"{where}: unknown convention {name}")
        elif isinstance(variant, dict):
            check(variant, EXPECTED_KEYS, OPTIONAL_EXPECTED, f"{where}.conventions.{name}")
            if (name == "extra_source_roots") != ("roots" in variant):
                errs.append(f"{where}: conventions.{name}: roots is required for extra_source_roots only")
        else:
            errs.append(f"{where}: conventions.{name} must be an object")
    prov = item["provenance"]
    check(prov, {"method": str}, {"read": str, "oracle": str}, f"{where}.provenance")
    method = prov.get("method")
    if method not in METHODS:
        errs.append(f"{where}: provenance.method must be one of {sorted(METHODS)}")
    if method and "read" in method and not prov.get("read"):
        errs.append(f"{where}: provenance.read is required for method {method}")
    if method and "oracle" in method:
        if not prov.get("oracle"):
            errs.append(f"{where}: provenance.oracle is required for method {method}")
        q = item.get("oracle_query")
        if not isinstance(q, dict) or q.get("op") not in OPS:
            errs.append(f"{where}: oracle_query with an op in {sorted(OPS)} is required for method {method}")
    return errs


def derive(g: ast_oracle.Graph, q: dict) -> dict:
    """The expected fields an oracle query implies (see README: eval question sets)."""
    op, rt, subject = q["op"], bool(q.get("runtime", False)), q.get("module")
    if subject is not None and subject not in g.modules and subject not in g.by_name:
        return {"modules": [], "number": 0, "yes_no": False}  # the convention has no such module
    result = ast_oracle.query(g, q)
    if op in ("imports-of", "imported-by", "impact", "defined-in"):
        return {"modules": result, "number": len(result), "yes_no": bool(result)}
    if op == "cycle-of":
        return {"modules": result or [g.find(subject)], "number": len(result), "yes_no": bool(result)}
    if op == "cycles":
        if q.get("select") == "count":
            return {"modules": sorted({m for c in result for m in c}), "number": len(result), "yes_no": bool(result)}
        largest = result[0] if result else []
        return {"modules": largest, "number": len(largest), "yes_no": bool(result)}
    if op == "most-imported":
        shown, k = result["ranking"], int(q.get("top", 10))
        return {"modules": [r["module"] for r in shown], "number": shown[0]["importers"] if shown else 0,
                "ranking": [r["module"] for r in shown[:k]], "ranking_k": k, "ranking_ties": result["ties"]}
    if op == "exports":
        return {"modules": [result["module"]], "number": len(result["names"]), "names": result["names"]}
    raise ValueError(op)


def compare(stored: dict, derived: dict, where: str) -> list[str]:
    """Mismatches between a stored expected object and a derived one (only fields stored)."""
    out = []
    if sorted(stored.get("modules", [])) != sorted(derived["modules"]):
        want, got = set(stored.get("modules", [])), set(derived["modules"])
        out.append(f"{where}: modules differ: only stored {sorted(want - got)}, only oracle {sorted(got - want)}")
    for key in ("number", "yes_no", "ranking", "ranking_k"):
        if key in stored and stored[key] != derived.get(key):
            out.append(f"{where}: {key} stored {stored[key]!r}, oracle {derived.get(key)!r}")
    if "ranking_ties" in stored or derived.get("ranking_ties"):
        norm = lambda groups: sorted(sorted(g) for g in groups or [])
        if norm(stored.get("ranking_ties")) != norm(derived.get("ranking_ties")):
            out.append(f"{where}: ranking_ties stored {stored.get('ranking_ties')!r}, "
                       f"oracle {derived.get('ranking_ties')!r}")
    for name in derived.get("names", []):
        if not re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", stored.get("reference", "")):
            out.append(f"{where}: exported name {name!r} missing from the reference")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--questions", required=True, help="JSONL file of questions")
    ap.add_argument("--root", required=True, help="the repository the questions are about")
    args = ap.parse_args(argv)
    root = os.path.abspath(args.root)
    problems, items = [], []
    with open(args.questions, encoding="utf-8") as f:
        for n, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except json.JSONDecodeError as e:
                problems.append(f"line {n}: invalid JSON: {e}")
                continue
            errs = schema_errors(item, n) if isinstance(item, dict) else [f"line {n}: not an object"]
            problems += errs
            if not errs:
                items.append(item)
    ids = [it["id"] for it in items]
    if ids != sorted(ids) or len(set(ids)) != len(ids):
        problems.append("ids must be unique and in order")
    if len({(it["repo"], it["version"]) for it in items}) > 1:
        problems.append("all items must share one repo and version")
    for it in items:
        for name, exp in [("expected", it["expected"])] + [(f"conventions.{k}", v) for k, v in
                                                            it.get("conventions", {}).items()]:
            for m in exp.get("modules", []) + exp.get("ranking", []) + sum(exp.get("ranking_ties", []), []):
                if not os.path.isfile(os.path.join(root, m)):
                    problems.append(f"{it['id']}: {name}: no such file under root: {m}")
    graphs: dict[tuple, ast_oracle.Graph] = {}

    def graph(no_namespace=False, roots=()):
        key = (no_namespace, tuple(roots))
        if key not in graphs:
            graphs[key] = ast_oracle.build_graph(root, no_namespace=no_namespace, extra_roots=tuple(roots))
        return graphs[key]

    checked = variants = 0
    mismatches: list[str] = []
    for it in items:
        if "oracle" not in it["provenance"]["method"]:
            continue
        q = it["oracle_query"]
        checked += 1
        mismatches += compare(it["expected"], derive(graph(), q), f"{it['id']} expected")
        for name, variant in it.get("conventions", {}).items():
            variants += 1
            if name == "runtime_only":
                derived = derive(graph(), dict(q, runtime=True))
            elif name == "grimp_no_namespace":
                derived = derive(graph(no_namespace=True), q)
            else:
                derived = derive(graph(roots=variant["roots"]), q)
            mismatches += compare(variant, derived, f"{it['id']} conventions.{name}")
    for p in problems:
        print("ERROR", p)
    for p in mismatches:
        print("MISMATCH", p)
    by_cat: dict[str, int] = {}
    for it in items:
        by_cat[it["category"]] = by_cat.get(it["category"], 0) + 1
    print(f"{args.questions}: {len(items)} items ({', '.join(f'{k} {v}' for k, v in sorted(by_cat.items()))}); "
          f"{checked} re-derived with ast_oracle, {variants} convention variants; "
          f"{len(problems)} schema/path error(s), {len(mismatches)} mismatch(es)")
    return 1 if problems or mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
