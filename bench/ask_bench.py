"""Helper for bench/ask.sh (Python 3.11, standard library only).

  ask_bench.py validate QUESTIONS.jsonl ROOT
        Check a question set against the corpus ROOT (the folder holding the package directory):
        every line a JSON object with the expected fields, unique ids and questions, categories known,
        `answerable` consistent with the category, every expected module an existing .py file under
        ROOT. Structural questions carrying a `subject` are also checked against a stdlib `ast` scan
        of ROOT (grimp's edge convention, the one strata follows): `imports_of` / `imported_by` must
        list exactly the scanned edges, `defined_in` the modules defining that top-level name.

  ask_bench.py run --strata BIN --runs R --out RESULTS.jsonl [--ask-arg ARG ...]
                   --set NAME INDEX_DIR QUESTIONS.jsonl [--set ...]
        Run every question of every set as its own `BIN ask --index INDEX_DIR --format json Q`
        process under `/usr/bin/time -f %M`, R times over the whole list, and write one JSON line per
        invocation: wall ms (measured here around the process), peak RSS KB, exit code, mode, the
        ranked distinct modules, the answer.

  ask_bench.py report RESULTS.jsonl --index-tsv INDEX.tsv [--json OUT] [--goal-p50-ms 100]
        Print the markdown tables (index, latency, quality); with --json also dump every per-question
        result with its scores. INDEX.tsv rows: name, wall_ns, rss_kb, report json file, questions.

Scoring (per invocation, then averaged over the runs):
  ranked modules  the distinct modules of `citations` (order kept) when mode is "structural", else the
                  distinct `module`s of `context` in rank order (all kinds, as the contract lists them);
  hit@5           any expected module among the first 5 ranked modules (answerable questions only);
  recall@5        share of the expected modules among the first 5;
  false-decline   answerable question answered with mode "declined";
  decline         unanswerable question answered with mode "declined".
A non-zero exit or unparsable output counts as mode "error": a miss, and not a decline.
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

CATEGORIES = ("behavioural", "defined_in", "imports_of", "imported_by", "unanswerable")
STRUCTURAL = ("defined_in", "imports_of", "imported_by")
FIELDS = {"id": str, "category": str, "question": str, "expected_modules": list, "answerable": bool,
          "provenance": str}
K = 5


def load_questions(path: str | Path) -> list[dict]:
    questions = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except json.JSONDecodeError as error:
                raise SystemExit(f"{path}:{number}: not JSON: {error}") from None
            if not isinstance(item, dict):
                raise SystemExit(f"{path}:{number}: not a JSON object")
            item["_line"] = number
            questions.append(item)
    return questions


# ---------------------------------------------------------------------------------------------------
# validate


class Scan:
    """Modules of a source tree and their internal import edges, the grimp way: regular packages only
    (folders with __init__.py), every import statement counts (TYPE_CHECKING, function-level, try),
    `from P import x` -> P.x when that is a module, else P; `import a.b.c` -> longest module prefix;
    self-edges dropped."""

    def __init__(self, root: Path, package: str):
        self.root = root
        self.modules: dict[str, Path] = {}  # dotted name -> file
        self._walk(root / package, package)
        self._edges: dict[str, set[str]] | None = None
        self._trees: dict[str, ast.Module] = {}

    def tree(self, module: str) -> ast.Module:
        if module not in self._trees:
            file = self.modules[module]
            self._trees[module] = ast.parse(file.read_bytes(), filename=str(file))
        return self._trees[module]

    def _walk(self, folder: Path, dotted: str) -> None:
        if not (folder / "__init__.py").is_file():
            return
        self.modules[dotted] = folder / "__init__.py"
        for entry in sorted(folder.iterdir()):
            if entry.is_dir():
                self._walk(entry, f"{dotted}.{entry.name}")
            elif entry.suffix == ".py" and entry.name != "__init__.py":
                self.modules[f"{dotted}.{entry.stem}"] = entry

    def path(self, dotted: str) -> str:
        return self.modules[dotted].relative_to(self.root).as_posix()

    def dotted(self, path: str) -> str | None:
        for name, file in self.modules.items():
            if file.relative_to(self.root).as_posix() == path:
                return name
        return None

    def _longest(self, dotted: str) -> str | None:
        parts = dotted.split(".")
        for end in range(len(parts), 0, -1):
            candidate = ".".join(parts[:end])
            if candidate in self.modules:
                return candidate
        return None

    def imports(self, module: str) -> set[str]:
        tree = self.tree(module)
        package = module if self.modules[module].name == "__init__.py" else module.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    target = self._longest(alias.name)
                    if target:
                        found.add(target)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    parts = package.split(".")
                    if node.level - 1 >= len(parts):
                        continue
                    base = ".".join(parts[: len(parts) - (node.level - 1)])
                    if node.module:
                        base = f"{base}.{node.module}"
                else:
                    base = node.module or ""
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    target = full if full in self.modules else self._longest(base)
                    if target:
                        found.add(target)
        found.discard(module)
        return found

    def importers(self, module: str) -> set[str]:
        if self._edges is None:
            self._edges = {name: self.imports(name) for name in self.modules}
        return {src for src, dsts in self._edges.items() if module in dsts}

    def definers(self, symbol: str) -> set[str]:
        found = set()
        for name in self.modules:
            for node in self.tree(name).body:
                if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == symbol:
                    found.add(name)
        return found


def validate(args: argparse.Namespace) -> int:
    root = Path(args.root)
    repo = Path(args.questions).stem
    questions = load_questions(args.questions)
    errors: list[str] = []
    seen_ids: set[str] = set()
    seen_questions: set[str] = set()
    scan: Scan | None = None

    def err(item: dict, message: str) -> None:
        errors.append(f"{args.questions}:{item['_line']} ({item.get('id', '?')}): {message}")

    for item in questions:
        for field, kind in FIELDS.items():
            if not isinstance(item.get(field), kind):
                err(item, f"field `{field}` missing or not a {kind.__name__}")
        if errors and errors[-1].startswith(f"{args.questions}:{item['_line']} "):
            continue
        if not item["id"].startswith(f"{repo}-"):
            err(item, f"id should start with `{repo}-`")
        if item["id"] in seen_ids:
            err(item, "duplicate id")
        if item["question"].strip().lower() in seen_questions:
            err(item, "duplicate question")
        seen_ids.add(item["id"])
        seen_questions.add(item["question"].strip().lower())
        if item["category"] not in CATEGORIES:
            err(item, f"unknown category `{item['category']}`")
        unanswerable = item["category"] == "unanswerable"
        if item["answerable"] == unanswerable:
            err(item, "`answerable` must be false exactly for the `unanswerable` category")
        expected = item["expected_modules"]
        if unanswerable and expected:
            err(item, "an unanswerable question has no expected modules")
        if not unanswerable and not expected:
            err(item, "an answerable question needs expected modules")
        if len(set(expected)) != len(expected):
            err(item, "duplicate expected module")
        for module in expected:
            if not isinstance(module, str) or not module.endswith(".py") or module.startswith(("/", "./")):
                err(item, f"expected module {module!r} is not a repo-relative .py path")
            elif not (root / module).is_file():
                err(item, f"expected module {module} does not exist under {root}")
        if item["category"] in STRUCTURAL and "subject" in item:
            if scan is None:
                package = expected[0].split("/")[0] if expected else repo
                scan = Scan(root, package)
            check_structural(item, scan, err)
    counts = Counter(item.get("category") for item in questions)
    summary = ", ".join(f"{c} {counts[c]}" for c in CATEGORIES if counts[c])
    checked = sum(1 for q in questions if q.get("category") in STRUCTURAL and "subject" in q)
    for line in errors:
        print(line, file=sys.stderr)
    status = "FAILED" if errors else "ok"
    print(f"{args.questions}: {len(questions)} questions ({summary}); "
          f"{checked} structural answers re-derived with ast; {status}", file=sys.stderr)
    return 1 if errors else 0


def check_structural(item: dict, scan: Scan, err) -> None:
    subject, expected = item["subject"], set(item["expected_modules"])
    if item["category"] == "defined_in":
        actual = {scan.path(m) for m in scan.definers(subject)}
        what = f"top-level definitions of {subject}"
    else:
        module = scan.dotted(subject)
        if module is None:
            err(item, f"subject {subject} is not a module of the scanned package")
            return
        edges = scan.imports(module) if item["category"] == "imports_of" else scan.importers(module)
        actual = {scan.path(m) for m in edges}
        what = f"{item['category']} {subject} by ast scan"
    if actual != expected:
        err(item, f"{what}: found but not expected {sorted(actual - expected)}, expected but not found {sorted(expected - actual)}")


# ---------------------------------------------------------------------------------------------------
# run


def distinct_modules(answer: dict) -> tuple[str, list[str]]:
    if answer.get("mode") == "structural":
        source, items = "citations", answer.get("citations") or []
        names = [c.get("path") or c.get("id") or "" for c in items]
    else:
        source, items = "context", answer.get("context") or []
        names = [c.get("module") or "" for c in items]
    ranked: list[str] = []
    for name in names:
        name = name.removeprefix("./")
        if name and name not in ranked:
            ranked.append(name)
    return source, ranked


def run(args: argparse.Namespace) -> int:
    sets = [(name, index, load_questions(path)) for name, index, path in args.set]
    total = args.runs * sum(len(qs) for _, _, qs in sets)
    done = 0
    with open(args.out, "w", encoding="utf-8") as out, tempfile.TemporaryDirectory() as tmp:
        rss_file = os.path.join(tmp, "rss")
        for run_number in range(1, args.runs + 1):
            for name, index, questions in sets:
                for item in questions:
                    command = ["/usr/bin/time", "-f", "%M", "-o", rss_file, args.strata, "ask",
                               "--index", index, "--format", "json", *args.ask_arg, item["question"]]
                    started = time.perf_counter_ns()
                    proc = subprocess.run(command, capture_output=True, text=True)
                    wall_ns = time.perf_counter_ns() - started
                    record = {"repo": name, "id": item["id"], "category": item["category"],
                              "run": run_number, "wall_ms": wall_ns / 1e6, "rss_kb": read_rss(rss_file),
                              "exit": proc.returncode}
                    try:
                        if proc.returncode != 0:
                            raise ValueError(f"exit {proc.returncode}")
                        answer = json.loads(proc.stdout)
                        record["mode"] = answer.get("mode", "?")
                        record["source"], record["ranked"] = distinct_modules(answer)
                        record["answer"] = answer.get("answer", "")
                        if answer.get("notes"):
                            record["notes"] = answer["notes"]
                    except ValueError as error:  # JSONDecodeError is a ValueError
                        record.update(mode="error", source=None, ranked=[], answer="",
                                      error=f"{error}: {proc.stderr.strip()[-500:]}")
                    out.write(json.dumps(record) + "\n")
                    done += 1
                    if record["mode"] == "error":
                        print(f"  {item['id']} run {run_number}: {record['error']}", file=sys.stderr)
                    if done % 25 == 0 or done == total:
                        print(f"  asked {done}/{total}", file=sys.stderr)
    return 0


def read_rss(path: str) -> int | None:
    try:  # /usr/bin/time writes "Command exited with non-zero status N" before %M on failure
        return int(Path(path).read_text().split()[-1])
    except (OSError, ValueError, IndexError):
        return None


# ---------------------------------------------------------------------------------------------------
# report


def percentile(values: list[float], p: float) -> float | None:
    """Nearest-rank percentile: the smallest value with at least p% of the values at or below it."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def score(record: dict, item: dict) -> dict:
    expected = item["expected_modules"]
    top = record["ranked"][:K]
    declined = record["mode"] == "declined"
    scored = {"declined": declined}
    if item["answerable"]:
        found = [m for m in expected if m in top]
        scored.update(hit=bool(found), recall=len(found) / len(expected), found=found)
    return scored


