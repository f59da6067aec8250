#!/usr/bin/env python3
# The engine's layers (src/libdecipher/README.md): a file includes headers of its own
# folder and of the folders below it, never of a folder above, so no circle of includes
# can span two folders. The front ends (src/app, src/cli) include the engine only through
# its public headers: never a `*-private.h`. Reads every #include "…" of the sources and
# reports each arrow that runs the wrong way, with the file and line.
#
# Usage: test-layers.py SOURCE_ROOT [--front-ends]
# SPDX-License-Identifier: GPL-3.0-or-later
import os
import re
import sys

LAYERS = ["base", "pdf", "document", "key", "evidence", "text", "session"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def engine_files(engine):
    """Every source and header of the engine, by name, with the layer it sits in."""
    where = {}
    for rank, layer in enumerate(LAYERS):
        folder = os.path.join(engine, layer)
        for name in sorted(os.listdir(folder)):
            if name.endswith((".c", ".cc", ".h")):
                if name in where:
                    sys.exit("Bail out! %s is in two layers" % name)
                where[name] = (rank, os.path.join(folder, name))
    return where


def includes(path):
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                yield number, os.path.basename(m.group(1))


def check_engine(where, engine):
    problems = []
    stray = [n for n in os.listdir(engine)
             if n.endswith((".c", ".cc", ".h")) and n != "decipher.h"]
    for name in stray:
        problems.append("src/libdecipher/%s sits in no layer" % name)
    for name, (rank, path) in sorted(where.items()):
        for number, included in includes(path):
            if included not in where:
                continue  # config.h, system and library headers
            to_rank = where[included][0]
            if to_rank > rank:
                problems.append("%s/%s:%d includes %s of %s/, a layer above"
                                % (LAYERS[rank], name, number, included, LAYERS[to_rank]))
    return problems


def check_front_ends(where, root):
    problems = []
    for front in ("src/app", "src/cli"):
        folder = os.path.join(root, front)
        for name in sorted(os.listdir(folder)):
            if not name.endswith((".c", ".h")):
                continue
            for number, included in includes(os.path.join(folder, name)):
                if included in where and included.endswith("-private.h"):
                    problems.append("%s/%s:%d includes the engine's private %s"
                                    % (front, name, number, included))
    return problems


def main():
    root = sys.argv[1]
    engine = os.path.join(root, "src", "libdecipher")
    where = engine_files(engine)
    checks = [("engine includes run down the layers", check_engine(where, engine))]
    if "--front-ends" in sys.argv[2:]:
        checks.append(("front ends include no private engine header",
                       check_front_ends(where, root)))
    print("1..%d" % len(checks))
    failed = 0
    for i, (what, problems) in enumerate(checks, 1):
        if problems:
            failed += 1
            print("not ok %d - %s" % (i, what))
            for p in problems:
                print("# %s" % p)
        else:
            print("ok %d - %s (%d engine files read)" % (i, what, len(where)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
