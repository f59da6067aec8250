#!/usr/bin/env python3
# Checks that a change to the matcher leaves its answers as they were: asks two builds of
# `decipher-cli session` the same fresh `type` queries on one document (words taken from
# the lines of TRUTH.json: five words and one word without a cue, three words with the
# line as cue, as bench/bench-latency.py asks them) and prints every query whose replies
# differ. A `type` that learned something is undone before the next query, so each query
# sees the document as it was opened.
#
# Usage: compare-type.py OLD_CLI NEW_CLI FILE.pdf TRUTH.json [--queries N] [--seed S]
# Exits 1 when some reply differs.
# SPDX-License-Identifier: GPL-3.0-or-later
import argparse
import json
import os
import random
import subprocess
import sys


class Session:
    def __init__(self, cli, pdf):
        env = dict(os.environ, DECIPHER_DOCUMENT_CACHE="0", DECIPHER_LIBRARY="")
        self.process = subprocess.Popen([cli, "session", pdf], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, encoding="utf-8",
                                        env=env)

    def ask(self, **request):
        self.process.stdin.write(json.dumps(request, ensure_ascii=False) + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def fresh_type(self, **request):
        reply = self.ask(cmd="type", **request)
        if reply.get("result") == "assigned" and reply.get("assigned"):
            undone = self.ask(cmd="undo")
            assert undone.get("ok"), (request, reply, undone)
        return reply

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def queries(truth_path, n, seed):
    truth = json.load(open(truth_path, encoding="utf-8"))
    lines = [line["text"] for page in truth["pages"] for line in page["lines"]]
    rng = random.Random(seed)
    for _ in range(n):
        line = rng.randrange(len(lines))
        words = [w for w in lines[line].split(" ") if w]
        if not words:
            continue
        t = rng.randrange(max(1, len(words) - 4))
        yield {"text": " ".join(words[t:t + 5])}
        yield {"text": rng.choice(words)}
        t = rng.randrange(max(1, len(words) - 2))
        yield {"text": " ".join(words[t:t + 3]), "line": line}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("pdf")
    ap.add_argument("truth")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()

    old, new = Session(args.old, args.pdf), Session(args.new, args.pdf)
    asked = differ = 0
    kinds = {}
    for request in queries(args.truth, args.queries, args.seed):
        a, b = old.fresh_type(**request), new.fresh_type(**request)
        asked += 1
        kinds[a.get("result")] = kinds.get(a.get("result"), 0) + 1
        if a != b:
            differ += 1
            print(f"differs: {json.dumps(request, ensure_ascii=False)}\n  old {a}\n  new {b}")
    old.close()
    new.close()
    print(f"{os.path.basename(args.pdf)}: {asked} queries, {differ} replies differ; old results: "
          + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items(), key=str)))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