def fmt(value: float | None, digits: int = 0, pct: bool = False) -> str:
    if value is None:
        return "–"
    return f"{100 * value:.0f}%" if pct else f"{value:.{digits}f}"


def mean(values: list[float]) -> float | None:
    return statistics.fmean(values) if values else None


def report(args: argparse.Namespace) -> int:
    records = [json.loads(line) for line in open(args.results, encoding="utf-8") if line.strip()]
    index_rows = []
    questions: dict[tuple[str, str], dict] = {}
    order: dict[str, list[str]] = {}
    for line in open(args.index_tsv, encoding="utf-8"):
        name, wall_ns, rss_kb, report_file, questions_file = line.rstrip("\n").split("\t")
        index_report = json.load(open(report_file, encoding="utf-8"))
        index_rows.append((name, int(wall_ns) / 1e9, int(rss_kb), index_report))
        order[name] = []
        for item in load_questions(questions_file):
            questions[name, item["id"]] = item
            order[name].append(item["id"])
    for record in records:
        record.update(score(record, questions[record["repo"], record["id"]]))

    runs = max((r["run"] for r in records), default=0)
    by_question: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for record in records:
        by_question[record["repo"], record["id"]].append(record)

    print("### Index (each corpus indexed once)\n")
    print("| repo | modules | chunks | embedder | index wall (s) | peak RSS (MB) | timings_ms |")
    print("|---|---:|---:|---|---:|---:|---|")
    for name, wall_s, rss_kb, rep in index_rows:
        timings = ", ".join(f"{k} {v}" for k, v in rep.get("timings_ms", {}).items())
        print(f"| {name} | {rep.get('n_modules', '?')} | {rep.get('n_chunks', '?')} | "
              f"{rep.get('embedder', '?')} | {wall_s:.2f} | {rss_kb / 1024:.0f} | {timings} |")

    print(f"\n### Ask latency (one process per question, {runs} run(s) of the whole list; "
          f"errors left out)\n")
    print(f"| repo | asks | errors | p50 (ms) | p95 (ms) | max (ms) | max peak RSS (MB) "
          f"| p50 <= {args.goal_p50_ms:g} ms |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    latency = {}
    for name in order:
        rows = [r for r in records if r["repo"] == name]
        ok = [r for r in rows if r["mode"] != "error"]  # failed asks are left out of the figures
        walls = [r["wall_ms"] for r in ok]
        rss = [r["rss_kb"] for r in ok if r["rss_kb"] is not None]
        p50, p95 = percentile(walls, 50), percentile(walls, 95)
        latency[name] = {"asks": len(rows), "errors": sum(r["mode"] == "error" for r in rows),
                         "p50_ms": p50, "p95_ms": p95, "max_ms": max(walls, default=None),
                         "max_rss_mb": max(rss) / 1024 if rss else None}
        goal = "–" if p50 is None else ("yes" if p50 <= args.goal_p50_ms else "**no**")
        print(f"| {name} | {len(rows)} | {latency[name]['errors']} | {fmt(p50, 1)} | {fmt(p95, 1)} | "
              f"{fmt(latency[name]['max_ms'], 1)} | {fmt(latency[name]['max_rss_mb'], 1)} | {goal} |")

    print(f"\n### Answer quality (top {K} distinct modules: `citations` for structural answers, "
          f"else `context`; means over the runs)\n")
    print(f"| repo | category | n | hit@{K} | recall@{K} | false-decline | decline | modes |")
    print("|---|---|---:|---:|---:|---:|---:|---|")
    quality: dict[str, dict] = {}
    for name in order:
        groups = [(c, [q for q in order[name] if questions[name, q]["category"] == c]) for c in CATEGORIES]
        answerable = [q for q in order[name] if questions[name, q]["answerable"]]
        groups.append(("all answerable", answerable))
        quality[name] = {}
        for category, ids in groups:
            if not ids:
                continue
            rows = [r for q in ids for r in by_question[name, q]]
            ans = [r for r in rows if questions[name, r["id"]]["answerable"]]
            una = [r for r in rows if not questions[name, r["id"]]["answerable"]]
            modes = Counter(Counter(r["mode"] for r in by_question[name, q]).most_common(1)[0][0]
                            for q in ids if by_question[name, q])
            stats = {"n": len(ids), f"hit@{K}": mean([r["hit"] for r in ans]),
                     f"recall@{K}": mean([r["recall"] for r in ans]),
                     "false_decline": mean([r["declined"] for r in ans]),
                     "decline": mean([r["declined"] for r in una]), "modes": dict(modes)}
            quality[name][category] = stats
            label = f"*{category}*" if category == "all answerable" else category
            print(f"| {name} | {label} | {len(ids)} | {fmt(stats[f'hit@{K}'], pct=True)} | "
                  f"{fmt(stats[f'recall@{K}'], pct=True)} | {fmt(stats['false_decline'], pct=True)} | "
                  f"{fmt(stats['decline'], pct=True)} | "
                  f"{', '.join(f'{m} {c}' for m, c in modes.most_common())} |")

    unstable = [f"{n}/{q}" for (n, q), rows in by_question.items()
                if len({(r["mode"], tuple(r["ranked"][:K])) for r in rows}) > 1]
    if unstable:
        print(f"\nAnswers that differ between runs (mode or top {K}): {', '.join(sorted(unstable))}")
    misses = [f"{n}/{q}" for (n, q), rows in by_question.items()
              if questions[n, q]["answerable"] and not any(r["hit"] for r in rows)]
    if misses:
        print(f"\nAnswerable questions with no expected module in the top {K} in any run: "
              f"{', '.join(sorted(misses, key=lambda s: (s.split('/')[0], s)))}")

    if args.json:
        dump = {"runs": runs, "k": K, "goal_p50_ms": args.goal_p50_ms,
                "index": {n: {"wall_s": w, "rss_kb": r, "report": rep} for n, w, r, rep in index_rows},
                "latency": latency, "quality": quality,
                "results": [{**r, "question": questions[r["repo"], r["id"]]["question"],
                             "expected_modules": questions[r["repo"], r["id"]]["expected_modules"],
                             f"top{K}": r["ranked"][:K]} for r in records]}
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(dump, f, indent=1)
            f.write("\n")
        print(f"\nPer-question results: {args.json}", file=sys.stderr)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("validate")
    p.add_argument("questions")
    p.add_argument("root")
    p.set_defaults(func=validate)
    p = sub.add_parser("run")
    p.add_argument("--strata", required=True)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--out", required=True)
    p.add_argument("--ask-arg", action="append", default=[], help="extra argument for `strata ask`")
    p.add_argument("--set", nargs=3, action="append", required=True, metavar=("NAME", "INDEX", "QUESTIONS"))
    p.set_defaults(func=run)
    p = sub.add_parser("report")
    p.add_argument("results")
    p.add_argument("--index-tsv", required=True)
    p.add_argument("--json")
    p.add_argument("--goal-p50-ms", type=float, default=100.0)
    p.set_defaults(func=report)
    args = parser.parse_args()
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
