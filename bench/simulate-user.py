#!/usr/bin/env python3
# A simulated linguist recovering a corrupted PDF through `decipher-cli session` only.
#
# Policy "suggest": asks `suggest`, types exactly the words it names (with the line as
# cue, as a click on the line gives), until the session says done.
# Policy "lines": picks the line with the most undecoded glyphs and types the 5-word
# window of it with the most undecoded glyphs.
# Policy "recognize" (issue 13): `recognize` (free: the machine reads the shapes), one
# `accept all` above --min-confidence, then `suggest`'s words typed for what is left, and
# finally an `assign` for each symbol whose value still differs from what the page shows
# (the user sees it wrong in the text). Every accept, type (an ambiguous type answered
# with a place counts again), resolve and assign is one user action; prints the actions
# and the CER. Exits 1 when --max-actions is given and exceeded or the CER is not 0.
# When a reply is ambiguous the user clicks one of the places (line + token): no extra
# word is typed. With --accept-proposals the user also looks at the glyphs Decipher
# proposes a character for and clicks to accept the right ones (counted as clicks). Prints words typed, queries, and the character error rate of the
# recovered text against the generator's ground truth.
#
# Usage: simulate-user.py DECIPHER_CLI FILE.pdf TRUTH.json [--policy suggest|lines]
#        [--max-words N] [--no-auto]
# SPDX-License-Identifier: GPL-3.0-or-later
import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import unicodedata


def edit_distance(a, b):
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def same_khanda_ta(text):
    """Bengali khanda ta as Unicode 4.1 encodes it, ৎ, where the text has the older
    ত + virama + ZWJ: the same letter on the page, and what an installed font's cmap
    reads its glyph as, so not an error in the text recovered (nor is it NFC's)."""
    return text.replace("\u09a4\u09cd\u200d", "\u09ce")


def drawn_right_to_left(text):
    """True when the line's first strong character is right-to-left: its words are drawn
    from right to left, so the session's token numbers (in drawing order, left to right)
    count its words from the end."""
    for c in text:
        kind = unicodedata.bidirectional(c)
        if kind in ("R", "AL"):
            return True
        if kind == "L":
            return False
    return False


def words_at(line_text, token, n):
    """The words a user reads at tokens [token, token + n) of a line, in logical order."""
    words = line_text.split(" ")
    if not drawn_right_to_left(line_text):
        return words[token:token + n]
    drawn = words[::-1]
    return drawn[token:token + n][::-1]


