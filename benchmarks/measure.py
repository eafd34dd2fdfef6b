"""Wall time and peak memory of a command, counting every process it starts (Beam's SDK workers too)."""
import os
import subprocess
import threading
import time


def _children(pid_by_parent, root):
    found, stack = [], [root]
    while stack:
        pid = stack.pop()
        found.append(pid)
        stack.extend(pid_by_parent.get(pid, ()))
    return found


def _tree_rss_bytes(root: int) -> int:
    pid_by_parent, rss = {}, {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid_by_parent.setdefault(int(fields[1]), []).append(int(entry))
        rss[int(entry)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    return sum(rss.get(pid, 0) for pid in _children(pid_by_parent, root))


def run_measured(command, env=None) -> dict:
    """Run `command`; return seconds, peak resident memory of its process tree (MiB) and the exit code."""
    started = time.monotonic()
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    peak = [0]

    def sample():
        while process.poll() is None:
            peak[0] = max(peak[0], _tree_rss_bytes(process.pid))
            time.sleep(0.1)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    output, _ = process.communicate()
    sampler.join()
    return {"seconds": time.monotonic() - started, "peak_mib": peak[0] / 2**20, "returncode": process.returncode,
            "output": output}
