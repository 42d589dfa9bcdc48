"""Shared builder helpers (not a deliverable): turns question specs into JSONL lines,
deriving oracle answers and convention variants with eval/ast_oracle.py + eval/check_questions.py,
and re-deriving each answer on grimp's whole-repo graph to state whether grimp agrees."""
import os, sys, json, pickle, shlex
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
import ast_oracle as o
import check_questions as cq

GRAPH_OPS = {"imports-of", "imported-by", "impact", "cycles", "cycle-of", "most-imported"}

class Builder:
    def __init__(self, repo, version, root, extra_roots, grimp_pickle, grimp_note):
        self.repo, self.version, self.root, self.extra_roots = repo, version, root, list(extra_roots)
        self.g = o.build_graph(root)
        self.gn = o.build_graph(root, no_namespace=True)
        self.ge = o.build_graph(root, extra_roots=tuple(extra_roots))
        self.gg = pickle.load(open(grimp_pickle, 'rb'))
        self.grimp_note = grimp_note
        self.items = []

    def cmd(self, q, extra=""):
        parts = ["python3 eval/ast_oracle.py --root", self.root] + ([extra] if extra else []) + [q["op"]]
        if "module" in q: parts.append(q["module"])
        if "name" in q: parts.append(shlex.quote(q["name"]))
        if q.get("runtime"): parts.append("--runtime")
        if "top" in q: parts.append(f"--top {q['top']}")
        if q.get("within"): parts.append(f"--within {q['within']}")
        return " ".join(parts)

    def structural(self, category, question, q, fields, reference, read, conv_refs=None):
        conv_refs = conv_refs or {}
        d = cq.derive(self.g, q)
        keep = lambda dd: {k: dd[k] for k in ["modules"] + fields if k in dd and not (k == "ranking_ties" and not dd[k])}
        expected = dict(keep(d), reference=reference)
        variants = {}
        note = {"largest": " (answer: the first, largest SCC listed)", "count": " (answer: the number of SCCs listed)"}
        cmds = [self.cmd(q) + (note[q["select"]] if q["op"] == "cycles" else "")]
        cand = []
        if not q.get("runtime") and q["op"] not in ("defined-in", "exports"):
            cand.append(("runtime_only", cq.derive(self.g, dict(q, runtime=True)), self.cmd(dict(q, runtime=True))))
        cand.append(("grimp_no_namespace", cq.derive(self.gn, q), self.cmd(q, "--no-namespace")))
        cand.append(("extra_source_roots", cq.derive(self.ge, q),
                     self.cmd(q, " ".join(f"--extra-root {r}" for r in self.extra_roots))))
        for name, dv, c in cand:
            if keep(dv) != keep(d):
                if name not in conv_refs:
                    raise SystemExit(f"need a reference for {name} in {question!r}: {keep(dv)}")
                v = dict(keep(dv), reference=conv_refs[name])
                if name == "extra_source_roots":
                    v["roots"] = self.extra_roots
                variants[name] = v
                cmds.append(c + f"   [{name}]")
            elif name in conv_refs:
                raise SystemExit(f"{name} does not differ for {question!r}")
        if q["op"] in GRAPH_OPS:
            dg = cq.derive(self.gg, q)
            agree = keep(dg) == keep(d)
            gnote = (f"grimp 3.20 agreed: the same query answered on grimp's graph of the whole repo "
                     f"({self.grimp_note}) gives the same result" if agree else "grimp DISAGREED")
            if not agree:
                raise SystemExit(f"grimp disagrees on {question}: {keep(dg)} vs {keep(d)}")
        else:
            gnote = "grimp has no equivalent query (not a graph question)"
        item = {"category": category, "question": question, "answerable": True, "expected": expected,
                "convention_sensitive": bool(variants)}
        if variants:
            item["conventions"] = variants
        item["oracle_query"] = q
        item["provenance"] = {"method": "read+oracle" if read else "oracle", **({"read": read} if read else {}),
                              "oracle": "; ".join(cmds) + ". " + gnote + "."}
        self.items.append(item)

    def read(self, category, question, modules, reference, read, **extra):
        exp = {"modules": modules, **extra, "reference": reference}
        self.items.append({"category": category, "question": question, "answerable": category != "unanswerable",
                           "expected": exp, "convention_sensitive": False,
                           "provenance": {"method": "read", "read": read}})

    def write(self, path):
        with open(path, "w", encoding="utf-8") as f:
            for i, it in enumerate(self.items, start=1):
                line = {"id": f"{self.repo}-{i:03d}", "repo": self.repo, "version": self.version, **it}
                order = ["id", "repo", "version", "category", "question", "answerable", "expected",
                         "convention_sensitive", "conventions", "oracle_query", "provenance"]
                line = {k: line[k] for k in order if k in line}
                f.write(json.dumps(line, ensure_ascii=False) + "\n")
        print("wrote", path, len(self.items))