class Session:
    def __init__(self, cli, pdf, extra):
        # As a new user: no font library (what an earlier run taught the user's own would
        # decode words nobody typed here) and no document cache, unless the caller says.
        env = dict(os.environ)
        env.setdefault("DECIPHER_LIBRARY", "")
        env.setdefault("DECIPHER_DOCUMENT_CACHE", "0")
        self.process = subprocess.Popen([cli, "session", pdf] + extra, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, encoding="utf-8",
                                        env=env)
        self.times = {}

    def ask(self, **request):
        start = time.perf_counter()
        self.process.stdin.write(json.dumps(request, ensure_ascii=False) + "\n")
        self.process.stdin.flush()
        reply = json.loads(self.process.stdout.readline())
        while "ok" not in reply:  # recognize's {"progress": ...} lines
            reply = json.loads(self.process.stdout.readline())
        self.times.setdefault(request["cmd"], []).append(time.perf_counter() - start)
        return reply

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli")
    ap.add_argument("pdf")
    ap.add_argument("truth")
    ap.add_argument("--policy", choices=["suggest", "lines", "recognize"], default="suggest")
    ap.add_argument("--max-words", type=int, default=400)
    ap.add_argument("--no-auto", action="store_true")
    ap.add_argument("--accept-proposals", action="store_true")
    ap.add_argument("--min-confidence", type=float, default=0.5,
                    help="recognize policy: accept all proposals at least this sure")
    ap.add_argument("--max-actions", type=int, default=None,
                    help="recognize policy: fail when more user actions are needed")
    ap.add_argument("--verbose", action="store_true", help="print every query and its result")
    ap.add_argument("--resolve-guesses", action="store_true",
                    help="on a conflict with an automatic guess, take the typed value (a click)")
    ap.add_argument("--save", metavar="PROJECT",
                    help="save the project when done (to repair the PDF with it)")
    args = ap.parse_args()

    truth = json.load(open(args.truth, encoding="utf-8"))
    truth_lines = [line["text"] for page in truth["pages"] for line in page["lines"]]
    untrusted = {i for i, font in enumerate(truth["fonts"]) if not font["trusted"]}
    # what the user sees each glyph is, by code, in the untrusted font
    seen = {g["code"]: g["text"] for page in truth["pages"] for line in page["lines"]
            for g in line.get("glyphs", []) if g["font"] in untrusted}
    session = Session(args.cli, args.pdf, ["--no-auto"] if args.no_auto else [])

    words_typed = queries = ambiguous = conflicts = failures = clicks = 0
    wrong_proposals = set()  # symbols ever proposed a character they are not
    actions = []  # recognize policy: each user action, as said
    if args.policy == "recognize":
        start = time.perf_counter()
        r = session.ask(cmd="recognize")
        if not r.get("ok"):
            print(f"{args.pdf}: recognize failed: {r.get('error')}", file=sys.stderr)
            return 1
        recognize_seconds = time.perf_counter() - start
        a = session.ask(cmd="accept", all=True, min_confidence=args.min_confidence)
        actions.append(f"accept all >= {args.min_confidence} ({a.get('accepted')} symbols)")
    # Where suggest sent the user, and how many glyphs were decoded then: sent back to a
    # place whose typing decoded nothing, a user would stop rather than type it forever.
    typed_at = {}
    stuck = None
    while words_typed < args.max_words:
        if args.policy in ("suggest", "recognize"):
            s = session.ask(cmd="suggest")
            if s.get("done"):
                break
            line, token, n = s["line"], s["token"], s["tokens"]
            decoded = session.ask(cmd="status")["decoded_glyphs"]
            if typed_at.get((line, token, n)) == decoded:
                stuck = (line, token, n)
                break
            typed_at[(line, token, n)] = decoded
        else:
            lines = session.ask(cmd="lines")["lines"]
            busiest = max(lines, key=lambda l: l["undecoded"])
            if busiest["undecoded"] == 0:
                break
            line = busiest["id"]
            words = truth_lines[line].split(" ")
            # the 5-word window with the most unknown glyphs, judged from the line's text
            shown = busiest["text"].split(" ")
            best = max(range(max(1, len(words) - 4)),
                       key=lambda t: sum(w.count("\ufffd") for w in shown[t:t + 5]))
            token, n = best, min(5, len(words) - best)
        words = words_at(truth_lines[line], token, n)
        text = " ".join(words)
        reply = session.ask(cmd="type", text=text, line=line)
        actions.append(f"type {text!r} on line {line}: {reply.get('result')}")
        if args.verbose:
            print(line, text, reply.get("result"), reply.get("message"), file=sys.stderr)
        queries += 1
        words_typed += len(words)
        if reply.get("result") == "ambiguous":
            ambiguous += 1
            reply = session.ask(cmd="type", text=text, line=line, token=token)
            actions.append(f"type {text!r} at line {line} token {token}: {reply.get('result')}")
        if reply.get("result") == "conflict" and args.policy == "recognize":
            # The typed word contradicts an accepted reading: the user takes what they
            # typed, one resolve per conflict.
            while session.ask(cmd="conflicts")["conflicts"]:
                session.ask(cmd="resolve", conflict=0, take="proposed")
                actions.append("resolve: take the typed value")
            reply = {"ok": True, "result": "resolved"}
        if reply.get("result") == "conflict" and args.resolve_guesses:
            # The user looks at the glyph an automatic guess (the full stop for a danda)
            # disagrees with, takes what they typed, and types the words again.
            resolved = False
            while True:
                listed = session.ask(cmd="conflicts")["conflicts"]
                guess = next((i for i, c in enumerate(listed) if c.get("current_level") == "guess"),
                             None)
                if guess is None:
                    break
                session.ask(cmd="resolve", conflict=guess, take="proposed")
                clicks += 1
                resolved = True
            if resolved:
                reply = session.ask(cmd="type", text=text, line=line)
                if args.verbose:
                    print(line, text, reply.get("result"), reply.get("message"), file=sys.stderr)
        if reply.get("result") == "conflict":
            conflicts += 1
        if reply.get("result") in ("no-match", "conflict") or not reply.get("ok"):
            failures += 1
            if failures > 20:
                break
        if args.accept_proposals:
            for symbol in session.ask(cmd="symbols")["symbols"]:
                if symbol["status"] != "proposed":
                    continue
                if seen.get(symbol["code"]) == symbol["value"]:
                    session.ask(cmd="accept", symbol=symbol["symbol"])
                    clicks += 1
                else:
                    wrong_proposals.add(symbol["symbol"])

    if args.policy == "recognize":
        # What typing cannot reach: a value accepted wrong, a glyph no word shows; the
        # user sees it wrong in the text and says what it is.
        for symbol in session.ask(cmd="symbols")["symbols"]:
            want = seen.get(symbol["code"])
            if want is not None and symbol["value"] != want and (
                    symbol["status"] not in ("proposed", "unknown") or symbol["value"] is None
                    or True):
                session.ask(cmd="assign", symbol=symbol["symbol"], text=want)
                actions.append(f"assign symbol {symbol['symbol']} (code 0x{symbol['code']:X}) "
                               f"= {want!r}, was {symbol['value']!r} ({symbol['status']})")
    status = session.ask(cmd="status")
    recovered = session.ask(cmd="text")["text"]
    if args.save:
        session.ask(cmd="save", path=args.save)
    session.close()

    # A space at either end of a line shows nothing: where a typesetter left the space a
    # line was broken at there, neither side's copy of it counts.
    expected = "\n".join(line.strip(" ") for line in truth_lines)
    got = "\n".join(line.strip(" ") for line in recovered.replace("\f", "").split("\n") if line != "")
    expected = same_khanda_ta(unicodedata.normalize("NFC", expected))
    got = same_khanda_ta(unicodedata.normalize("NFC", got.rstrip("\n")))
    errors = edit_distance(expected, got)
    if stuck is not None:
        print(f"{args.pdf}: stopped: suggest asked again for line {stuck[0]}, token {stuck[1]} "
              f"({stuck[2]} words), whose typing decoded nothing")
    typing = session.times.get("type", [0])
    suggest = session.times.get("suggest", [0])
    if args.policy == "recognize":
        for i, action in enumerate(actions, 1):
            print(f"  action {i}: {action}")
        cer = errors / max(1, len(expected))
        print(f"{args.pdf}: policy recognize: recognize {recognize_seconds:.1f} s, "
              f"{len(actions)} user actions, CER {errors}/{len(expected)} = {cer:.4%}")
        if args.max_actions is not None and (len(actions) > args.max_actions or errors > 0):
            return 1
        return 0
    print(f"{args.pdf}: policy {args.policy}: {words_typed} words typed in {queries} queries "
          f"({ambiguous} ambiguous, {conflicts} conflicts, {failures} failed, "
          f"{clicks} proposals accepted or guesses overruled, {len(wrong_proposals)} symbols wrongly proposed); "
          f"symbols decoded {status['decoded_symbols']}/{status['symbols']}, "
          f"glyphs {status['decoded_glyphs']}/{status['glyphs']}; "
          f"CER {errors}/{len(expected)} = {errors / max(1, len(expected)):.4%}; "
          f"median type {statistics.median(typing) * 1000:.1f} ms, "
          f"median suggest {statistics.median(suggest) * 1000:.1f} ms")


if __name__ == "__main__":
    sys.exit(main())
