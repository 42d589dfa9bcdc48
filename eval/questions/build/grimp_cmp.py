import sys, json, importlib.util, os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
import ast_oracle as o
import grimp
root, pkg, srcdir = sys.argv[1], sys.argv[2], sys.argv[3]
g = o.build_graph(root)
sd = os.path.abspath(os.path.join(root, srcdir)); sys.path.insert(0, sd)
def gr(excl):
    gg = grimp.build_graph(pkg, include_external_packages=False, exclude_type_checking_imports=excl, cache_dir=None)
    return gg, {(m, d) for m in gg.modules for d in gg.find_modules_directly_imported_by(m)}
G, ge = gr(False); GR, ger = gr(True)
inpkg = lambda n: n == pkg or n.startswith(pkg + '.')
name = {p: m.name for p, m in g.modules.items()}
mods = {name[p] for p in g.modules if name[p] and inpkg(name[p])}
ns = {name[p] for p, m in g.modules.items() if m.namespace_sub and name[p] and inpkg(name[p])}
print('oracle modules in package', len(mods), 'namespace', len(ns), 'grimp modules', len(G.modules), 'module sets equal (minus ns):', (mods - ns) == set(G.modules))
def mine(runtime):
    return {(name[a], name[b]) for (a, b), e in g.edges.items() if inpkg(name[a] or '') and inpkg(name[b] or '') and not (runtime and e['type_checking'])}
for label, ours_all, theirs in (('all', mine(False), ge), ('runtime', mine(True), ger)):
    ours = {e for e in ours_all if e[0] not in ns and e[1] not in ns}
    theirs_noself = {e for e in theirs if e[0] != e[1]}
    both = ours & theirs_noself
    print(f'[{label}] oracle {len(ours)} (+{len(ours_all)-len(ours)} touching namespace), grimp {len(theirs)} ({len(theirs)-len(theirs_noself)} self-loops), both {len(both)}, agreement {len(both)}/{len(ours|theirs_noself)} = {100*len(both)/len(ours|theirs_noself):.2f}%')
    for e in sorted(ours - theirs_noself): print('   only oracle', e)
    for e in sorted(theirs_noself - ours): print('   only grimp', e, G.get_import_details(importer=e[0], imported=e[1]))
