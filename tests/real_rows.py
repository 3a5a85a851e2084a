#!/usr/bin/env python3
"""Compare the real libraries' rows of two FORMAT-real.json files, row by row.

    real_rows.py COMMITTED.json COMMITTED.md THIS.json THIS.md

A real row's figures depend on the CPU's vector dispatch and the library's
version, which each row names (cpu, isa, library, version, call, path).  A
row whose figures differ between the two files is explained when the rows
were measured on CPUs with different extensions or with another library
version: it is printed with the extensions only one of the CPUs has.  Rows
that differ on the same extensions and versions are not explained: exit 1.
Rows written before the JSON named the machine take it from their page's
machine line (COMMITTED.md).  Exit 0: every difference explained.
"""
import json
import re
import sys

# What describes a row rather than measuring it.
DESCRIPTIVE = {'models', 'formula', 'computes', 'cpu', 'isa', 'library', 'version', 'call',
               'path'}


def page_machine(md):
    """(cpu, isa) of a page's machine line, or ('unknown CPU', '')."""
    with open(md, encoding='utf-8') as f:
        m = re.search(r'^Real libraries measured on: (.*?) \(([^)]*)\);', f.read(), re.M)
    return (m.group(1), m.group(2)) if m else ('unknown CPU', '')


def machine(row, fallback):
    """(cpu, isa set, 'library version') of a row."""
    cpu, isa = fallback
    cpu, isa = row.get('cpu', cpu), row.get('isa', isa)
    if 'library' in row:
        lib = '%s %s' % (row['library'], row['version'])
    else:  # models: "LIBRARY VERSION: call; path"
        lib = row['models'].split(': ', 1)[0]
    return cpu, set(isa.split()), lib


def figures(row):
    return {k: v for k, v in row.items() if k not in DESCRIPTIVE}


def differences(a, b, prefix=''):
    """The keys (dotted) whose values differ, at most a few."""
    out = []
    for k in sorted(set(a) | set(b)):
        if isinstance(a.get(k), dict) and isinstance(b.get(k), dict):
            out += differences(a[k], b[k], prefix + k + '.')
        elif a.get(k) != b.get(k):
            out.append('%s%s %s -> %s' % (prefix, k, a.get(k), b.get(k)))
    return out


def main(committed_json, committed_md, this_json, this_md):
    with open(committed_json, encoding='utf-8') as f:
        old = {(r['impl'], r['reference']): r for r in json.load(f)}
    with open(this_json, encoding='utf-8') as f:
        new = {(r['impl'], r['reference']): r for r in json.load(f)}
    old_fb, new_fb = page_machine(committed_md), page_machine(this_md)
    unexplained = 0
    for key in sorted(set(old) | set(new)):
        name = '%s against %s' % key
        if key not in new:
            print('%s: committed, not measured here' % name)
            continue
        if key not in old:
            print('%s: measured here, not in the committed page' % name)
            continue
        if figures(old[key]) == figures(new[key]):
            print('%s: same figures' % name)
            continue
        (cpu_a, isa_a, lib_a), (cpu_b, isa_b, lib_b) = (machine(old[key], old_fb),
                                                        machine(new[key], new_fb))
        diff = differences(figures(old[key]), figures(new[key]))
        shown = '; '.join(diff[:3]) + ('; ...' if len(diff) > 3 else '')
        if isa_a == isa_b and lib_a == lib_b:
            unexplained += 1
            print('%s: DIFFERS on the same CPU extensions (%s) and library (%s): %s'
                  % (name, ' '.join(sorted(isa_a)), lib_a, shown))
            continue
        why = []
        if isa_a - isa_b:
            why.append('only the committed CPU has %s' % ' '.join(sorted(isa_a - isa_b)))
        if isa_b - isa_a:
            why.append('only this CPU has %s' % ' '.join(sorted(isa_b - isa_a)))
        if lib_a != lib_b:
            why.append('library %s here, %s committed' % (lib_b, lib_a))
        print("%s: differs, explained: committed on '%s', here '%s': %s: %s"
              % (name, cpu_a, cpu_b, ', '.join(why), shown))
    return 1 if unexplained else 0


if __name__ == '__main__':
    if len(sys.argv) != 5:
        sys.exit('usage: real_rows.py COMMITTED.json COMMITTED.md THIS.json THIS.md')
    sys.exit(main(*sys.argv[1:]))
