#!/usr/bin/env python3
"""Total CPU time of `lpmc check` over a set of programs, for one or more lpmc binaries.

Usage:
    contrib/cpu_check.py [--timeout 3] [--out FILE.tsv] --bin NAME=PATH [--bin ...] DIR...

It takes the programs `lpmc regress` would take from the folders (`.c`, `.i`, `.lp` and
SV-COMP `.yml` task files, recursively, sorted per folder; a task file replaces the
program it names) with the same expected verdicts (a `// expect:` header in the first
five lines; else the `unreach-call` verdict of a task file, or of the `.yml` beside the
program; else, for a EUREKA `*_klee.c` program, the paper's Table 2). For each program it
runs every binary as `BIN check --json --timeout T FILE` (the binaries alternate, program
by program, so that machine load falls on all of them alike) and kills a run that has not
answered T + 0.5 s after its start, as `lpmc regress` does. A run's CPU time is the
user + system time of the child (all its threads), from getrusage(RUSAGE_CHILDREN)
before and after it.

It prints, per binary: the total CPU time, the total wall-clock time, the number of
programs decided (SAFE or UNSAFE), wrong (the opposite of the expectation; an UNSAFE
trace through a signed overflow does not contradict an expected SAFE, as in `lpmc
regress`) and killed. With `--out`, one row per program and binary as well.
"""

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import time

# The paper's Table 2 verdicts of the EUREKA `*_klee.c` programs (stem without `_klee`).
EUREKA_EXPECTED = {
    "array_init": "SAFE",
    "array_init_assign": "SAFE",
    "complex_guard": "SAFE",
    "complex_guard_": "SAFE",
    "sequential_swap": "SAFE",
    "simple_swap_call": "SAFE",
    "simple_array_inversion": "SAFE",
    "bubblesort_inner_loop": "UNSAFE",
    "bubblesort": "UNSAFE",
    "wrong_loop": "UNSAFE",
    "loop_on_input": "UNSAFE",
    "simple_control_on_input": "UNSAFE",
}

EXIT = {0: "SAFE", 10: "UNSAFE", 20: "UNKNOWN", 2: "BAD INPUT"}


def is_task(p):
    return p.endswith((".yml", ".yaml"))


def task_input(path):
    """The program a task file names (its first `input_files` entry), or None."""
    try:
        text = open(path, encoding="utf-8").read()
    except OSError:
        return None
    m = re.search(r"^input_files:\s*(.*)$", text, re.M)
    if not m:
        return None
    v = m.group(1).strip()
    if not v:
        m2 = re.search(r"^input_files:\s*\n\s*-\s*(\S+)", text, re.M)
        if not m2:
            return None
        v = m2.group(1)
    v = v.strip("'\"[] ")
    named = os.path.normpath(os.path.join(os.path.dirname(path), v))
    # As lpmc does: a named `.i` that is missing may be the `.c` beside it, and vice versa.
    if not os.path.isfile(named):
        base, ext = os.path.splitext(named)
        other = base + {".i": ".c", ".c": ".i"}.get(ext, ext)
        if os.path.isfile(other):
            return other
    return named


def task_verdict(path):
    """The task file's `unreach-call` expected verdict, or None."""
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError:
        return None
    for i, l in enumerate(lines):
        if "unreach-call.prp" in l:
            if i + 1 < len(lines) and "expected_verdict" in lines[i + 1]:
                return "SAFE" if "true" in lines[i + 1] else "UNSAFE"
            return None
    return None


def expected(path):
    if is_task(path):
        return task_verdict(path)
    try:
        head = open(path, encoding="utf-8", errors="replace").read().splitlines()[:5]
    except OSError:
        head = []
    for l in head:
        l = l.strip()
        if l.startswith("// expect:"):
            v = l[len("// expect:"):].strip().lower()
            return {"safe": "SAFE", "unsafe": "UNSAFE"}.get(v)
    yml = os.path.splitext(path)[0] + ".yml"
    if os.path.exists(yml):
        return task_verdict(yml)
    name = os.path.basename(path)
    if name.endswith("_klee.c"):
        stem = name[: -len("_klee.c")]
        if stem.startswith("Prim_") or stem.startswith("bf"):
            return "SAFE"
        return EUREKA_EXPECTED.get(stem)
    return None


def collect(dirs):
    out = []

    def walk(d):
        es = sorted(os.path.join(d, e) for e in os.listdir(d))
        covered = {task_input(p) for p in es if is_task(p)}
        for p in es:
            if os.path.normpath(p) in covered:
                continue
            if os.path.isdir(p):
                if not (os.path.basename(p) == "errors" and os.path.basename(d) == "lp-programs"):
                    walk(p)
            elif p.endswith((".c", ".i", ".lp")) or is_task(p):
                out.append(p)

    for d in dirs:
        if os.path.isdir(d):
            walk(d)
        else:
            out.append(d)
    return out


def run(binary, prog, timeout):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    killed = False
    p = subprocess.Popen(
        [binary, "check", "--json", "--timeout", str(timeout), prog],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        out, _ = p.communicate(timeout=timeout + 0.5)
    except subprocess.TimeoutExpired:
        p.kill()
        out, _ = p.communicate()
        killed = True
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    status = "TIMEOUT" if killed else EXIT.get(p.returncode, f"EXIT {p.returncode}")
    overflow = False
    if status == "UNSAFE":
        try:
            tr = json.loads(out).get("trace") or {}
            overflow = isinstance(tr.get("signed_overflow_line"), int) or tr.get("overflow_error") is True
        except (ValueError, AttributeError):
            pass
    return status, cpu, wall, overflow


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timeout", type=float, default=3.0)
    ap.add_argument("--bin", action="append", required=True, help="NAME=PATH")
    ap.add_argument("--out", help="per-run rows (TSV)")
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    bins = [b.split("=", 1) for b in a.bin]
    progs = collect(a.dirs)
    tot = {n: {"cpu": 0.0, "wall": 0.0, "decided": 0, "wrong": 0, "killed": 0} for n, _ in bins}
    rows = open(a.out, "w") if a.out else None
    if rows:
        rows.write("program\texpected\tbinary\tverdict\tcpu_s\twall_s\n")
    for i, prog in enumerate(progs):
        exp = expected(prog)
        # Alternate which binary goes first, so neither always runs right after the other.
        order = bins if i % 2 == 0 else bins[::-1]
        for name, path in order:
            st, cpu, wall, ovf = run(path, prog, a.timeout)
            t = tot[name]
            t["cpu"] += cpu
            t["wall"] += wall
            if st in ("SAFE", "UNSAFE"):
                t["decided"] += 1
                wrong = exp in ("SAFE", "UNSAFE") and st != exp and not (ovf and exp == "SAFE")
                if wrong:
                    t["wrong"] += 1
                    print(f"WRONG {name} {prog}: {st}, expected {exp}", file=sys.stderr)
            if st == "TIMEOUT":
                t["killed"] += 1
            if rows:
                rows.write(f"{prog}\t{exp}\t{name}\t{st}\t{cpu:.3f}\t{wall:.3f}\n")
                rows.flush()
        print(f"[{i + 1}/{len(progs)}] {prog}", file=sys.stderr)
    print(f"{len(progs)} programs, --timeout {a.timeout:g}")
    print("binary\tcpu_s\twall_s\tdecided\twrong\tkilled")
    for name, _ in bins:
        t = tot[name]
        print(f"{name}\t{t['cpu']:.2f}\t{t['wall']:.2f}\t{t['decided']}\t{t['wrong']}\t{t['killed']}")


if __name__ == "__main__":
    main()
