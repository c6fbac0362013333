#!/usr/bin/env python3
"""Wall and CPU time of a whole process tree, orphans included (for scripts/real-cli-bench.sh).

  tree-cpu.py run OUT -- COMMAND...     run COMMAND (stdin /dev/null, output to OUT.stdout/.stderr)
  tree-cpu.py replay OUT CALLDIR...     run the CLI calls recorded by the bench's capture shim,
                                        one after another, as they were made (argv, environment,
                                        working directory, standard input)

Prints one JSON object: `wall` (seconds until the command, or the last replayed call, exited),
`walls` (each replayed call's), `cpu` (user + system seconds of every process of the tree),
`start` (epoch seconds just before the first fork), `exit` (the command's, or the first non-zero
one of the calls), `lingered` (descendants still alive 10 s after the command ended, then killed).

This process makes itself a child subreaper (PR_SET_CHILD_SUBREAPER), so a descendant that
outlives its parent (a guardian, a CLI's detached helper) is re-parented here and reaped, and its
CPU is in RUSAGE_CHILDREN like everyone else's: `wait4` on the top process alone would lose it.
The script's own CPU (Python) is not counted: it is RUSAGE_SELF.
"""

import ctypes
import json
import os
import resource
import sys
import time

PR_SET_CHILD_SUBREAPER = 36


def subreaper():
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")


def spawn(argv, env, cwd, stdin_path, out):
    pid = os.fork()
    if pid == 0:
        try:
            if cwd:
                os.chdir(cwd)
            fd = os.open(stdin_path, os.O_RDONLY)
            os.dup2(fd, 0)
            o = os.open(out + ".stdout", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            e = os.open(out + ".stderr", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(o, 1)
            os.dup2(e, 2)
            if env is None:
                os.execvp(argv[0], argv)
            os.execvpe(argv[0], argv, env)
        finally:
            os._exit(127)
    return pid


def wait_tree(main):
    """Waits for `main` (its wall time and exit code), then for every other descendant."""
    t0 = time.monotonic()
    status = None
    while status is None:
        pid, st = os.waitpid(-1, 0)
        if pid == main:
            status = os.waitstatus_to_exitcode(st)
    wall = time.monotonic() - t0
    deadline = time.monotonic() + 10
    lingered = 0
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if pid == 0:
            if time.monotonic() > deadline:
                lingered += kill_descendants()
                deadline = float("inf")
            time.sleep(0.005)
    return wall, status, lingered


def kill_descendants():
    """Kills whatever is left under us (only our own descendants: /proc/*/task/*/children)."""
    me = os.getpid()
    todo, found = [me], []
    while todo:
        p = todo.pop()
        try:
            for t in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{t}/children") as f:
                    kids = [int(x) for x in f.read().split()]
                found += kids
                todo += kids
        except OSError:
            pass
    for p in found:
        try:
            os.kill(p, 9)
        except OSError:
            pass
    return len(found)


def read_call(d):
    with open(os.path.join(d, "argv.replay"), "rb") as f:
        argv = [a.decode() for a in f.read().split(b"\0")[:-1]]
    with open(os.path.join(d, "env.replay"), "rb") as f:
        env = dict(
            kv.decode().split("=", 1) for kv in f.read().split(b"\0") if b"=" in kv
        )
    with open(os.path.join(d, "cwd.replay")) as f:
        cwd = f.read().strip()
    return argv, env, cwd, os.path.join(d, "stdin")


def main():
    mode, out = sys.argv[1], sys.argv[2]
    subreaper()
    os.environ["BENCH_ROOT_PID"] = str(os.getpid())
    start = time.time()
    if mode == "run":
        cmd = sys.argv[sys.argv.index("--") + 1:]
        wall, status, lingered = wait_tree(spawn(cmd, None, None, "/dev/null", out))
        walls = [wall]
    else:
        walls, status, lingered = [], 0, 0
        for i, d in enumerate(sys.argv[3:]):
            argv, env, cwd, stdin = read_call(d)
            w, s, l = wait_tree(spawn(argv, env, cwd, stdin, f"{out}.{i}"))
            walls.append(w)
            lingered += l
            status = status or s
        wall = sum(walls)
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(json.dumps({
        "start": start,
        "wall": wall,
        "walls": walls,
        "cpu": ru.ru_utime + ru.ru_stime,
        "exit": status,
        "lingered": lingered,
    }))


if __name__ == "__main__":
    main()
