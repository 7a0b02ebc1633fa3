#!/usr/bin/env python3
"""The shape of the imports inside each crate (src/ and crates/*/src/),
checked by .ci/run (circles between crates the compiler refuses):
- no import circle between any two files of a crate: each file's `crate::` and
  `super::` paths, resolved to the file they name (a folder's mod.rs for the
  folder), and the strongly connected components of that graph;
- no editor feature reaching into another feature's internals: a feature is
  a folder of `crates/tui/src/` with a `state.rs` (the one template); another
  feature may use its `state` (its state and actions) and what its `mod.rs`
  offers, never its `update`, `keys`, `view` or helpers; and no feature
  imports `view/`, which composes the features' views (the theme
  and the layout constants are below the features).
Test modules are left out. Exits 1, naming the files and their edges."""
import os, re, sys
here=os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
def check(root):
    files={}
    for d,_,fs in os.walk(root):
        for f in fs:
            if f.endswith('.rs'):
                p=os.path.join(d,f)
                mod=p[len(root)+1:-3].replace('/','::')
                if mod.endswith('::mod'): mod=mod[:-5]
                if mod in ('lib','main'): mod='crate_root_'+mod
                files[mod]=p
    mods=set(files)
    def resolve(cur, path):
        parts=path.split('::')
        if parts[0]=='crate': base=[]; parts=parts[1:]
        elif parts[0]=='super':
            base=cur.split('::')
            # a file module: super is its parent
            while parts and parts[0]=='super':
                base=base[:-1]; parts=parts[1:]
        elif parts[0]=='self': base=cur.split('::'); parts=parts[1:]
        else: return None
        full=base+parts
        # longest prefix that is a module
        for n in range(len(full),0,-1):
            m='::'.join(full[:n])
            if m in mods: return m
        return None
    edges={m:set() for m in mods}
    for m,p in files.items():
        src=open(p).read()
        # strip test modules
        src=re.split(r'#\[cfg\(test\)\]\s*mod tests', src)[0]
        for mm in re.finditer(r'\b((?:crate|super)(?:::\w+)+)', src):
            t=resolve(m, mm.group(1))
            if t and t!=m and not m.startswith(t+'::') and not t.startswith(m+'::'):
                edges[m].add(t)
    # find cycles among editor files via SCC
    sys.setrecursionlimit(10000)
    index={}; low={}; st=[]; on=set(); sccs=[]; c=[0]
    def sc(v):
        index[v]=low[v]=c[0]; c[0]+=1; st.append(v); on.add(v)
        for w in edges[v]:
            if w not in index: sc(w); low[v]=min(low[v],low[w])
            elif w in on: low[v]=min(low[v],index[w])
        if low[v]==index[v]:
            comp=[]
            while True:
                w=st.pop(); on.discard(w); comp.append(w)
                if w==v: break
            if len(comp)>1: sccs.append(sorted(comp))
    for v in sorted(mods):
        if v not in index: sc(v)
    for comp in sccs:
        ss=set(comp)
        print('import circle: ' + ', '.join(comp))
        for m in comp:
            print('  %s -> %s' % (m, ', '.join(sorted(edges[m] & ss))))
    
    # The editor's features: the folders of the editor crate with a state.rs.
    features={f for f in os.listdir(root)
              if os.path.isfile(os.path.join(root,f,'state.rs'))} if root.endswith('tui/src') else set()
    def feature(m):
        parts=m.split('::')
        return parts[0] if parts[0] in features else None
    reaches=[]
    for m in sorted(mods):
        f=feature(m)
        if not f: continue
        for t in sorted(edges[m]):
            g=feature(t)
            if g and g!=f and t not in (g, g+'::state'):
                reaches.append((m,t,'reaches into another feature'))
            # The screen's composition is above the features: they draw
            # their part with the theme and layout below them.
            if t=='view' or t.startswith('view::'):
                reaches.append((m,t,'imports the view above the features'))
    for m,t,why in reaches:
        print('%s %s: %s' % (m,why,t))
    print('%s: %d files, %d import circles, %d features, %d reaches' % (os.path.relpath(root, here), len(mods), len(sccs), len(features), len(reaches)))
    return bool(sccs or reaches)


roots=[os.path.join(here,'src')]+sorted(os.path.join(here,'crates',c,'src') for c in os.listdir(os.path.join(here,'crates')))
bad=[check(r) for r in roots]
if any(bad):
    sys.exit(1)
print('no import circle in any crate; no feature reaches into another\'s internals')
