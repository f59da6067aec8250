#!/usr/bin/env python3
# Query latency of `decipher-cli session` on a large document (DESIGN §6: a `type` query
# on a 1 M-glyph document answers in a median under 10 ms, `suggest` under 100 ms).
#
# Usage: bench-latency.py DECIPHER_CLI FILE.pdf TRUTH.json [--queries N]
# Make a 1 M-glyph PDF and its truth, e.g. from the UDHR texts in shared/:
#   cat udhr_{rus,yrk,niv,sah,eve,evn,ykg}.txt > big.txt
#   python3 tests/fixtures/generate.py --kind legacy --text big.txt --pages-min 480 \
#       --out big.pdf --truth big.json
# It times single words with no cue (the hardest case: every run of that length is a
# candidate), three-word windows with their line as cue, and `suggest` as the user
# progresses.
# SPDX-License-Identifier: GPL-3.0-or-later
import argparse
import json
import random
import statistics
import subprocess
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli")
    ap.add_argument("pdf")
    ap.add_argument("truth")
    ap.add_argument("--queries", type=int, default=60)
    args = ap.parse_args()

    truth = json.load(open(args.truth, encoding="utf-8"))
    lines = [line["text"] for page in truth["pages"] for line in page["lines"]]
    n_glyphs = sum(len(line.get("glyphs", [])) for page in truth["pages"] for line in page["lines"])
    rng = random.Random(7)

    start = time.perf_counter()
    session = subprocess.Popen([args.cli, "session", args.pdf], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True, encoding="utf-8")

    def ask(**request):
        t = time.perf_counter()
        session.stdin.write(json.dumps(request, ensure_ascii=False) + "\n")
        session.stdin.flush()
        reply = json.loads(session.stdout.readline())
        return reply, (time.perf_counter() - t) * 1000

    status, _ = ask(cmd="status")
    opened = time.perf_counter() - start
    timings = {"type (one word, no cue)": [], "type (3 words, line cue)": [], "suggest": []}
    results = {}
    for _ in range(args.queries):
        line = rng.randrange(len(lines))
        words = lines[line].split(" ")
        word = rng.choice(words)
        reply, ms = ask(cmd="type", text=word)
        timings["type (one word, no cue)"].append(ms)
        results[reply.get("result")] = results.get(reply.get("result"), 0) + 1
        t = rng.randrange(max(1, len(words) - 2))
        reply, ms = ask(cmd="type", text=" ".join(words[t:t + 3]), line=line)
        timings["type (3 words, line cue)"].append(ms)
        results[reply.get("result")] = results.get(reply.get("result"), 0) + 1
        _, ms = ask(cmd="suggest")
        timings["suggest"].append(ms)
    session.stdin.close()
    session.wait()

    print(f"{args.pdf}: {status['pages']} pages, {status['lines']} lines, {n_glyphs} glyphs; "
          f"session ready in {opened:.2f} s")
    for name, values in timings.items():
        print(f"  {name:26s} median {statistics.median(values):7.2f} ms, "
              f"p90 {sorted(values)[int(0.9 * len(values))]:7.2f} ms, max {max(values):7.2f} ms")
    print("  results: " + ", ".join(f"{k} {v}" for k, v in sorted(results.items())))


if __name__ == "__main__":
    main()
