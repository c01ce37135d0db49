#!/usr/bin/env python3
"""The certificate check's share of lpmc's time, and the SAFE proofs it refuses.

Runs `lpmc check --json --timeout S` on every program under the given paths (.lp, .c,
.i; folders recursively, `errors/` folders left out) and prints, per verdict, the
count and the total time, the certificate's total time over the SAFE verdicts
(`proof.certificate.time_ms`: preparing the program and every candidate invariant
map tried), the ratio total / (total - certificate), the programs where the
certificate cost most, and every UNKNOWN whose reason is a certificate that did not
check (a proof was found but not certified).

    contrib/witness/cert-cost.py target/release/lpmc lp-programs --timeout 5
"""
import argparse
import json
import pathlib
import subprocess
import sys


def programs(paths):
    for p in map(pathlib.Path, paths):
        if p.is_file():
            yield p
            continue
        for f in sorted(p.rglob("*")):
            if f.suffix in (".lp", ".c", ".i") and "errors" not in f.parts:
                yield f


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("lpmc")
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--timeout", default="5")
    ap.add_argument("--top", type=int, default=8)
    a = ap.parse_args()
    rows = []
    for f in programs(a.paths):
        r = subprocess.run(
            [a.lpmc, "check", "--json", "--timeout", a.timeout, str(f)],
            capture_output=True,
            text=True,
        )
        try:
            j = json.loads(r.stdout)
        except json.JSONDecodeError:
            rows.append((f, "error", 0, 0, r.stderr.strip().splitlines()[:1]))
            continue
        cert = (j.get("proof") or {}).get("certificate") or {}
        rows.append((f, j["verdict"], j["time_ms"], cert.get("time_ms") or 0, j.get("reason", "")))
        print(f"{j['verdict']:8} {j['time_ms']:6} ms  cert {cert.get('time_ms') or 0:5} ms  {f}",
              file=sys.stderr, flush=True)
    total = sum(r[2] for r in rows)
    cert = sum(r[3] for r in rows)
    by = {}
    for r in rows:
        n, t = by.get(r[1], (0, 0))
        by[r[1]] = (n + 1, t + r[2])
    print(f"programs: {len(rows)}")
    for v, (n, t) in sorted(by.items()):
        print(f"  {v:8} {n:4}  {t / 1000:8.1f} s")
    print(f"total time: {total / 1000:.1f} s; certificate: {cert / 1000:.1f} s; "
          f"ratio with/without: {total / max(total - cert, 1):.3f}")
    safe = [r for r in rows if r[1] == "safe"]
    st = sum(r[2] for r in safe)
    print(f"over the {len(safe)} SAFE verdicts: {st / 1000:.1f} s, "
          f"ratio {st / max(st - cert, 1):.3f}")
    print("most certificate time:")
    for r in sorted(safe, key=lambda r: -r[3])[: a.top]:
        print(f"  {r[3]:6} ms of {r[2]:6} ms  {r[0]}")
    failed = [r for r in rows if "certificate did not check" in str(r[4])]
    print(f"proofs found but not certified: {len(failed)}")
    for r in failed:
        print(f"  {r[0]}: {r[4]}")


if __name__ == "__main__":
    main()
