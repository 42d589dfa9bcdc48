"""Helper for bench/index.sh.

  peers.py grimp PARENT PACKAGE   build grimp's graph cold (cache_dir=None) with PARENT first on
                                  sys.path; print {"build_s", "modules"} as JSON
  peers.py table RESULTS.tsv      print the markdown tables and the target ratios

RESULTS.tsv rows: corpus, tool, wall_ns, rss_kb, out_bytes, extra (a JSON file: strata's --json
report, this script's grimp output, or {"files": N} for pviz).
"""

import json
import statistics
import sys
import time
from collections import defaultdict

MB = 1024 * 1024


def grimp_build(parent, package):
    sys.path.insert(0, parent)
    import importlib.util

    import grimp

    origin = importlib.util.find_spec(package).origin
    assert origin.startswith(parent), f"{package} resolves to {origin}, not under {parent}"
    started = time.perf_counter()
    graph = grimp.build_graph(package, cache_dir=None)
    build_s = time.perf_counter() - started
    print(json.dumps({"build_s": build_s, "modules": len(graph.modules)}))


def table(path):
    runs = defaultdict(list)  # (corpus, tool) -> [row]
    for line in open(path):
        corpus, tool, wall_ns, rss_kb, out_bytes, extra = line.rstrip("\n").split("\t")
        runs[corpus, tool].append(
            {"wall": int(wall_ns) / 1e9, "rss": int(rss_kb) * 1024, "out": int(out_bytes),
             "extra": json.load(open(extra))})

    def med(key, corpus, tool, fn=None):
        rows = runs.get((corpus, tool), [])
        return statistics.median(fn(r) if fn else r[key] for r in rows) if rows else None

    def core(r):  # the graph-building work proper, without process start-up or writing output
        if "timings_ms" in r["extra"]:
            t = r["extra"]["timings_ms"]
            return (t["parse"] + t["graph"]) / 1000
        return r["extra"].get("build_s")

    def files(r):
        e = r["extra"]
        return e.get("n_files_parsed", e.get("modules", e.get("files")))

    fmt = lambda v, spec: "-" if v is None else format(v, spec)
    print("| corpus | tool | files | runs | median wall s | core s | peak RSS MB | output size MB |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for (corpus, tool), rows in runs.items():
        out = rows[-1]["out"]
        print(f"| {corpus} | {tool} | {files(rows[-1])} | {len(rows)} "
              f"| {med('wall', corpus, tool):.3f} | {fmt(med(None, corpus, tool, core), '.3f')} "
              f"| {med('rss', corpus, tool) / MB:.1f} | {fmt(out / MB if out else None, '.2f')} |")
    print("\ncore s: strata timings_ms parse+graph; grimp build_graph() inside Python. "
          "RSS is the median of the runs' peaks.\n")

    # Every stage and every step of the search stage (chunks, embed, table, fts...), as the runs report them.
    stages = ["source", "parse", "graph", "write", "search"]
    steps = sorted({k for (_, tool), rows in runs.items() if tool == "strata"
                    for r in rows for k in r["extra"]["timings_ms"] if k.startswith("search.")})
    columns = stages + steps + ["total"]
    print("| corpus | strata median timings_ms | " + " | ".join(columns) + " |")
    print("|---|---|" + "---:|" * len(columns))
    for (corpus, tool), rows in runs.items():
        if tool == "strata":
            stage = lambda s: statistics.median(r["extra"]["timings_ms"].get(s, 0) for r in rows)
            print(f"| {corpus} | | " + " | ".join(f"{stage(s):.0f}" for s in columns) + " |")

    def check(label, value, ok, target):
        print(f"- {label}: {value} -> {'meets' if ok else 'MISSES'} target {target}")

    print("\nRatios:")
    s_core, g_core = med(None, "package", "strata", core), med(None, "package", "grimp", core)
    if s_core and g_core:
        check("package: strata parse+graph / grimp build_graph", f"{s_core / g_core:.2f}x",
              s_core <= 2 * g_core, "<= 2x")
        print(f"- package: whole process, strata / grimp: "
              f"{med('wall', 'package', 'strata') / med('wall', 'package', 'grimp'):.2f}x")
    # Full-index targets on a 2-core machine (issue 16): wall and peak memory of the whole sdist.
    for corpus, seconds, megabytes in (("sdist", 3.5, None), ("ha-sdist", 8.0, 1024)):
        wall = med("wall", corpus, "strata")
        if wall is None:
            continue
        check(f"{corpus}: strata wall", f"{wall:.2f} s", wall <= seconds, f"<= {seconds} s")
        if megabytes:
            rss = med("rss", corpus, "strata") / MB
            check(f"{corpus}: strata peak RSS", f"{rss:.0f} MB", rss <= megabytes, f"<= {megabytes} MB")
    ha_core, ha_grimp = med(None, "ha-package", "strata", core), med(None, "ha-package", "grimp", core)
    if ha_core and ha_grimp:
        print(f"- ha-package: strata parse+graph / grimp build_graph: {ha_core / ha_grimp:.2f}x")
    for corpus in dict.fromkeys(c for c, _ in runs):
        p_wall, s_wall = med("wall", corpus, "pviz"), med("wall", corpus, "strata")
        if p_wall is None or s_wall is None:
            continue
        target = corpus == "sdist"  # the targets are stated for the whole sdist
        speedup = p_wall / s_wall
        size = runs[corpus, "strata"][-1]["out"] / runs[corpus, "pviz"][-1]["out"]
        if target:
            check(f"{corpus}: pviz wall / strata wall", f"{speedup:.0f}x", speedup >= 100, ">= 100x")
            check(f"{corpus}: strata bundle.json / pviz JSON", f"{size:.3f}", size <= 0.25, "<= 0.25")
        else:
            print(f"- {corpus}: pviz wall / strata wall: {speedup:.0f}x (target applies to sdist)")
            print(f"- {corpus}: strata bundle.json / pviz JSON: {size:.3f} (target applies to sdist)")


if __name__ == "__main__":
    if sys.argv[1:2] == ["grimp"] and len(sys.argv) == 4:
        grimp_build(sys.argv[2], sys.argv[3])
    elif sys.argv[1:2] == ["table"] and len(sys.argv) == 3:
        table(sys.argv[2])
    else:
        sys.exit(__doc__)
