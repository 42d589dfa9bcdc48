#!/usr/bin/env python3
"""Fits the abstention settings of `ask` (crates/answer/src/abstain.rs) and reports them on held-out questions.

Development data: the even lines of the SWE-QA sets (every question answerable) and the unanswerable
questions in this folder (written for development; the flask and django eval sets' unanswerable
questions are never used here, they measure the result). The odd SWE-QA lines are only reported.

For each question it runs `strata ask --format json` and reads the `evidence` the answer carries: the
features, and whether a rule (a name the index lacks, a question about people or deployments) already
decided. The two thresholds (`max_absent`, `min_covered`) are searched on a grid for the most
unanswerable development questions declined while declining none of the answerable ones; among equally
good settings the most permissive is kept (lowest `min_covered`, highest `max_absent`): a false decline
costs the asker the answer, while retrieval on an unanswerable question shows code and claims nothing.

usage: eval/abstention/fit.py --strata BIN --index flask=DIR --index requests=DIR --index django=DIR
           [--swe-qa ../shared/data/swe-qa]
Prints the settings to copy into `fitted()` and a table of decline rates per set and half.
"""

import argparse
import json
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
FEATURES = ["absent", "covered"]
# SWE-QA set -> the index it is asked against (as in bench/locate.sh and .ci/run).
SETS = {"flask": "flask", "flask_v1": "flask", "requests_v1": "requests", "django_v1": "django"}
MAX_DEV_FALSE_DECLINES = 0.0


def ask(strata, index, question):
    out = subprocess.run(
        [strata, "ask", "--index", index, "--format", "json", question],
        check=True, capture_output=True, text=True,
    ).stdout
    answer = json.loads(out)
    evidence = answer.get("evidence")
    if evidence is None:  # answered from the graph: no retrieval evidence to weigh
        return None
    return {
        "features": [evidence["features"][name] for name in FEATURES],
        "rule": evidence["decision"]["kind"] not in ("answer", "weak_evidence"),
        "declined": answer["mode"] == "declined",
        "question": question,
        "decision": evidence["decision"],
        "terms": [(t["word"], t["chunks"], t["in_context"]) for t in evidence["terms"]],
    }


def load(path):
    return [json.loads(line) for line in open(path) if line.strip()]


def declined(settings, row):
    absent, covered = row["features"]
    return row["rule"] or absent >= settings[0] or covered < settings[1]


def fit(dev):
    """The (max_absent, min_covered) pair that declines the most unanswerable development questions
    while declining at most MAX_DEV_FALSE_DECLINES of the answerable ones."""
    answerable = [row for row, label in dev if label]
    unanswerable = [row for row, label in dev if not label]
    best, candidates = -1, []
    for min_covered in [step / 20 for step in range(0, 11)]:
        for max_absent in [step / 100 for step in range(10, 101)]:
            settings = (max_absent, min_covered)
            false = sum(declined(settings, row) for row in answerable) / len(answerable)
            if false > MAX_DEV_FALSE_DECLINES:
                continue
            caught = sum(declined(settings, row) for row in unanswerable)
            if caught > best:
                best, candidates = caught, []
            if caught == best:
                candidates.append(settings)
    min_covered = min(c for _, c in candidates)
    return max(a for a, c in candidates if c == min_covered), min_covered


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--strata", required=True)
    parser.add_argument("--index", action="append", required=True, help="NAME=DIR")
    parser.add_argument("--dump", help="write every question's evidence to this JSON file")
    parser.add_argument("--swe-qa", default=str(HERE.parents[2] / "shared" / "data" / "swe-qa"))
    args = parser.parse_args()
    indexes = dict(spec.split("=", 1) for spec in args.index)

    groups = {}  # (set, half) -> rows; label True = answerable
    for name, index in sorted(SETS.items()):
        for number, question in enumerate(load(pathlib.Path(args.swe_qa) / f"{name}.jsonl")):
            row = ask(args.strata, indexes[index], question["question"])
            if row:
                groups.setdefault((name, "dev" if number % 2 == 0 else "held"), []).append((row, True))
    for path in sorted(HERE.glob("*.jsonl")):
        for question in load(path):
            row = ask(args.strata, indexes[question["repo"]], question["question"])
            if row:
                groups.setdefault((f"unanswerable/{path.stem}", "dev"), []).append((row, False))

    if args.dump:
        rows = [dict(row, set=name, half=half, answerable=label) for (name, half), r in groups.items() for row, label in r]
        pathlib.Path(args.dump).write_text(json.dumps(rows, indent=1))
    dev = [(row, label) for (_, half), rows in groups.items() if half == "dev" for row, label in rows]
    fitted = fit(dev)
    n_answerable = sum(1 for _, label in dev if label)
    n_unanswerable = len(dev) - n_answerable
    settings = {"max_absent": fitted[0], "min_covered": fitted[1]}
    settings["fitted_on"] = (
        f"eval/abstention/fit.py: SWE-QA even lines ({n_answerable} answerable), "
        f"eval/abstention/*.jsonl ({n_unanswerable} unanswerable)"
    )
    print(json.dumps(settings, indent=2))
    print(f"\n{'set':<24} {'half':<5} {'n':>3}  declined (now)  declined (fitted)")
    for (name, half), rows in sorted(groups.items()):
        now = sum(row["declined"] for row, _ in rows) / len(rows)
        rate = sum(declined(fitted, row) for row, _ in rows) / len(rows)
        print(f"{name:<24} {half:<5} {len(rows):>3}  {now:>14.3f}  {rate:>17.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
