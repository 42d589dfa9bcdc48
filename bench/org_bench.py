#!/usr/bin/env python3
"""Benchmark an organisation's store (``strata index --org``, ``strata ask --org``) over about 50
repositories in one bucket of a local S3 server (moto), and check the cross-repository answers against
an independent oracle over the combined sources. Not a test: it prints figures.

Repositories: the corpus sdists named with ``--real`` (each indexed from its package folder, as
``bench/locate.sh`` does) and generated ones (``random.Random(SEED)``): a shared library ``core``
(package ``acme_core``) and services ``svc00``... (package ``svc_NN``), whose modules import modules of
``acme_core`` and of earlier services; every generated repository also has its own ``tests`` package and
``setup.py`` (the same top-level names in each, which must resolve in their own repository).

Measures, per repository: ``index --out DIR`` (local) against ``index --org`` (upload and catalog
commit included) wall seconds, and the catalog commit's own time; then ``ask --org`` per question (its
own process): p50/p95 wall milliseconds per kind (direct importers, dependents, "which repositories",
retrieval), requests and bytes read against the store's size, and whether each structural answer equals
the oracle's.

With ``--questions NAME=FILE.jsonl`` (repeatable; a real repository's questions, as ``bench/locate.sh``
reads them: ``gold_files`` relative to the repository, or ``"answerable": false``), each question is also
asked of the organisation (``ask --org``, which ranks the repositories on their lexicons and searches the
best few) and of the repository's own local index (``ask --index``), and the bench prints, per set: the
share answered from the right repository, hit@1 and recall@5 of the gold files (citations, then
context, each file once, as ``strata eval`` ranks them) for both, and for questions about things the
repository lacks the share declined by both.

The oracle (this file, ``Oracle``) reads the generated sources with ``ast``: a module's dotted name is its
path; ``import a.b`` is an edge to ``a.b``, ``from a import b`` to ``a.b`` when that is a module, else to
``a``; an import resolves in the importer's own repository first, else in the one repository providing
its top-level package. It never reads strata's output.

usage: bench/org_bench.py --strata BIN --moto MOTO_SERVER [--services N] [--real NAME=PATH]...
                          [--questions NAME=FILE.jsonl]...
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import defaultdict
from pathlib import Path

SEED = 7
CORE_MODULES = 12
SERVICE_MODULES = 6


def generate(root: Path, services: int) -> dict[str, Path]:
    """The generated repositories under ``root``: name -> folder."""
    rng = random.Random(SEED)
    repos: dict[str, Path] = {}

    def write(repo: Path, rel: str, text: str) -> None:
        path = repo / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)

    def common(repo: Path, package: str) -> None:
        write(repo, "setup.py", "import setuptools\n")
        write(repo, "tests/__init__.py", "")
        write(repo, "tests/helpers.py", f"import {package}\n")
        write(repo, "tests/test_main.py", f"from tests.helpers import {package}\nimport {package}.m0\n")

    core = root / "core"
    write(core, "acme_core/__init__.py", "from acme_core import m0\n")
    for k in range(CORE_MODULES):
        imports = [f"import acme_core.m{j}\n" for j in range(k) if rng.random() < 0.25]
        write(core, f"acme_core/m{k}.py", "".join(imports) + f"def f{k}():\n    return {k}\n")
    common(core, "acme_core")
    repos["core"] = core
    for i in range(services):
        name, package = f"svc{i:02d}", f"svc_{i:02d}"
        repo = root / name
        write(repo, f"{package}/__init__.py", "")
        for k in range(SERVICE_MODULES):
            lines = []
            for j in rng.sample(range(CORE_MODULES), rng.choice([0, 1, 1, 2])):
                lines.append(f"from acme_core import m{j}\n" if rng.random() < 0.5 else f"import acme_core.m{j}\n")
            for j in range(k):
                if rng.random() < 0.3:
                    lines.append(f"from {package} import m{j}\n")
            if i > 0 and rng.random() < 0.15:
                other = rng.randrange(i)
                lines.append(f"import svc_{other:02d}.m{rng.randrange(SERVICE_MODULES)}\n")
            write(repo, f"{package}/m{k}.py", "".join(lines) + f"def handler_{k}():\n    return {k}\n")
        common(repo, package)
        repos[name] = repo
    return repos


class Oracle:
    """Import edges between the generated repositories' modules, from their sources."""

    def __init__(self, repos: dict[str, Path]):
        self.modules: dict[str, dict[str, str]] = {}  # repo -> dotted name -> id ("repo/path")
        for name, root in repos.items():
            names = {}
            for path in sorted(root.rglob("*.py")):
                rel = path.relative_to(root).as_posix()
                dotted = rel[:-3].replace("/", ".")
                if dotted.endswith(".__init__"):
                    dotted = dotted[: -len(".__init__")]
                names[dotted] = f"{name}/{rel}"
            self.modules[name] = names
        providers = defaultdict(set)
        for name, names in self.modules.items():
            for dotted in names:
                providers[dotted.split(".")[0]].add(name)
        self.edges: set[tuple[str, str]] = set()
        for name, root in repos.items():
            for dotted, src in self.modules[name].items():
                tree = ast.parse((root / src.split("/", 1)[1]).read_text())
                for node in ast.walk(tree):
                    targets = []
                    if isinstance(node, ast.Import):
                        targets = [alias.name for alias in node.names]
                    elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                        targets = [(node.module, alias.name) for alias in node.names]
                    for target in targets:
                        dst = self.resolve(name, target, providers)
                        if dst and dst != src:
                            self.edges.add((src, dst))

    def resolve(self, repo: str, target, providers) -> str | None:
        module, attribute = (target, None) if isinstance(target, str) else target
        top = module.split(".")[0]
        owner = repo if top in {d.split(".")[0] for d in self.modules[repo]} else None
        if owner is None:
            candidates = providers.get(top, set())
            owner = next(iter(candidates)) if len(candidates) == 1 else None
        if owner is None:
            return None
        names = self.modules[owner]
        if attribute and f"{module}.{attribute}" in names:
            return names[f"{module}.{attribute}"]
        return names.get(module)

    def importers(self, target: str) -> set[str]:
        return {src for src, dst in self.edges if dst == target}

    def dependents(self, target: str) -> set[str]:
        into = defaultdict(set)
        for src, dst in self.edges:
            into[dst].add(src)
        seen, todo = set(), [target]
        while todo:
            for src in into[todo.pop()]:
                if src not in seen:
                    seen.add(src)
                    todo.append(src)
        return seen - {target}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(cmd: list[str], env: dict) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"org_bench: {' '.join(cmd[:3])} … failed: {done.stderr.strip()[-800:]}")
    return elapsed, done.stdout


