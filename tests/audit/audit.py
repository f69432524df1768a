#!/usr/bin/env python3
"""Dependency audit for ktui: flags vulnerable, unsound or unmaintained crates in Cargo.lock.

CI cannot reach the RustSec advisory database (no network but the package registries), so
cargo-audit and cargo-deny cannot fetch it. Instead the repo keeps two lists beside this file:

- advisories.tsv: every crates.io advisory of the RustSec database (id, package, kind,
  patched and unaffected version requirements), regenerated from a checkout with
  `python3 tests/audit/audit.py refresh PATH-TO-advisory-db [COMMIT]` (the commit is
  recorded on the first line);
- extra.tsv: crates flagged by hand (archived or deprecated upstream without an advisory).

`python3 tests/audit/audit.py check [Cargo.lock]` exits 1 when a locked package matches an
entry that allowed.tsv does not excuse (package, id, reason), printing each finding.
"""

import re
import subprocess
import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent


def parse_version(text):
    """'1.2.3-rc.1+meta' -> ((1, 2, 3), ('rc', 1)); missing parts are 0, no pre-release sorts last."""
    text = text.strip().split("+", 1)[0]
    core, _, pre = text.partition("-")
    nums = [int(p) for p in core.split(".") if p != ""]
    while len(nums) < 3:
        nums.append(0)
    pre_key = tuple((0, int(p)) if p.isdigit() else (1, p) for p in pre.split(".")) if pre else None
    return tuple(nums[:3]), pre_key


def cmp_version(a, b):
    (an, ap), (bn, bp) = a, b
    if an != bn:
        return -1 if an < bn else 1
    if ap == bp:
        return 0
    if ap is None:
        return 1
    if bp is None:
        return -1
    return -1 if ap < bp else 1


def caret_upper(nums, given):
    """Upper bound (exclusive) of ^nums where `given` parts were written."""
    major, minor, patch = nums
    if major > 0 or given == 1:
        return (major + 1, 0, 0)
    if minor > 0 or given == 2:
        return (0, minor + 1, 0)
    return (0, 0, patch + 1)


def matches_comparator(version, comp):
    comp = comp.strip()
    m = re.fullmatch(r"(>=|<=|>|<|=|\^|~)?\s*([0-9][0-9A-Za-z.\-+]*)", comp)
    if not m:
        raise ValueError(f"unsupported version requirement {comp!r}")
    op, text = m.group(1) or "^", m.group(2)
    given = len(text.split("-", 1)[0].split("."))
    bound = parse_version(text)
    c = cmp_version(version, bound)
    if op == ">=":
        return c >= 0
    if op == ">":
        return c > 0
    if op == "<=":
        return c <= 0
    if op == "<":
        return c < 0
    if op == "=":
        return c == 0
    if op == "~":
        upper = (bound[0][0], bound[0][1] + 1, 0) if given >= 2 else (bound[0][0] + 1, 0, 0)
        return c >= 0 and cmp_version(version, (upper, ())) < 0
    upper = caret_upper(bound[0], given)
    return c >= 0 and cmp_version(version, (upper, ())) < 0


def matches_req(version, req):
    """A requirement is comparators joined by ',' (all must hold)."""
    return all(matches_comparator(version, part) for part in req.split(",") if part.strip())


def affected(version_text, patched, unaffected):
    v = parse_version(version_text)
    return not any(matches_req(v, r) for r in patched + unaffected)


