#!/usr/bin/env python3
"""Reruns, once each, the tests a `cargo test` run reported as failed; used by tests/run.sh.

Reads the run's combined output (stdout and stderr) from the file given as the first
argument: a `Running <source> (<binary>)` line names the binary of the `test <name> ...
FAILED` lines that follow it. Each failed test is run again alone (`<binary> --exact <name>
--include-ignored`). Prints every test that passed only on its rerun as `flaky: ...`, and
exits 0 when all reruns passed, 1 when one failed again, when nothing failed could be named
(a build error, a crashed binary, a failed doc test), or when more than MAX tests failed (a
broken change, not a flaky pty test).
"""
import re
import subprocess
import sys

MAX = 5

def failed(log):
    """The (binary, test) pairs that failed, or None when the log shows a failure that is
    not a named test's (a binary that crashed or printed no result, a build error)."""
    binary, out, results, counted = None, [], 0, 0
    for line in log.splitlines():
        m = re.match(r"\s*Running .*\((.+)\)\s*$", line)
        if m:
            binary = m.group(1)
            continue
        if re.match(r"\s*Doc-tests ", line):
            binary = None
            continue
        m = re.match(r"test (\S+) \.\.\. FAILED\s*$", line)
        if m:
            out.append((binary, m.group(1)))
            continue
        m = re.match(r"test result: FAILED\. \d+ passed; (\d+) failed", line)
        if m:
            results += 1
            counted += int(m.group(1))
    # cargo prints this once per test binary that exited non-zero (crashed ones too).
    targets = len(re.findall(r"^error: test failed, to rerun pass", log, re.M))
    if targets != results or counted != len(out):
        return None
    return out

def main():
    log = open(sys.argv[1], encoding="utf-8", errors="replace").read()
    tests = failed(log)
    if tests is None:
        print("retry: a failure that is not a named test's; not retrying", flush=True)
        return 1
    if not tests or len(tests) > MAX or any(b is None for b, _ in tests):
        print(f"retry: {len(tests)} failed test(s) named; not retrying", flush=True)
        return 1
    flaky, still = [], []
    for binary, name in tests:
        print(f"retry: running {name} ({binary}) again", flush=True)
        r = subprocess.run([binary, "--exact", name, "--include-ignored"])
        (flaky if r.returncode == 0 else still).append(name)
    for name in flaky:
        print(f"flaky: {name} failed, then passed when run again alone", flush=True)
    for name in still:
        print(f"failed twice: {name}", flush=True)
    return 1 if still else 0

if __name__ == "__main__":
    sys.exit(main())