def tree_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


def ranked_files(answer: dict) -> list[str]:
    """The files an answer points to, best first: citations, then context, each once (strata eval's)."""
    seen: list[str] = []
    for path in [c["path"] for c in answer.get("citations", [])] + [c["module"] for c in answer.get("context", [])]:
        if path not in seen:
            seen.append(path)
    return seen


def located(args, env: dict, org: str, work: Path, local_bytes: int) -> None:
    """Questions about code across the organisation against each repository's own index."""
    print("\n| set | n | right repository | hit@1 org / own | recall@5 org / own | declined org / own | "
          "p50 org / own (ms) | read p50 (MB) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    read_all = []
    for spec in args.questions:
        name, path = spec.split("=", 1)
        rows = [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
        own_index = str(work / "local" / name)
        score = defaultdict(list)
        for row in rows:
            elapsed, out = run([args.strata, "ask", "--org", org, "--format", "json", row["question"]], env)
            across = json.loads(out)
            if args.dump:
                with open(args.dump, "a") as dump:
                    dump.write(json.dumps({"repository": name, "row": row, "answer": across}) + "\n")
            score["ms_org"].append(elapsed * 1000)
            score["read"].append(across["storage"]["bytes_read"])
            elapsed, out = run([args.strata, "ask", "--index", own_index, "--format", "json", row["question"]], env)
            own = json.loads(out)
            score["ms_own"].append(elapsed * 1000)
            for key, answer, prefix in (("org", across, f"{name}/"), ("own", own, "")):
                score[f"declined_{key}"].append(answer["mode"] == "declined")
                if row.get("answerable", True):
                    files = ranked_files(answer)
                    gold = {prefix + g for g in row["gold_files"]}
                    score[f"hit1_{key}"].append(bool(files) and files[0] in gold)
                    score[f"recall_{key}"].append(len(gold & set(files[:5])) / len(gold))
                    if key == "org":
                        score["right"].append(bool(files) and files[0].startswith(prefix))
        read_all += score["read"]
        mean = lambda key: sum(score[key]) / len(score[key]) if score[key] else float("nan")  # noqa: E731
        label = f"{name}: {Path(path).name}"
        print(f"| {label} | {len(rows)} | {mean('right'):.3f} | {mean('hit1_org'):.3f} / {mean('hit1_own'):.3f} | "
              f"{mean('recall_org'):.3f} / {mean('recall_own'):.3f} | "
              f"{mean('declined_org'):.3f} / {mean('declined_own'):.3f} | "
              f"{pct(score['ms_org'], 0.5):.0f} / {pct(score['ms_own'], 0.5):.0f} | {pct(score['read'], 0.5) / 1e6:.2f} |")
    print(f"\nread per question about code: p50 {pct(read_all, 0.5) / 1e6:.2f} MB, "
          f"{100 * pct(read_all, 0.5) / local_bytes:.1f} % of the indexes' {local_bytes / 1e6:.1f} MB")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--strata", required=True)
    ap.add_argument("--moto", required=True)
    ap.add_argument("--services", type=int, default=46)
    ap.add_argument("--real", action="append", default=[], metavar="NAME=PATH")
    ap.add_argument("--questions", action="append", default=[], metavar="NAME=FILE.jsonl")
    ap.add_argument("--dump", metavar="FILE.jsonl", help="write each question's organisation answer here")
    args = ap.parse_args()

    work = Path(tempfile.mkdtemp(prefix="strata-org-bench-"))
    port = free_port()
    moto = subprocess.Popen([args.moto, "-H", "127.0.0.1", "-p", str(port)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    endpoint = f"http://127.0.0.1:{port}"
    env = dict(os.environ, AWS_ENDPOINT_URL=endpoint, AWS_ACCESS_KEY_ID="bench", AWS_SECRET_ACCESS_KEY="bench",
               AWS_REGION="us-east-1", AWS_PROFILE="", AWS_SESSION_TOKEN="")
    try:
        for _ in range(150):
            try:
                urllib.request.urlopen(urllib.request.Request(f"{endpoint}/bench", method="PUT"), timeout=2)
                break
            except Exception:
                time.sleep(0.2)
        else:
            sys.exit("org_bench: the S3 server did not start")
        repos = generate(work / "src", args.services)
        for spec in args.real:
            name, path = spec.split("=", 1)
            target = work / "src" / name
            shutil.copytree(path, target / Path(path).name)
            repos[name] = target
        org = "s3://bench/org"

        print(f"strata: {args.strata}; {len(repos)} repositories ({args.services} services, core, "
              f"{len(args.real)} real); moto on loopback; 2 cores\n")
        print("| repository | modules | index local (s) | index --org (s) | catalog commit (ms) | conflicts |")
        print("|---|---:|---:|---:|---:|---:|")
        rows, local_bytes = [], 0
        for name, root in repos.items():
            local = work / "local" / name
            t_local, _ = run([args.strata, "index", str(root), "--out", str(local), "--json"], env)
            local_bytes += tree_size(local)
            t_org, out = run([args.strata, "index", str(root), "--org", org, "--name", name, "--json"], env)
            report = json.loads(out)
            rows.append((name, report["n_modules"], t_local, t_org, report["timings_ms"].get("catalog", 0),
                         report["org"]["conflicts"]))
        real = [r for r in rows if r[0] in dict(s.split("=", 1) for s in args.real)]
        generated = [r for r in rows if r not in real]
        for row in real:
            print(f"| {row[0]} | {row[1]} | {row[2]:.2f} | {row[3]:.2f} | {row[4]} | {row[5]} |")
        if generated:
            print(f"| {len(generated)} generated (median) | {statistics.median(r[1] for r in generated):.0f} | "
                  f"{statistics.median(r[2] for r in generated):.2f} | {statistics.median(r[3] for r in generated):.2f} | "
                  f"{statistics.median(r[4] for r in generated):.0f} | {sum(r[5] for r in generated)} |")
        catalog_ms = [r[4] for r in rows]
        print(f"\ncatalog commit: p50 {pct(catalog_ms, 0.5):.0f} ms, max {max(catalog_ms)} ms over {len(rows)} "
              f"commits; the index sizes add up to {local_bytes / 1e6:.1f} MB\n")

        oracle = Oracle({name: root for name, root in repos.items() if name == "core" or name.startswith("svc")})
        rng = random.Random(SEED + 1)
        core_targets = rng.sample(range(CORE_MODULES), 6)
        questions = []
        for k in core_targets:
            target = f"core/acme_core/m{k}.py"
            questions.append(("importers", f"What imports acme_core.m{k}?", oracle.importers(target)))
            questions.append(("dependents", f"What depends on acme_core.m{k}?", oracle.dependents(target)))
        questions.append(("repositories", "Which repositories import acme_core?", None))
        questions.append(("retrieval", "How are handlers registered across the services?", None))
        times, stats, checked = defaultdict(list), [], defaultdict(lambda: [0, 0])
        for kind, question, expected in questions:
            elapsed, out = run([args.strata, "ask", "--org", org, "--format", "json", question], env)
            answer = json.loads(out)
            times[kind].append(elapsed * 1000)
            stats.append((answer["storage"]["requests"], answer["storage"]["bytes_read"]))
            if expected is not None:
                parts = (answer.get("understood") or {}).get("parts") or [{}]
                got = set(((parts[0].get("result") or {}).get("modules")) or [])
                checked[kind][0] += got == expected
                checked[kind][1] += 1
            elif kind == "repositories":
                listed = answer["answer"].split("\n")[0]
                # Any module outside the package that imports one of its modules (core's own tests too).
                importing = {src.split("/")[0] for src, dst in oracle.edges
                             if dst.startswith("core/acme_core/") and not src.startswith("core/acme_core/")}
                ok = all(f"**{repo}**" in listed for repo in importing) and listed.count("**") == 2 * len(importing)
                checked[kind][0] += ok
                checked[kind][1] += 1
            else:
                print(f"retrieval question: mode {answer['mode']}")
        print("\n| question kind | n | p50 (ms) | p95 (ms) | exact against the oracle |")
        print("|---|---:|---:|---:|---|")
        for kind in ("importers", "dependents", "repositories", "retrieval"):
            values = times[kind]
            exact = f"{checked[kind][0]}/{checked[kind][1]}" if checked[kind][1] else "–"
            print(f"| {kind} | {len(values)} | {pct(values, 0.5):.0f} | {pct(values, 0.95):.0f} | {exact} |")
        requests = [r for r, _ in stats]
        read = [b for _, b in stats]
        print(f"\nread per question: p50 {pct(read, 0.5) / 1e6:.1f} MB in {pct(requests, 0.5)} requests "
              f"(the catalog, then the bundle.json.zst and facts.parquet of the repositories the question connects), "
              f"{100 * pct(read, 0.5) / local_bytes:.1f} % of the indexes' {local_bytes / 1e6:.1f} MB")
        if args.questions:
            located(args, env, org, work, local_bytes)
        wrong = sum(n - ok for ok, n in checked.values())
        return 1 if wrong else 0
    finally:
        moto.terminate()
        moto.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
