"""Run one command and write its wall time, CPU time, exit code and peak RSS as JSON.

    python -I -S benchmarks/launch.py RESULT.json CMD [ARGS...]

run.py starts every measured process through this small launcher, because a
child's `ru_maxrss` starts at its parent's: exec records the old address space's
high-water mark (with vfork, the parent's own peak) in the process's maximum.
Measured straight from run.py, which holds generated catalogs and parsed reports
in memory, every process would seem at least as large as run.py. This launcher
stays small (about 10 MB), forks, and execs CMD; CMD's `ru_maxrss` from
`os.wait4` is then its own peak, together with that of every child it reaped
(Linux folds those in). The launcher is also a child subreaper: a descendant CMD
leaves un-reaped is reaped here, its peak counted, and killed by pid if it is
still running 10 s after CMD ended. Standard input and output pass through.
"""

import json
import os
import signal
import sys
import time


def _subreaper() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


def _children() -> list[int]:
    try:
        return [int(p) for p in open(f"/proc/self/task/{os.getpid()}/children").read().split()]
    except OSError:
        return []


def _reap_orphans(grace: float = 10.0) -> tuple[int, int, int]:
    """(reaped, killed, max ru_maxrss) of descendants re-parented to this process."""
    reaped = killed = rss = 0
    deadline = time.monotonic() + grace
    while True:
        try:
            pid, _, usage = os.wait4(-1, os.WNOHANG)
        except ChildProcessError:
            return reaped, killed, rss
        if pid:
            reaped, rss = reaped + 1, max(rss, usage.ru_maxrss)
            continue
        if time.monotonic() > deadline and not killed:
            for orphan in _children():
                os.kill(orphan, signal.SIGKILL)
                killed += 1
        time.sleep(0.05)


def main() -> int:
    result, argv = sys.argv[1], sys.argv[2:]
    subreaper = _subreaper()
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        try:
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    reaped, killed, orphan_rss = _reap_orphans() if subreaper else (0, 0, 0)
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux
    with open(result, "w") as out:
        json.dump(
            {
                "wall": wall,
                "cpu": usage.ru_utime + usage.ru_stime,
                "code": os.waitstatus_to_exitcode(status),
                "rss_bytes": max(usage.ru_maxrss, orphan_rss) * scale,
                "orphans": reaped,
                "killed": killed,
                "subreaper": subreaper,
            },
            out,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
