#!/usr/bin/env python3
"""Runs a command and reports its CPU time without the instant fake CLIs' own.

`cpu.py FAKE_LOG -- COMMAND...` prints one JSON object: wall seconds, the CPU time (user +
system) of the command and every descendant it waited for (`wait4`), the part the instant fakes
(`scripts/bench/instant-fake.rs`) report for themselves in FAKE_LOG during the run, `own` (the
first less the second: the orchestrator, its helpers such as `git` and a login shell, but no
model), the fake calls, and the peak resident size of the largest process in KiB. CPU time does
not depend on how busy the machine is, wall time does.
"""

import json
import os
import sys
import time


def fake_lines(path):
    try:
        with open(path) as f:
            return f.read().splitlines()
    except FileNotFoundError:
        return []


def main():
    log = sys.argv[1]
    cmd = sys.argv[sys.argv.index("--") + 1:]
    before = len(fake_lines(log))
    t = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            os.execvp(cmd[0], cmd)
        finally:
            os._exit(127)
    _, status, ru = os.wait4(pid, 0)
    wall = time.monotonic() - t
    lines = fake_lines(log)[before:]
    fakes = sum(int(l.split("\t")[1]) for l in lines) / 1e9
    total = ru.ru_utime + ru.ru_stime
    print(json.dumps({
        "exit": os.waitstatus_to_exitcode(status),
        "wall": wall,
        "cpu": total,
        "fakes": fakes,
        "own": total - fakes,
        "calls": len(lines),
        "maxrss_kib": ru.ru_maxrss,
    }))


if __name__ == "__main__":
    main()
