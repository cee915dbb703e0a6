#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""apply.py [--check] [--field KEY] TREE MUTANT.mut - apply one mutant to a
scratch copy of the tree (tests/mutants/run.sh), or only check that it
applies (--check), or print one header field (--field what|tests|...).

A mutant file holds "key: value" lines ('#' starts a comment line):
  what:   the bug, one line
  tests:  the guest tests that must catch it (space-separated names)
  kernels: generic or rt: only there (the bug cannot show elsewhere)
  known-survivor: yes, why no test catches it (optional)
and one or more edits, each:
  in:     a glob of files relative to the tree (kernel/*.[ch]); it carries
          over to the next edit
  line:   the text of one source line, without its leading and trailing
          white space (compared whole), or
  re:     a Python regular expression searched in each line
  to:     a replacement line (repeat for several; none deletes the line),
          indented by the matched line's indentation plus its own

An edit whose pattern matches no line, or more than one line, over its
glob refuses the mutant (exit 1, with the matches): the code it mutates
has changed, and the mutant must be rewritten for it.  Matching is by
content only, so the mutant follows the line when code moves between
files.  Prints one "file:line" per edit applied.
"""
import glob
import os
import re
import sys


def parse(path):
    head, edits, cur, glob_ = {}, [], None, None
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            key, sep, val = line.partition(":")
            if not sep:
                sys.exit(f"{path}:{n}: not 'key: value'")
            val = val[1:] if val.startswith(" ") else val
            key = key.strip()
            if key == "in":
                glob_ = val.strip()
            elif key in ("line", "re"):
                if not glob_:
                    sys.exit(f"{path}:{n}: '{key}:' before any 'in:'")
                cur = {"glob": glob_, "kind": key, "pat": val.strip()
                       if key == "line" else val, "to": [], "n": n}
                edits.append(cur)
            elif key == "to":
                if cur is None:
                    sys.exit(f"{path}:{n}: 'to:' before any 'line:' or 're:'")
                cur["to"].append(val.rstrip())
            elif key in ("what", "tests", "kernels", "known-survivor"):
                head[key] = val.strip()
            else:
                sys.exit(f"{path}:{n}: unknown key '{key}'")
    for k in ("what", "tests"):
        if not head.get(k):
            sys.exit(f"{path}: no '{k}:'")
    if not edits:
        sys.exit(f"{path}: no edit ('in:' and 'line:' or 're:')")
    return head, edits


def matches(tree, e):
    found = []
    rx = re.compile(e["pat"]) if e["kind"] == "re" else None
    for p in sorted(glob.glob(os.path.join(tree, e["glob"]))):
        with open(p, encoding="utf-8") as f:
            lines = f.read().split("\n")
        for i, l in enumerate(lines):
            if (rx.search(l) if rx else l.strip() == e["pat"]):
                found.append((p, i, lines))
    return found


def main():
    args = sys.argv[1:]
    check = field = None
    while args and args[0].startswith("--"):
        if args[0] == "--check":
            check = True
            args = args[1:]
        elif args[0] == "--field" and len(args) > 1:
            field = args[1]
            args = args[2:]
        else:
            break
    if len(args) != 2:
        sys.exit(__doc__.split("\n\n")[0])
    tree, mut = args
    head, edits = parse(mut)
    if field:
        print(head.get(field, ""))
        return 0
    todo = []
    for e in edits:
        found = matches(tree, e)
        if len(found) != 1:
            print(f"{os.path.basename(mut)}: edit at line {e['n']} ({e['kind']}: "
                  f"{e['pat']}) matches {len(found)} lines of {e['glob']}, "
                  "not exactly one: rewrite the mutant for the code as it is now")
            for p, i, lines in found[:5]:
                print(f"    {os.path.relpath(p, tree)}:{i + 1}: {lines[i].strip()}")
            return 1
        todo.append((e, found[0]))
    if check:
        return 0
    for e, _ in todo:
        # Found again: an earlier edit may have moved the line.
        found = matches(tree, e)
        if len(found) != 1:
            print(f"{os.path.basename(mut)}: edit at line {e['n']} no longer "
                  "matches once after the edits before it")
            return 1
        p, i, lines = found[0]
        indent = lines[i][:len(lines[i]) - len(lines[i].lstrip())]
        lines[i:i + 1] = [indent + t for t in e["to"]]
        with open(p, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
        print(f"{os.path.relpath(p, tree)}:{i + 1}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
