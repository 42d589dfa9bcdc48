#!/usr/bin/env bash
# "Find the code" and "know when it does not know", leave one repository out, beside plain BM25 over
# whole files, in one run. Each package is indexed from a folder that holds only it (the sets' gold
# paths are relative to it). `strata fit` chooses the ranking and decline settings on four of the five
# development repositories and scores the fifth with them, for each in turn; scrapy, httpx, rich and
# celery are never fitted on and are scored with the settings fitted on all five (httpx, rich and
# celery: eight new-user and eight absent questions each, written from what a user knows of the
# project before strata was run on them). BM25 (../shared/data/swe-qa/bm25_files.py) runs on
# the same answerable questions. Sets: the SWE-QA development sets (../shared/data/swe-qa), new-user
# questions with gold files (eval/locate/newuser-*.jsonl) and questions about things each repository
# does not contain (eval/locate/absent-*.jsonl, written from the README alone).
#
# usage: STRATA_BIN=target/release/strata CORPUS=~/.cache/strata-corpus bench/locate.sh [--out FILE]
#            [--require 'METRIC>=VALUE']...
#   METRIC: recall@5, hit@1 (pooled held-out figure), lead.recall@5, lead.hit@1 (ahead of BM25 on
#   the same questions), false_declines, absent_declined.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
data="${SWEQA:-$here/../shared/data/swe-qa}"
corpus="${CORPUS:-${HOME}/.cache/strata-corpus}"
strata="${STRATA_BIN:-$here/target/release/strata}"
out="" requires=()
while [ $# -gt 0 ]; do
    case $1 in
        --out) out=$2; shift 2 ;;
        --require) requires+=("$2"); shift 2 ;;
        *) echo "usage: bench/locate.sh [--out FILE] [--require 'METRIC>=VALUE']..." >&2; exit 2 ;;
    esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fetch() { "$here/scripts/fetch-sdist" "$@" "$corpus"; }
declare -A source=(
    [flask]="$(fetch flask 3.1.2 bf656c15c80190ed628ad08cdfd3aaa35beb087855e2f494910aa3774cc4fd87)/src/flask"
    [requests]="$(fetch requests 2.32.5 dbba0bac56e100853db0ea71b82b4dfd5fe2bf6d3754a8893c3af500cec7d7cf)/src/requests"
    [django]="$(fetch django 6.0.10 6005d030df924f85088454c18bd35dcf082b058aa355ad3df520d8de9aef9f41)/django"
    [sympy]="$(fetch sympy 1.14.0 d3d3fe8df1e5a0b42f0e7bdf50541697dbe7d23746e894990c030e2b05e72517)/sympy"
    [conan]="$(fetch conan 2.18.1 5d8e9fac7614de9297933f65de8f17db14851a871cebc962f4856b7c294f43c5)/conan"
    [scrapy]="$(fetch scrapy 2.19.0 34130726582b64c91531162ab277c4053e558876d49ba219cb43679e71d80a87)/scrapy"
    [httpx]="$(fetch httpx 0.28.1 75e98c5f16b0f35b567856f597f06ff2270a374470a5c2392242528e3e3e42fc)/httpx"
    [rich]="$(fetch rich 14.0.0 82f1bc23a6a21ebca4ae0c45af9bdbc492ed20231dcb63f297d6d1021a9d5725)/rich"
    [celery]="$(fetch celery 5.5.3 6c972ae7968c2b5281227f01c3a3f984037d21c5129d07bf3550cc2afc6b10a5)/celery"
)
# The SWE-QA development sets of each repository.
declare -A sweqa=([flask]="flask flask_v1" [requests]="requests_v1" [django]="django_v1" [sympy]="sympy" [conan]="conan" [scrapy]="" [httpx]="" [rich]="" [celery]="")
# Never fitted on: scored with the settings fitted on the others.
reported=" scrapy httpx rich celery "

sets=() reports=() answerable=()
for repo in flask requests django sympy conan scrapy httpx rich celery; do
    mkdir -p "$work/$repo"
    cp -R "${source[$repo]}" "$work/$repo/"
    "$strata" index "$work/$repo" --out "$work/$repo-index" >/dev/null 2>&1
    files=("$here/eval/locate/newuser-$repo.jsonl" "$here/eval/locate/absent-$repo.jsonl")
    for set in ${sweqa[$repo]}; do files+=("$data/$set.jsonl"); done
    for file in "${files[@]}"; do
        if [[ $reported == *" $repo "* ]]; then reports+=(--report-set "$repo=$work/$repo-index=$file"); else sets+=(--set "$repo=$work/$repo-index=$file"); fi
        case $file in *absent-*) ;; *) answerable+=("$repo:$file") ;; esac
    done
