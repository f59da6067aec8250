#!/usr/bin/env python3
# How few 5-word windows a user who types whole windows (simulate-user.py --policy lines)
# could possibly get away with: a set of characters no two of which stand in one window
# needs a window each, so its size is a lower bound, whatever the engine does. Typing
# alone cannot see a character that is never typed; proposals can.
#
# Usage: window-bound.py TRUTH.json [--words 5]
# SPDX-License-Identifier: GPL-3.0-or-later
import argparse
import json


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("truth")
    ap.add_argument("--words", type=int, default=5)
    args = ap.parse_args()

    truth = json.load(open(args.truth, encoding="utf-8"))
    lines = [line["text"] for page in truth["pages"] for line in page["lines"]]
    windows = []
    for text in lines:
        words = text.split(" ")
        for start in range(max(1, len(words) - args.words + 1)):
            windows.append(set("".join(words[start:start + args.words])))
    chars = set("".join(lines)) - {" "}
    together = {c: set() for c in chars}
    holding = {c: 0 for c in chars}
    for window in windows:
        for c in window:
            together[c] |= window
            holding[c] += 1
    # Rarest first: a greedy independent set of the "share a window" graph.
    apart = []
    for c in sorted(chars, key=lambda c: (holding[c], c)):
        if all(d not in together[c] for d in apart):
            apart.append(c)
    print(f"{args.truth}: {len(chars)} characters; {len(apart)} of them never share a "
          f"{args.words}-word window, so typing alone needs at least {len(apart)} windows "
          f"({''.join(sorted(apart))})")


if __name__ == "__main__":
    main()
