"""Build an ast_oracle.Graph from grimp's edges over the whole repo (copy with __init__.py added
to every folder with .py files), so that answers can be recomputed on grimp's graph."""
import sys, os, shutil, tempfile, pickle
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
import ast_oracle as o
import grimp
root, srcdirs, out = sys.argv[1], sys.argv[2].split(','), sys.argv[3]
g = o.build_graph(root)
tmp = tempfile.mkdtemp()
for p, m in g.modules.items():
    dst = os.path.join(tmp, p); os.makedirs(os.path.dirname(dst), exist_ok=True)
    if m.parse_error:  # grimp cannot parse it: keep the lines before the error, as the oracle does
        lines = open(os.path.join(root, p)).readlines()
        open(dst, 'w').write(''.join(lines[:10]))
    else:
        shutil.copy(os.path.join(root, p), dst)
for dp, dn, fn in os.walk(tmp):
    if dp != tmp and dp != os.path.join(tmp, 'src') and '__init__.py' not in fn:
        open(os.path.join(dp, '__init__.py'), 'w').close()
pkgs = set()
for sd in srcdirs:
    base = os.path.join(tmp, sd) if sd != '.' else tmp
    for top in os.listdir(base):
        if os.path.isdir(os.path.join(base, top)) and not (sd == '.' and top == 'src' and 'src' in srcdirs):
            pkgs.add(top)
    sys.path.insert(0, base)
G = grimp.build_graph(*sorted(pkgs), cache_dir=None)
GR = grimp.build_graph(*sorted(pkgs), cache_dir=None, exclude_type_checking_imports=True)
rt = {(m, d) for m in GR.modules for d in GR.find_modules_directly_imported_by(m)}
edges = {}
for m in G.modules:
    for d in G.find_modules_directly_imported_by(m):
        if m != d and m in g.by_name and d in g.by_name:
            edges[(g.by_name[m], g.by_name[d])] = {"lines": [], "type_checking": (m, d) not in rt}
gg = o.Graph(root=g.root, modules=g.modules, by_name=g.by_name, edges=edges)
pickle.dump(gg, open(out, 'wb'))
print('grimp graph', len(edges), 'edges; oracle', len(g.edges), 'equal:', set(edges) == set(g.edges),
      'tc equal:', all(edges[k]['type_checking'] == g.edges[k]['type_checking'] for k in edges if k in g.edges))
