#!/usr/bin/env python3
# Counts test cases from meson's logs: every TAP "ok"/"not ok" line of a GTest suite is
# one case, and a plain test (a validator) is one case. Prints "N passed, N failed".
# Several logs (the normal, ASan, TSan and fuzzing builds) add up; a log that is missing
# means its build failed before any test ran, which counts as one failure.
# SPDX-License-Identifier: GPL-3.0-or-later
import json
import re
import sys

passed = failed = skipped = 0
for path in sys.argv[1:]:
    try:
        log = open(path, encoding="utf-8")
    except FileNotFoundError:
        print(f"{path}: missing, so its tests did not run", file=sys.stderr)
        failed += 1
        continue
    with log:
        for line in log:
            entry = json.loads(line)
            cases = re.findall(r"^(not ok|ok)\b(.*)$", entry.get("stdout") or "", re.M)
            if cases:
                for verdict, rest in cases:
                    if "# SKIP" in rest:
                        skipped += 1
                    elif verdict == "ok":
                        passed += 1
                    else:
                        failed += 1
                # a suite that crashed after its last reported case failed too
                if entry["result"] not in ("OK", "EXPECTEDFAIL", "SKIP") and verdict == "ok":
                    failed += 1
            elif entry["result"] == "OK":
                passed += 1
            elif entry["result"] == "SKIP":
                skipped += 1
            else:
                failed += 1
print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