done
"$strata" fit "${sets[@]}" "${reports[@]}" --out "$work/fit.json" >/dev/null
for spec in "${answerable[@]}"; do
    repo=${spec%%:*} file=${spec#*:}
    python3 "$data/bm25_files.py" "$work/$repo" "$repo" "$file" | tail -1 |
        sed -E "s|.*hit@5=([0-9.]+) recall@5=([0-9.]+) hit@1=([0-9.]+).*|$repo $(basename "$file" .jsonl) \3 \2|"
done >"$work/bm25.txt"
[ -z "$out" ] || cp "$work/fit.json" "$out"
python3 - "$work/fit.json" "$work/bm25.txt" "${requires[@]}" <<'EOF'
import json, re, sys
report = json.load(open(sys.argv[1]))
bm25 = {}
for line in open(sys.argv[2]):
    repo, name, hit1, recall = line.split()
    bm25[(repo, name)] = (float(hit1), float(recall))
def bm25_of(repo, rows):
    n = sum(count for _, count in rows)
    if n == 0:
        return (0.0, 0.0)
    hit1 = sum(bm25[(repo, name)][0] * count for name, count in rows) / n
    recall = sum(bm25[(repo, name)][1] * count for name, count in rows) / n
    return (hit1, recall)
sets_of = {}
for key, figures in report["held_out_sets"].items():
    repo, name = key.split("/", 1)
    if figures["answerable"]:
        sets_of.setdefault(repo, []).append((name, figures["answerable"]))
print(f"{'held out':24} {'n':>4} | strata hit@1 rec@5 | bm25 hit@1 rec@5 | false decl | absent n decl | precision")
pooled = [0.0, 0.0, 0]
def row(name, f, b):
    print(f"{name:24} {f['answerable']:4} | {f['hit_at_1']:12.3f} {f['recall_at_5']:5.3f} | {b[0]:10.3f} {b[1]:5.3f} | {f['false_declines']:10.3f} | {f['absent']:8} {f['absent_declined']:.3f} | {f['decline_precision']:.3f}")
for repo, figures in report["held_out"].items():
    b = bm25_of(repo, sets_of.get(repo, []))
    row(repo, figures, b)
    pooled[0] += b[0] * figures["answerable"]; pooled[1] += b[1] * figures["answerable"]; pooled[2] += figures["answerable"]
f = report["held_out_pooled"]
b = (pooled[0] / max(pooled[2], 1), pooled[1] / max(pooled[2], 1))
row("pooled, held out", f, b)
for repo, figures in report.get("reported", {}).items():
    names = [(k[1], v) for k, v in bm25.items() if k[0] == repo]
    hit1 = sum(v[0] for _, v in names) / max(len(names), 1)
    recall = sum(v[1] for _, v in names) / max(len(names), 1)
    row(f"{repo} (never fitted)", figures, (hit1, recall))
never = list(report.get("reported", {}).values())
if len(never) > 1:
    n, a = sum(f["answerable"] for f in never), sum(f["absent"] for f in never)
    mean = lambda key, weight: sum(f[key] * f[weight] for f in never) / max(sum(f[weight] for f in never), 1)
    declined = sum(f["absent_declined"] * f["absent"] for f in never)
    false = sum(f["false_declines"] * f["answerable"] for f in never)
    pooled_never = {
        "answerable": n, "hit_at_1": mean("hit_at_1", "answerable"), "recall_at_5": mean("recall_at_5", "answerable"),
        "false_declines": false / max(n, 1), "absent": a, "absent_declined": declined / max(a, 1),
        "decline_precision": declined / max(declined + false, 1e-9),
    }
    # BM25 the same way: each repository's figure (its rows above) weighed by its answerable questions.
    def bm25_repo(repo):
        names = [v for k, v in bm25.items() if k[0] == repo]
        return [sum(v[i] for v in names) / max(len(names), 1) for i in (0, 1)]
    weighed = [(bm25_repo(repo), f["answerable"]) for repo, f in report["reported"].items()]
    row("never fitted, pooled", pooled_never,
        tuple(sum(b[i] * w for b, w in weighed) / max(n, 1) for i in (0, 1)))
metrics = {
    "recall@5": f["recall_at_5"], "hit@1": f["hit_at_1"],
    "lead.recall@5": f["recall_at_5"] - b[1], "lead.hit@1": f["hit_at_1"] - b[0],
    "false_declines": f["false_declines"], "absent_declined": f["absent_declined"],
}
failed = []
for requirement in sys.argv[3:]:
    m = re.fullmatch(r"([\w.@]+)(>=|<=)([0-9.]+)", requirement)
    if not m or m.group(1) not in metrics:
        sys.exit(f"bad requirement {requirement!r}")
    value, bound = metrics[m.group(1)], float(m.group(3))
    if (m.group(2) == ">=" and value < bound) or (m.group(2) == "<=" and value > bound):
        failed.append(f"{m.group(1)} = {value:.3f}, required {m.group(2)} {bound}")
for line in failed:
    print(f"locate: FAILED {line}", file=sys.stderr)
sys.exit(1 if failed else 0)
EOF
