"""grimp on a copy of the package with __init__.py added to namespace folders; compare all in-package edges."""
import sys, os, shutil, tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
import ast_oracle as o
import grimp
root, pkg, srcdir = sys.argv[1], sys.argv[2], sys.argv[3]
g = o.build_graph(root)
name = {p: m.name for p, m in g.modules.items()}
inpkg = lambda n: bool(n) and (n == pkg or n.startswith(pkg + '.'))
tmp = tempfile.mkdtemp()
shutil.copytree(os.path.join(root, srcdir, pkg), os.path.join(tmp, pkg))
added = []
for dp, dn, fn in os.walk(os.path.join(tmp, pkg)):
    if any(f.endswith('.py') for f in fn) and '__init__.py' not in fn:
        open(os.path.join(dp, '__init__.py'), 'w').close(); added.append(os.path.relpath(dp, tmp).replace(os.sep, '.'))
sys.path.insert(0, tmp)
for runtime in (False, True):
    G = grimp.build_graph(pkg, cache_dir=None, exclude_type_checking_imports=runtime)
    theirs = {(m, d) for m in G.modules for d in G.find_modules_directly_imported_by(m) if m != d and m not in added and d not in added}
    ours = {(name[a], name[b]) for (a, b), e in g.edges.items() if inpkg(name[a]) and inpkg(name[b]) and not (runtime and e['type_checking'])}
    both = ours & theirs
    print(f"runtime={runtime}: added __init__ to {added}; oracle {len(ours)}, grimp {len(theirs)}, both {len(both)}, agreement {100*len(both)/len(ours|theirs):.2f}%")
    for e in sorted(ours ^ theirs): print('   diff', e, 'only oracle' if e in ours else 'only grimp')
    # SCCs on grimp's edges
    class GG: pass
    gg = o.Graph(root='', modules={m: None for m in G.modules}, by_name={}, edges={e: {'type_checking': False} for e in theirs})
    print('   grimp SCC sizes', [len(c) for c in o.cycles(gg)])
