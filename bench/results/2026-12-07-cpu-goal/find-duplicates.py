#!/usr/bin/env python3
"""Rules of a rule folder declared twice: the same directed rule up to variable names.

    python3 bench/results/2026-12-07-cpu-goal/find-duplicates.py rules/extended

A rule is compared by its sides and its condition (conjuncts sorted, same_shape's arguments
ordered), variables renamed in order
of first appearance; a `<=>` declaration stands for both directions. Prints each declaration all
of whose directions an earlier one (in load order: files sorted by name) already declares, and
each `<=>` declaration whose two directions are one rule. Text-level, for rules as
`mctsat rules synthesize` writes them (one rule per paragraph)."""
import glob
import re
import sys


def canon(lhs, rhs, where):
    names = {}

    def rename(match):
        return names.setdefault(match.group(0), '?v%d' % len(names))

    lhs, rhs = re.sub(r'\?\w+', rename, lhs), re.sub(r'\?\w+', rename, rhs)
    where = re.sub(r'\?\w+', rename, where)
    # same_shape is symmetric: its two arguments in a fixed order.
    where = re.sub(r'same_shape\((\?\w+), (\?\w+)\)',
                   lambda m: 'same_shape(%s, %s)' % tuple(sorted(m.groups())), where)
    return lhs, rhs, ' and '.join(sorted(c.strip() for c in where.split(' and '))) if where else ''


seen = {}
for path in sorted(glob.glob(sys.argv[1] + '/*.rules')):
    text = open(path).read()
    for m in re.finditer(r'^rule ([\w-]+):\n(.*?)(?=\n\n|\Z)', text, re.S | re.M):
        name, body = m.group(1), ' '.join(re.sub(r'#.*', '', m.group(2)).split())
        found = re.search(r' where (.*)$', body)
        where = found.group(1) if found else ''
        if found:
            body = body[:found.start()]
        both = '<=>' in body
        lhs, rhs = body.split(' <=> ' if both else ' => ')
        directions = [canon(lhs, rhs, where)] + ([canon(rhs, lhs, where)] if both else [])
        if both and directions[0] == directions[1]:
            print(f'{path}: {name}: its two directions are one rule')
        if all(d in seen for d in directions):
            print(f'{path}: {name}: declared before as {", ".join(sorted({seen[d] for d in directions}))}')
        for d in directions:
            seen.setdefault(d, name)
