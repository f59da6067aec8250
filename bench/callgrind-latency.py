#!/usr/bin/env python3
# Instructions per fresh query of `decipher-cli session`, counted by callgrind: the robust
# twin of bench-latency.py on a shared, loaded machine, where wall-clock figures swing with
# the load but instruction counts do not.
#
# Usage: callgrind-latency.py DECIPHER_CLI FILE.pdf TRUTH.json [--queries N]
#   (make the PDF and its truth as bench-latency.py says)
#
# The session is run under valgrind --tool=callgrind with the same kind of requests as
# bench-latency.py (every `type` is followed by an undo, so each sees a fresh state), with
# collection switched on only inside dc_session_type(), dc_session_undo(),
# dc_session_suggest() and the two lists a `suggest` reply adds. It is run twice: with
# the first query alone (which builds the matcher's index, inlined where no toggle sees
# it) and with N more; the difference divided by N is the figure per fresh query, the
# index build left out as bench-latency.py leaves it out.
# SPDX-License-Identifier: GPL-3.0-or-later
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import tempfile

# A `suggest` reply also lists the most frequent unknown symbols and the busiest lines.
SUGGEST = ["dc_session_suggest", "dc_suggest_frequent_symbols", "dc_suggest_busiest_lines"]
FUNCTIONS = ["dc_session_type", "dc_session_undo"] + SUGGEST


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli")
    ap.add_argument("pdf")
    ap.add_argument("truth")
    ap.add_argument("--queries", type=int, default=20)
    ap.add_argument("--words", type=int, default=5)
    ap.add_argument("--suggests", type=int, default=3)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--keep", metavar="FILE", help="keep callgrind's output file as FILE")
    args = ap.parse_args()

    truth = json.load(open(args.truth, encoding="utf-8"))
    lines = [line["text"] for page in truth["pages"] for line in page["lines"]]
    del truth
    rng = random.Random(args.seed)

    first = [{"cmd": "status"}, {"cmd": "type", "text": lines[0].split(" ")[0]},
             {"cmd": "undo"}]
    requests = list(first)
    n_type = 0
    while n_type < args.queries:
        words = [w for w in lines[rng.randrange(len(lines))].split(" ") if w]
        if len(words) < args.words:
            continue
        t = rng.randrange(len(words) - args.words + 1)
        requests.append({"cmd": "type", "text": " ".join(words[t:t + args.words])})
        # An undo with nothing to undo answers an error and changes nothing: always send
        # one, so that the next query sees the state the first one saw.
        requests.append({"cmd": "undo"})
        n_type += 1
    requests += [{"cmd": "suggest"}] * args.suggests

    base = count(args, first, None)
    full = count(args, requests, args.keep)
    per = {f: (full.get(f, 0) - base.get(f, 0)) for f in FUNCTIONS}
    suggest = sum(per[f] for f in SUGGEST) / max(1, args.suggests)
    print(f"{os.path.basename(args.pdf)}: instructions counted by callgrind")
    print(f"  first type, index build included (not counted) {base.get('dc_session_type', 0) / 1e6:8.2f} M")
    print(f"  type ({args.words} words, no cue), per fresh query   {per['dc_session_type'] / n_type / 1e6:8.2f} M")
    print(f"  undo, per call                                 {per['dc_session_undo'] / n_type / 1e6:8.2f} M")
    print(f"  suggest reply, per call                        {suggest / 1e6:8.2f} M "
          f"(What Next? itself {per['dc_session_suggest'] / max(1, args.suggests) / 1e6:.2f} M)")


def count(args, requests, keep):
    """Inclusive instructions of FUNCTIONS over one session answering REQUESTS."""
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "callgrind.out")
        script = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in requests)
        cmd = ["valgrind", "--tool=callgrind", "--collect-atstart=no",
               f"--callgrind-out-file={out}"]
        cmd += [f"--toggle-collect={f}" for f in FUNCTIONS]
        cmd += [args.cli, "session", args.pdf]
        subprocess.run(cmd, input=script, text=True, encoding="utf-8",
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        if keep:
            shutil.copyfile(out, keep)
        annotated = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100",
                                    out], capture_output=True, text=True, check=True).stdout
    inclusive = {}
    for line in annotated.splitlines():
        m = re.match(r"\s*([\d,]+)\s+\([^)]*\)\s+\S+:(\S+)", line)
        if m and m.group(2) in FUNCTIONS:
            inclusive[m.group(2)] = int(m.group(1).replace(",", ""))
    return inclusive


if __name__ == "__main__":
    main()
