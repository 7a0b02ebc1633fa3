#!/usr/bin/env python3
"""Functions over 150 lines in src/: each `fn`'s body measured from its
signature to its closing brace, with comments, strings, raw strings and
char literals skipped so a brace inside them does not count. Test modules
count too (a long test reads no better). A function listed in
docs/code-map.md's "Long functions" section, with why, is allowed; any
other exits 1 naming the file, line, function and length. Run by .ci/run."""
import os, re, sys

LIMIT = 150
here = os.path.dirname(os.path.abspath(__file__))
roots = [os.path.join(here, '..', 'src')] + sorted(
    os.path.join(here, '..', 'crates', c, 'src') for c in os.listdir(os.path.join(here, '..', 'crates')))
code_map = os.path.join(here, '..', 'docs', 'code-map.md')


def strip(src):
    """The source with comments, strings and char literals blanked (newlines
    kept, so line numbers stay)."""
    out = []
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith('//', i):
            j = src.find('\n', i)
            j = n if j < 0 else j
            i = j
        elif src.startswith('/*', i):
            depth, j = 1, i + 2
            while j < n and depth:
                if src.startswith('/*', j): depth += 1; j += 2
                elif src.startswith('*/', j): depth -= 1; j += 2
                else: j += 1
            out.append(re.sub(r'[^\n]', ' ', src[i:j])); i = j
        elif re.match(r'b?r#*"', src[i:i + 20]):
            m = re.match(r'b?r(#*)"', src[i:])
            end = '"' + m.group(1)
            j = src.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            out.append(re.sub(r'[^\n]', ' ', src[i:j])); i = j
        elif c == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == '\\' else 1
            out.append(re.sub(r'[^\n]', ' ', src[i:j + 1])); i = j + 1
        elif c == "'":
            m = re.match(r"'(\\.[^']*|[^\\'])'", src[i:])
            if m:
                out.append(' ' * m.end()); i += m.end()
            else:
                out.append(c); i += 1  # a lifetime
        else:
            out.append(c); i += 1
    return ''.join(out)


def functions(path):
    src = strip(open(path, encoding='utf-8').read())
    for m in re.finditer(r'\bfn\s+(\w+)', src):
        start = m.start()
        # The body's opening brace: the first `{` after the signature, unless
        # a `;` ends it first (a trait's declaration).
        k = start
        while k < len(src) and src[k] not in '{;':
            k += 1
        if k >= len(src) or src[k] == ';':
            continue
        depth, j = 0, k
        while j < len(src):
            if src[j] == '{': depth += 1
            elif src[j] == '}':
                depth -= 1
                if depth == 0: break
            j += 1
        first = src.count('\n', 0, start) + 1
        last = src.count('\n', 0, j) + 1
        yield m.group(1), first, last - first + 1


def allowed():
    """`file::function` names listed under docs/code-map.md's "Long functions"."""
    try:
        text = open(code_map, encoding='utf-8').read()
    except OSError:
        return set()
    part = text.split('## Long functions', 1)
    if len(part) < 2:
        return set()
    section = part[1].split('\n## ', 1)[0]
    return set(re.findall(r'`((?:crates/\w+/)?src/[\w/]+\.rs::\w+)`', section))


def main():
    ok = allowed()
    long = []
    for d, _, fs in (w for root in roots for w in os.walk(root)):
        for f in sorted(fs):
            if not f.endswith('.rs'):
                continue
            p = os.path.join(d, f)
            rel = os.path.relpath(p, os.path.join(here, '..'))
            for name, line, length in functions(p):
                if length > LIMIT:
                    long.append((rel, name, line, length))
    bad = [x for x in long if '%s::%s' % (x[0], x[1]) not in ok]
    for rel, name, line, length in long:
        mark = 'over' if (rel, name, line, length) in bad else 'named in docs/code-map.md'
        print('%s:%d: fn %s is %d lines (%s)' % (rel, line, name, length, mark))
    if bad:
        print('%d function(s) over %d lines not named in docs/code-map.md' % (len(bad), LIMIT))
        sys.exit(1)
    print('no function over %d lines but those named in docs/code-map.md' % LIMIT)


main()