def refresh(db, commit=None):
    db = Path(db)
    commit = commit or subprocess.run(["git", "-C", str(db), "rev-parse", "HEAD"],
                                      capture_output=True, text=True).stdout.strip() or "unknown"
    rows = []
    for path in sorted(db.glob("crates/*/RUSTSEC-*.md")):
        text = path.read_text(encoding="utf-8")
        m = re.search(r"```toml\n(.*?)\n```", text, re.S)
        if not m:
            continue
        data = tomllib.loads(m.group(1))
        adv, versions = data.get("advisory", {}), data.get("versions", {})
        if adv.get("withdrawn"):
            continue
        kind = adv.get("informational") or "vulnerability"
        rows.append("\t".join([adv["id"], adv["package"], kind,
                               ";".join(versions.get("patched", [])),
                               ";".join(versions.get("unaffected", []))]))
    out = HERE / "advisories.tsv"
    out.write_text(f"# RustSec advisory-db {commit}: id, package, kind, patched, unaffected\n"
                   + "\n".join(rows) + "\n", encoding="utf-8")
    print(f"{len(rows)} advisories written to {out}")


def read_tsv(name):
    path = HERE / name
    if not path.exists():
        return []
    return [line.rstrip("\n").split("\t") for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


def split_reqs(field):
    return [r for r in field.split(";") if r.strip()]


def check(lock_path):
    lock = tomllib.loads(Path(lock_path).read_text(encoding="utf-8"))
    packages = [(p["name"], p["version"]) for p in lock.get("package", [])
                if p.get("source", "").startswith("registry+")]
    entries = [(r[0], r[1], r[2], split_reqs(r[3]), split_reqs(r[4] if len(r) > 4 else ""))
               for r in read_tsv("advisories.tsv")]
    entries += [(r[0], r[1], r[2], split_reqs(r[3]), split_reqs(r[4] if len(r) > 4 else ""))
                for r in read_tsv("extra.tsv")]
    allowed = {(r[0], r[1]): r[2] for r in read_tsv("allowed.tsv")}
    by_name = {}
    for e in entries:
        by_name.setdefault(e[1], []).append(e)
    findings, excused = [], []
    for name, version in packages:
        for ident, _, kind, patched, unaffected in by_name.get(name, []):
            if affected(version, patched, unaffected):
                line = f"{name} {version}: {ident} ({kind})"
                if (name, ident) in allowed:
                    excused.append(f"{line} — allowed: {allowed[(name, ident)]}")
                else:
                    findings.append(line)
    head = read_tsv_header("advisories.tsv")
    print(f"audit: {len(packages)} locked crates against {len(entries)} entries ({head})")
    for line in excused:
        print(f"  allowed  {line}")
    for line in findings:
        print(f"  FLAGGED  {line}")
    if findings:
        print(f"audit: {len(findings)} finding(s); fix them or excuse them in tests/audit/allowed.tsv")
        return 1
    print("audit: no unexcused findings")
    return 0


def read_tsv_header(name):
    path = HERE / name
    if not path.exists():
        return "no advisory list"
    first = path.read_text(encoding="utf-8").splitlines()[0]
    return first.lstrip("# ").split(":")[0]


def self_test():
    assert affected("0.9.34+deprecated", [], [])
    assert not affected("0.2.10", [">= 0.2.10"], [])
    assert affected("0.2.9", [">= 0.2.10"], [])
    assert not affected("0.5.0", [">= 0.8.4"], ["< 0.6.0-rc1"])
    assert affected("0.7.0", [">= 0.8.4"], ["< 0.6.0-rc1"])
    assert not affected("1.4.2", ["^1.4.1", ">= 2.0.0"], [])
    assert affected("1.3.9", ["^1.4.1", ">= 2.0.0"], [])
    assert not affected("0.3.5", ["~0.3.5"], [])
    assert affected("0.4.0", ["~0.3.5"], [])
    assert affected("1.0.0-rc.1", [">= 1.0.0"], [])
    assert not affected("1.2.3", [">= 1.1.0, < 1.3"], [])


if __name__ == "__main__":
    self_test()
    if len(sys.argv) >= 3 and sys.argv[1] == "refresh":
        refresh(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
    elif len(sys.argv) >= 2 and sys.argv[1] == "check":
        sys.exit(check(sys.argv[2] if len(sys.argv) > 2 else "Cargo.lock"))
    else:
        print(__doc__)
        sys.exit(2)
