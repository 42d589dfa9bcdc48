"""Whole-repo check: copy the repo, add __init__.py to every folder with .py files, run grimp on all
top-level packages, compare with the oracle's edges (restricted to modules grimp knows)."""
import sys, os, shutil, tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
import ast_oracle as o
import grimp
root = sys.argv[1]; srcdirs = sys.argv[2].split(','); drop = sys.argv[3].split(',') if len(sys.argv) > 3 else []
g = o.build_graph(root)
name = {p: m.name for p, m in g.modules.items()}
tmp = tempfile.mkdtemp()
added = []
for p in g.modules:
    dst = os.path.join(tmp, p); os.makedirs(os.path.dirname(dst), exist_ok=True)
    if p in drop: open(dst, 'w').write(''.join(open(os.path.join(root, p)).readlines()[:10])); continue
    shutil.copy(os.path.join(root, p), dst)
pkgs = set()
for sd in srcdirs:
    base = os.path.join(tmp, sd) if sd != '.' else tmp
    for top in os.listdir(base):
        if os.path.isdir(os.path.join(base, top)) and (sd == '.' and top != 'src' or sd != '.'):
            pkgs.add((sd, top))
for dp, dn, fn in os.walk(tmp):
    if dp != tmp and not (dp == os.path.join(tmp, 'src')) and '__init__.py' not in fn:
        open(os.path.join(dp, '__init__.py'), 'w').close(); added.append(os.path.relpath(dp, tmp))
for sd in srcdirs: sys.path.insert(0, os.path.join(tmp, sd) if sd != '.' else tmp)
names = sorted(t for _, t in pkgs)
print('packages', names, 'added __init__ in', len(added), 'folders')
for runtime in (False, True):
    G = grimp.build_graph(*names, cache_dir=None, exclude_type_checking_imports=runtime)
    addedmods = {a.replace(os.sep, '.').removeprefix('src.') for a in added}
    theirs = {(m, d) for m in G.modules for d in G.find_modules_directly_imported_by(m) if m != d}
    theirs_clean = {e for e in theirs if e[0] not in addedmods and e[1] not in addedmods}
    ours = {(name[a], name[b]) for (a, b), e in g.edges.items() if not (runtime and e['type_checking']) and name[a] and name[b]}
    both = ours & theirs_clean
    print(f"runtime={runtime}: oracle {len(ours)}, grimp {len(theirs_clean)} (+{len(theirs)-len(theirs_clean)} to/from added __init__), both {len(both)}, agreement {100*len(both)/len(ours|theirs_clean):.3f}%")
    for e in sorted(ours ^ theirs_clean)[:30]: print('   diff', e, 'only oracle' if e in ours else 'only grimp')
    for e in sorted(theirs - theirs_clean)[:10]: print('   (added-init edge)', e, G.get_import_details(importer=e[0], imported=e[1])[:1])
