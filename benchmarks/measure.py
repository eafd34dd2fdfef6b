"""Wall time, CPU time and peak memory of a command, counting every process it starts (Beam's SDK workers too).

CPU time (user + system of the command and every descendant it waited for) is
what to compare when other work shares the machine: wall time then grows with
the others' load, CPU time hardly.

Every process of the tree is also followed on its own (sampled from /proc every
0.1 s): its role (the driver, a Beam SDK worker, a dask worker...), its CPU time
and its peak resident memory, so that a run spread over worker processes shows
what each of them cost.
"""
import os
import resource
import subprocess
import threading
import time

SAMPLE_SECONDS = 0.1


def _children(pid_by_parent, root):
    found, stack = [], [root]
    while stack:
        pid = stack.pop()
        found.append(pid)
        stack.extend(pid_by_parent.get(pid, ()))
    return found


def _read_processes() -> dict:
    """pid -> (parent pid, CPU seconds, resident bytes) of every process /proc shows."""
    processes = {}
    ticks, page = os.sysconf("SC_CLK_TCK"), os.sysconf("SC_PAGE_SIZE")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # fields[0] is the stat file's third field (the state): utime, stime, rss are its 14th, 15th, 24th.
        processes[int(entry)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / ticks,
                                 int(fields[21]) * page)
    return processes


def _tree(processes: dict, root: int) -> list:
    pid_by_parent = {}
    for pid, (parent, _, _) in processes.items():
        pid_by_parent.setdefault(parent, []).append(pid)
    return [pid for pid in _children(pid_by_parent, root) if pid in processes]


def _tree_rss_bytes(root: int) -> int:
    processes = _read_processes()
    return sum(processes[pid][2] for pid in _tree(processes, root))


def process_role(command_line: str, is_root: bool) -> str:
    """What a process of a run is, from its command line: the driver (the command itself, which also
    runs a local dask scheduler), a Beam SDK worker, a dask worker, or another helper."""
    if is_root:
        return "driver"
    if "sdk_worker" in command_line:
        return "sdk worker"
    if "resource_tracker" in command_line:
        return "resource tracker"
    if "forkserver" in command_line:
        return "forkserver"
    if "multiprocessing" in command_line or "distributed" in command_line or "dask" in command_line:
        return "dask worker"
    return "other"


def _command_line(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return handle.read().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return ""


def summarise_processes(seen: dict) -> dict:
    """role -> {processes, cpu_seconds (summed), peak_mib (the largest of one process), peak_mib_sum}
    from pid -> {role, cpu_seconds, peak_bytes}."""
    roles = {}
    for process in seen.values():
        role = roles.setdefault(process["role"], {"processes": 0, "cpu_seconds": 0.0, "peak_mib": 0.0,
                                                  "peak_mib_sum": 0.0})
        role["processes"] += 1
        role["cpu_seconds"] += process["cpu_seconds"]
        role["peak_mib"] = max(role["peak_mib"], process["peak_bytes"] / 2**20)
        role["peak_mib_sum"] += process["peak_bytes"] / 2**20
    return roles


def run_measured(command, env=None, cwd=None) -> dict:
    """Run `command`; return wall seconds, CPU seconds and peak resident memory (MiB) of its process tree,
    the exit code, and by role of process (`processes`, see summarise_processes) the sampled CPU and peaks.
    `peak_process_mib` is the largest peak of any one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    process = subprocess.Popen(command, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    peak = [0]
    seen = {}  # pid -> {"role", "cpu_seconds", "peak_bytes"}: the last CPU figure read, the largest RSS

    def sample():
        while process.poll() is None:
            processes = _read_processes()
            tree = _tree(processes, process.pid)
            peak[0] = max(peak[0], sum(processes[pid][2] for pid in tree))
            for pid in tree:
                _, cpu, rss = processes[pid]
                if pid not in seen:
                    seen[pid] = {"role": process_role(_command_line(pid), pid == process.pid),
                                 "cpu_seconds": 0.0, "peak_bytes": 0}
                seen[pid]["cpu_seconds"] = max(seen[pid]["cpu_seconds"], cpu)
                seen[pid]["peak_bytes"] = max(seen[pid]["peak_bytes"], rss)
            time.sleep(SAMPLE_SECONDS)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    output, _ = process.communicate()
    sampler.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"seconds": time.monotonic() - started, "cpu_seconds": cpu, "peak_mib": peak[0] / 2**20,
            "peak_process_mib": max((p["peak_bytes"] for p in seen.values()), default=0) / 2**20,
            "processes": summarise_processes(seen), "returncode": process.returncode, "output": output}


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
