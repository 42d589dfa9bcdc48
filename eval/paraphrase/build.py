#!/usr/bin/env python3
"""Build the paraphrase suite's questions: every phrasing template filled in once per target repository.

Reads ``phrasings-dev.jsonl``, ``phrasings-dev2.jsonl``, ``phrasings-dev3.jsonl``, ``phrasings-dev4.jsonl``, ``phrasings-dev5.jsonl``, ``phrasings-dev6.jsonl``, ``phrasings-dev7.jsonl``, ``phrasings-dev8.jsonl``, ``phrasings-dev9.jsonl``, ``phrasings-dev10.jsonl``, ``phrasings-dev11.jsonl``, ``phrasings-dev12.jsonl``, ``phrasings-dev13.jsonl``, ``phrasings-dev14.jsonl``, ``phrasings-dev15.jsonl``, ``phrasings-dev16.jsonl``, ``phrasings-dev17.jsonl``, ``phrasings-dev18.jsonl``, ``phrasings-dev19.jsonl`` and ``phrasings-gen.jsonl`` (lines ``{"type", "template"}`` with slots
``{A}``/``{B}`` for modules, ``{S}`` for a class/function name and ``{K}`` for a small number) and
writes ``questions-dev.jsonl`` and ``questions-gen.jsonl``: one line per template and target repo with
the filled-in question, the slot values and the expected answer.  Ground truth comes only from the
independent oracle ``eval/ast_oracle.py``; module ids are repo-relative POSIX paths, as the oracle's.
Slot values are drawn with ``random.Random`` seeded by a SHA-256 of type, template and repo (stable
across runs and machines, unlike ``hash()``), so the output is deterministic (sorted keys, one question
a line) and can be committed.

Large module sets (over ``MAX_LISTED`` entries) are stored as ``{"n": size, "sha256": digest}`` of the
sorted ids joined by newlines, and the edges a path may use as 8-hex-digit SHA-1 prefixes of
``"importer\\timported"`` when there are more than ``MAX_LISTED`` of them; ``score.py`` understands both.

Usage: build.py --corpus DIR [--out-dir eval/paraphrase] [--phrasings-dir eval/paraphrase]
       build.py --corpus DIR --list-targets      (name<TAB>absolute path, for run.sh)
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import os
import random
import re
import sys
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO_ROOT, "eval"))
import ast_oracle as oracle  # noqa: E402  (the independent oracle: the only source of ground truth)

HALVES = ("dev", "dev2", "dev3", "dev4", "dev5", "dev6", "dev7", "dev8", "dev9", "dev10", "dev11", "dev12", "dev13", "dev14", "dev15", "dev16", "dev17", "dev18", "dev19", "gen")
MAX_LISTED = 50
# (name, path: relative to the strata checkout, or "{corpus}/..." under --corpus)
TARGETS = [
    ("shop", "tests/fixtures/repos/shop"),
    ("type_checking_cycle", "tests/fixtures/repos/type_checking_cycle"),
    ("flask", "{corpus}/flask-3.1.2"),
    ("django", "{corpus}/django-5.2.19"),
]
TYPES = {
    "imports_of", "importers_of", "importers_of_runtime", "dependents", "dependents_runtime", "dependencies",
    "count_importers", "count_imports", "count_dependents", "depends_on_yn", "imports_directly_yn", "path",
    "in_cycle_yn", "cycle_members", "count_cycles", "largest_cycle", "most_imported", "most_imported_topk",
    "most_imported_no_tests", "leaves", "defined_in", "exports", "importers_each", "yn_then_list",
    "not_structural",
}
SLOT_RE = re.compile(r"\{([ABSK])\}")
TEST_DIRS = {"tests", "test", "testing"}


@functools.lru_cache(maxsize=None)
def is_test(path: str) -> bool:
    """A test module: a folder named tests/test/testing, or test_*.py, *_test.py, conftest.py."""
    *folders, name = path.split("/")
    return (any(f in TEST_DIRS for f in folders) or name.startswith("test_") or name.endswith("_test.py")
            or name == "conftest.py")


def set_spec(ids) -> list | dict:
    """A module set as the scorer reads it: the sorted list, or its size and digest when large."""
    ids = sorted(set(ids))
    if len(ids) <= MAX_LISTED:
        return ids
    return {"n": len(ids), "sha256": hashlib.sha256("\n".join(ids).encode()).hexdigest()}


def edge_hash(a: str, b: str) -> str:
    return hashlib.sha1(f"{a}\t{b}".encode()).hexdigest()[:8]


def reach(adj: dict, start: str) -> set[str]:
    """Modules reachable from start along adj, start excluded unless it lies on a cycle back to itself."""
    seen, todo = set(), [start]
    while todo:
        for n in adj.get(todo.pop(), ()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


class Repo:
    """The oracle's graph of one target with the derived facts slot choice and expectations need.

    The helpers below read the oracle's own adjacency (``Graph.out``/``Graph.into``) once, so screening
    thousands of candidate modules stays fast; every expected answer is then taken from the oracle's
    query functions (``imported_by``, ``impact``, ...) and checked against these helpers."""

    def __init__(self, name: str, root: str):
        self.name, self.root = name, root
        self.g = g = oracle.build_graph(root)
        self.paths = sorted(g.modules)
        self.named = [p for p in self.paths if g.modules[p].name]  # modules a question can mention
        self.named_set = set(self.named)
        self.out, self.into = g.out(), g.into()
        self.out_rt, self.into_rt = g.out(True), g.into(True)
        self.cycles = oracle.cycles(g)
        self.cycle_of = {p: c for c in self.cycles for p in c}
        self.src_layout = any(p.startswith("src/") and (g.modules[p].name or "").split(".")[0] != "src"
                              for p in self.named)
        short = Counter(g.modules[p].name.rsplit(".", 1)[-1] for p in self.named)
        self.unique_short = {s for s, n in short.items() if n == 1}
        self.name_parts = {part.lower() for p in self.named for part in g.modules[p].name.split(".")}
        self._deps, self._impact, self._exports, self._defs = {}, {}, {}, None

    def deps(self, p: str) -> set[str]:
        """Every module p reaches along imports (all edges, BFS over Graph.out()), p itself excluded."""
        if p not in self._deps:
            self._deps[p] = reach(self.out, p) - {p}
        return self._deps[p]

    def impact(self, p: str, runtime: bool = False) -> set[str]:
        """Transitive dependents (as oracle.impact)."""
        if (p, runtime) not in self._impact:
            self._impact[p, runtime] = reach(self.into_rt if runtime else self.into, p) - {p}
        return self._impact[p, runtime]

    def importers(self, p: str, runtime: bool = False) -> list[str]:
        return sorted((self.into_rt if runtime else self.into).get(p, ()))

    def imports(self, p: str) -> list[str]:
        return sorted(self.out.get(p, ()))

    def exports(self, p: str) -> list[str]:
        if p not in self._exports:
            self._exports[p] = oracle.exports(self.g, p)["names"]
        return self._exports[p]

    def short(self, p: str) -> str:
        return (self.g.modules[p].name or p).rsplit(".", 1)[-1]

    def ranking(self, no_tests: bool = False) -> dict[str, int]:
        """Direct importer count of every module with at least one importer (from oracle.most_imported)."""
        if not no_tests:
            ranked = oracle.most_imported(self.g, top=len(self.g.modules) + 1)["ranking"]
            return {row["module"]: row["importers"] for row in ranked}
        counts = {}
        for m, importers in self.into.items():
            n = sum(1 for i in importers if not is_test(i))
            if n and not is_test(m):
                counts[m] = n
        return counts

    def unique_defs(self) -> dict[str, str]:
        """{name: module} for public top-level class/function names defined in exactly one module, not also
        a method name of some class (which would make "where is it defined" ambiguous) and not (in any case)
        a part of a module name."""
        if self._defs is None:
            where, members = defaultdict(set), set()
            for p, m in self.g.modules.items():
                for d in m.defs:
                    if "." in d:
                        members.add(d.split(".", 1)[1])
                    else:
                        where[d].add(p)
            self._defs = {n: min(ps) for n, ps in sorted(where.items())
                          if len(ps) == 1 and not n.startswith("_") and n not in members
                          and n.lower() not in self.name_parts}
        return self._defs


def template_words(template: str) -> set[str]:
    words = set(re.findall(r"[a-z]+", SLOT_RE.sub(" ", template).lower()))
    return words | {w[:-1] for w in words if w.endswith("s")}


def clashes(word: str, words: set[str]) -> bool:
    w = word.lower()
    return w in words or w.rstrip("s") in words


class Picker:
    """Slot choice for one template on one repo: one seeded generator, candidate preferences."""

    def __init__(self, repo: Repo, qtype: str, template: str):
        self.repo, self.words = repo, template_words(template)
        key = f"{qtype}\n{template}\n{repo.name}".encode()
        self.rng = random.Random(int.from_bytes(hashlib.sha256(key).digest()[:8], "big"))

    def choose(self, cands, *prefs):
        """A random candidate meeting as many preferences as possible: the given ones first, then not a
        test module, then a short name that is not a word of the template. Each preference filters the
        candidates only when some of them meet it."""
        cands = sorted(cands)
        if not cands:
            return None
        for pred in prefs + (lambda p: not is_test(p), lambda p: not clashes(self.repo.short(p), self.words)):
            kept = [c for c in cands if pred(c)]
            if kept:
                cands = kept
        return self.rng.choice(cands)

    def likely(self, p: float = 0.85) -> bool:
        return self.rng.random() < p

    def mention(self, path: str, template: str, slot: str) -> tuple[str, str]:
        """(text for the slot, form label): dotted name, path, path without src/ (src layout), or the short
        name when unique; in backticks about a third of the time."""
        repo = self.repo
        name = repo.g.modules[path].name
        forms = [("dotted", name), ("path", path)]
        if repo.src_layout and path.startswith("src/") and name.split(".")[0] != "src":
            forms.append(("nosrc", path[len("src/"):]))
        if repo.short(path) in repo.unique_short and repo.short(path) != name:
            forms.append(("short", repo.short(path)))
        label, text = self.rng.choice(forms)
        if f"`{{{slot}}}`" not in template and self.rng.random() < 1 / 3:
            return f"`{text}`", label + "+backticks"
        return text, label


def build_one(repo: Repo, qtype: str, template: str, ordinal: int, repo_index: int, notes: Counter):
    """(question, slots, mention forms, expected) for one template on one repo."""
    pick = Picker(repo, qtype, template)
    g, named = repo.g, repo.named
    slots_needed = set(SLOT_RE.findall(template))
    want_yes = (ordinal + repo_index) % 2 == 0  # yes/no types: half yes, half no, per repo and per template
    runtime = qtype.endswith("_runtime")
    slots, expected = {}, {}

    def note(text: str) -> None:
        notes[text] += 1

    if qtype in ("imports_of", "count_imports", "dependencies"):
        nonempty = pick.likely()
        a = pick.choose(named, lambda p: bool(repo.imports(p)) == nonempty)
        slots["A"] = a
        direct = oracle.imports_of(g, a)
        assert direct == repo.imports(a)
        if qtype == "imports_of":
            expected = {"modules": set_spec(direct)}
        elif qtype == "count_imports":
            expected = {"count": len(direct)}
        else:
            expected = {"modules": set_spec(repo.deps(a))}

    elif qtype in ("importers_of", "importers_of_runtime", "count_importers", "yn_then_list"):
        if runtime:
            differs = [p for p in named if repo.importers(p, True) != repo.importers(p)]
            if not differs:
                note("runtime answer never differs from the all-edges one")
            nonempty = pick.likely()
            a = pick.choose(differs or named, lambda p: bool(repo.importers(p, True)) == nonempty)
        elif qtype == "yn_then_list":
            a = pick.choose(named, lambda p: bool(repo.importers(p)) == want_yes)
            if bool(repo.importers(a)) != want_yes:
                note(f"no module with {'some' if want_yes else 'no'} importers: answer flipped")
        else:
            nonempty = pick.likely()
            a = pick.choose(named, lambda p: bool(repo.importers(p)) == nonempty)
        slots["A"] = a
        importers = oracle.imported_by(g, a, runtime)
        assert importers == repo.importers(a, runtime)
        if qtype == "count_importers":
            expected = {"count": len(importers)}
        elif qtype == "yn_then_list":
            expected = {"yes": bool(importers), "modules": set_spec(importers)}
        else:
            expected = {"modules": set_spec(importers)}

    elif qtype in ("dependents", "dependents_runtime", "count_dependents"):
        nonempty = pick.likely()
        if runtime:
            differs = [p for p in named if repo.impact(p, True) != repo.impact(p)]
            if not differs:
                note("runtime answer never differs from the all-edges one")
            a = pick.choose(differs or named, lambda p: bool(repo.impact(p, True)) == nonempty)
        else:
            a = pick.choose(named, lambda p: bool(repo.importers(p)) == nonempty)
        slots["A"] = a
        dependents = oracle.impact(g, a, runtime)
        assert set(dependents) == repo.impact(a, runtime)
        expected = {"count": len(dependents)} if qtype == "count_dependents" else {"modules": set_spec(dependents)}

    elif qtype in ("depends_on_yn", "imports_directly_yn"):
        direct = qtype == "imports_directly_yn"
        reached = (lambda p: set(repo.imports(p))) if direct else repo.deps
        if want_yes:
            a = pick.choose(named, lambda p: bool(reached(p) & repo.named_set))
            b = pick.choose(reached(a) & repo.named_set)
        else:
            a = pick.choose(named, lambda p: len(reached(p) & repo.named_set) < len(named) - 1)
            others = [q for q in named if q != a and q not in reached(a)]
            # a harder "no": an indirect dependency for the direct question, a dependent for the transitive one
            hard = repo.deps(a) if direct else repo.impact(a)
            harder = pick.likely(0.5)
            b = pick.choose(others, lambda q: (q in hard) == harder)
        if b is None:
            b = pick.choose([q for q in named if q != a]) or a
        yes = b in (oracle.imports_of(g, a) if direct else repo.deps(a))
        if yes != want_yes:
            note(f"no {'yes' if want_yes else 'no'} pair: answer flipped")
        slots["A"], slots["B"] = a, b
        expected = {"yes": yes}

    elif qtype == "path":
        a = pick.choose(named, lambda p: bool(repo.deps(p) & repo.named_set))
        indirect = pick.likely(0.7)
        b = pick.choose(repo.deps(a) & repo.named_set, lambda q: (q not in repo.out.get(a, ())) == indirect)
        if b is None:
            note("no reachable pair")
            b = pick.choose([q for q in named if q != a]) or a
        slots["A"], slots["B"] = a, b
        if b in repo.deps(a):
            forward, backward = repo.deps(a) | {a}, repo.impact(b) | {b}
            edges = sorted((u, v) for (u, v) in g.edges if u in forward and v in backward)
            if len(edges) <= MAX_LISTED:
                expected = {"yes": True, "edges": [list(e) for e in edges]}
            else:
                expected = {"yes": True, "edge_hashes": sorted({edge_hash(u, v) for u, v in edges})}
        else:
            expected = {"yes": False}

    elif qtype in ("in_cycle_yn", "cycle_members"):
        in_cycle = want_yes if qtype == "in_cycle_yn" else True
        cyclic = [c for c in repo.cycles if any(p in repo.named_set for p in c)]
        if in_cycle and cyclic:
            cycle = pick.rng.choice(cyclic)  # a cycle first, so a big one does not crowd out the small ones
            a = pick.choose([p for p in cycle if p in repo.named_set])
        else:
            a = pick.choose(named, lambda p: (p in repo.cycle_of) == in_cycle,
                            lambda p: bool(repo.importers(p)) and bool(repo.imports(p)))
        members = oracle.cycle_of(g, a)
        if bool(members) != in_cycle:
            note(f"no module {'in' if in_cycle else 'outside'} a cycle" + (": answer flipped"
                                                                            if qtype == "in_cycle_yn" else ""))
        slots["A"] = a
        expected = {"yes": bool(members)} if qtype == "in_cycle_yn" else {"modules": set_spec(members)}

    elif qtype == "count_cycles":
        expected = {"count": len(oracle.cycles(g))}

    elif qtype == "largest_cycle":
        comps = oracle.cycles(g)
        size = len(comps[0]) if comps else 0
        if not comps:
            note("no cycles")
        expected = {"cycles": [set_spec(c) for c in comps if len(c) == size]}

    elif qtype in ("most_imported", "most_imported_no_tests"):
        counts = repo.ranking(no_tests=qtype.endswith("no_tests"))
        top = max(counts.values(), default=0)
        expected = {"max": top, "modules": sorted(m for m, n in counts.items() if n == top)}

    elif qtype == "most_imported_topk":
        k = pick.rng.choice((3, 5))
        slots["K"] = k
        counts = repo.ranking()
        top_counts = sorted(counts.values(), reverse=True)[:k]
        if len(top_counts) < k:
            note("fewer imported modules than K")
        cutoff = top_counts[-1] if top_counts else 0
        expected = {"k": k, "top_counts": top_counts,
                    "counts": {m: n for m, n in sorted(counts.items()) if n >= cutoff}}

    elif qtype == "leaves":
        expected = {"modules": set_spec(p for p in repo.paths if not repo.out.get(p))}

    elif qtype == "defined_in":
        names = repo.unique_defs()
        fitting = [n for n in names if not clashes(n, pick.words)] or list(names)
        outside = [n for n in fitting if not is_test(names[n])]
        s = pick.rng.choice(outside or fitting) if fitting else None
        if s is None:
            note("no uniquely defined name")
            s = "missing"
        slots["S"] = s
        expected = {"modules": oracle.defined_in(g, s)}
        assert len(expected["modules"]) == 1 or s == "missing"

    elif qtype == "exports":
        a = pick.choose(named, lambda p: bool(repo.exports(p)))
        slots["A"] = a
        expected = {"names": sorted(set(oracle.exports(g, a)["names"]))}

    elif qtype == "importers_each":
        nonempty_a, nonempty_b = pick.likely(), pick.likely()
        a = pick.choose(named, lambda p: bool(repo.importers(p)) == nonempty_a)
        b = pick.choose([p for p in named if p != a], lambda p: bool(repo.importers(p)) == nonempty_b,
                        lambda p: repo.importers(p) != repo.importers(a))
        if b is None:
            note("only one module")
            b = a
        slots["A"], slots["B"] = a, b
        expected = {"A": set_spec(oracle.imported_by(g, a)), "B": set_spec(oracle.imported_by(g, b))}

    elif qtype == "not_structural":
        if slots_needed & {"A", "B"}:
            a = pick.choose(named, lambda p: bool(repo.imports(p)) or "B" not in slots_needed)
            slots["A"] = a
            if "B" in slots_needed:
                slots["B"] = pick.choose(set(repo.imports(a)) & repo.named_set) or pick.choose(
                    [p for p in named if p != a]) or a
        if "S" in slots_needed:
            names = [n for n in repo.unique_defs() if not clashes(n, pick.words)] or list(repo.unique_defs()) or [
                "missing"]
            slots["S"] = pick.rng.choice(names)
        expected = {"structural": False}

    else:
        raise SystemExit(f"unknown question type {qtype!r}")

    for s in sorted(slots_needed - set(slots)):  # a template with a slot its type does not use
        note(f"template slot {{{s}}} unused by the type")
        if s in "AB":
            slots[s] = pick.choose(named)
        elif s == "S":
            slots[s] = pick.rng.choice(list(repo.unique_defs()) or ["missing"])
        else:
            slots[s] = pick.rng.choice((3, 5))
    for s in sorted(set(slots) - slots_needed):
        note(f"type needs {{{s}}} but the template lacks it")

    question, forms = template, {}
    for s in sorted(slots_needed):
        text = str(slots[s])
        if s in "AB":
            text, forms[s] = pick.mention(slots[s], template, s)
        question = question.replace(f"{{{s}}}", text)
    return question, slots, forms, expected


def target_paths(corpus: str) -> list[tuple[str, str]]:
    return [(name, os.path.abspath(path.format(corpus=corpus) if "{corpus}" in path
                                   else os.path.join(REPO_ROOT, path))) for name, path in TARGETS]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", required=True, help="folder holding flask-3.1.2/ and django-5.2.19/ (sdist roots)")
    ap.add_argument("--out-dir", default=HERE, help="where questions-*.jsonl are written (default: this folder)")
    ap.add_argument("--phrasings-dir", default=HERE, help="where phrasings-*.jsonl are read (default: this folder)")
    ap.add_argument("--list-targets", action="store_true", help="print name<TAB>path of each target and exit")
    args = ap.parse_args(argv)
    targets = target_paths(args.corpus)
    if args.list_targets:
        for name, path in targets:
            print(f"{name}\t{path}")
        return 0
    for name, path in targets:
        if not os.path.isdir(path):
            raise SystemExit(f"missing target {name}: {path}")
    repos = [Repo(name, path) for name, path in targets]

    counts: dict[str, Counter] = {}
    notes: dict[tuple[str, str, str], Counter] = defaultdict(Counter)
    for half in HALVES:
        with open(os.path.join(args.phrasings_dir, f"phrasings-{half}.jsonl"), encoding="utf-8") as f:
            phrasings = [json.loads(line) for line in f if line.strip()]
        ordinals: Counter = Counter()
        lines, counts[half] = [], Counter()
        for entry in phrasings:
            qtype, template = entry["type"], entry["template"]
            if qtype not in TYPES:
                raise SystemExit(f"{half}: unknown question type {qtype!r}")
            ordinals[qtype] += 1
            n = ordinals[qtype]
            for repo_index, repo in enumerate(repos):
                note = notes[half, qtype, repo.name]
                question, slots, forms, expected = build_one(repo, qtype, template, n, repo_index, note)
                row = {"id": f"{half}-{qtype}-{n}-{repo.name}", "half": half, "type": qtype, "repo": repo.name,
                       "question": question, "template": template, "slots": slots, "forms": forms,
                       "expected": expected}
                lines.append(json.dumps(row, sort_keys=True, ensure_ascii=False))
                counts[half][qtype, repo.name] += 1
        out = os.path.join(args.out_dir, f"questions-{half}.jsonl")
        with open(out, "w", encoding="utf-8", newline="\n") as f:
            f.write("\n".join(lines) + "\n")
        print(f"wrote {out}: {len(lines)} questions")

    names = [r.name for r in repos]
    for half in HALVES:
        print(f"\n{half}: questions per type and repo")
        print(f"{'type':26}" + "".join(f"{n:>21}" for n in names) + f"{'total':>7}")
        for qtype in sorted({t for t, _ in counts[half]}):
            row = [counts[half][qtype, n] for n in names]
            print(f"{qtype:26}" + "".join(f"{c:>21}" for c in row) + f"{sum(row):>7}")
        print(f"{'total':26}" + "".join(f"{sum(c for (t, r), c in counts[half].items() if r == n):>21}"
                                       for n in names) + f"{sum(counts[half].values()):>7}")
    shown = [(k, v) for k, v in sorted(notes.items()) if v]
    if shown:
        print("\nslot choices that could not follow the preferences (questions affected):")
        for (half, qtype, repo), c in shown:
            print(f"  {half} {qtype} {repo}: " + "; ".join(f"{k} ({n})" for k, n in sorted(c.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
