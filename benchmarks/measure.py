"""Wall time, CPU time and peak memory of a command, counting every process it starts (Beam's SDK workers too).

CPU time (user + system of the command and every descendant it waited for) is
what to compare when other work shares the machine: wall time then grows with
the others' load, CPU time hardly.
"""
import os
import resource
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


def run_measured(command, env=None, cwd=None) -> dict:
    """Run `command`; return wall seconds, CPU seconds and peak resident memory (MiB) of its process tree, and the exit code."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    process = subprocess.Popen(command, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    peak = [0]

    def sample():
        while process.poll() is None:
            peak[0] = max(peak[0], _tree_rss_bytes(process.pid))
            time.sleep(0.1)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    output, _ = process.communicate()
    sampler.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"seconds": time.monotonic() - started, "cpu_seconds": cpu, "peak_mib": peak[0] / 2**20,
            "returncode": process.returncode, "output": output}


def _peak_rss_kib() -> int:
    with open("/proc/self/status") as handle:
        return next(int(line.split()[1]) for line in handle if line.startswith("VmHWM:"))


def measure_in_process(thunk) -> tuple:
    """(thunk's result, {"seconds", "cpu_seconds", "peak_mib"}) of a stage run in this process.

    The peak is this process's resident memory at its highest during the stage (what the stage
    holds plus what came before it): the kernel's high-water mark is reset first (clear_refs 5).
    """
    try:
        with open("/proc/self/clear_refs", "w") as handle:
            handle.write("5")
    except OSError:
        pass  # no reset: the peak is the process's since it started
    started, cpu_started = time.monotonic(), time.process_time()
    result = thunk()
    return result, {"seconds": time.monotonic() - started, "cpu_seconds": time.process_time() - cpu_started,
                    "peak_mib": _peak_rss_kib() / 1024}
