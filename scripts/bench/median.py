#!/usr/bin/env python3
"""Medians of `cpu.py` lines on standard input: wall ms, CPU ms, own CPU ms, peak MiB, calls."""

import json
import statistics
import sys

rows = [json.loads(line) for line in sys.stdin if line.strip()]


def m(key):
    return statistics.median(r[key] for r in rows)


bad = sorted({r["exit"] for r in rows if r["exit"] not in (0, 1, 3)})
print(
    f"{m('wall') * 1000:.1f} {m('cpu') * 1000:.1f} {m('own') * 1000:.1f} "
    f"{m('maxrss_kib') / 1024:.1f} {int(m('calls'))}" + (f" exit {bad}" if bad else "")
)
