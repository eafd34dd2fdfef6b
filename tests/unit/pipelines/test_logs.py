"""What a run prints: no Beam worker chatter, one progress line per step with the totals of all workers,
--quiet and --log-level, one line on Ctrl-C; `make run` fits in 30 lines."""
import os
import signal
import subprocess
import sys
import time

import psutil
import pytest

from pipelines.cli import main

MAKE_RUN_LINES = 30


def cli_command(source, output, *flags):
    """`make run`'s command line (Makefile: run), on the module of this checkout."""
    return [sys.executable, "-m", "pipelines.cli", "clean", "--input", str(source), "--output", str(output),
            "--overwrite", "--profile", "default", "--export", "msrvtt-json,coco,hf", *flags]


# --- The flags ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("flags, line", [
    (["--log-level", "LOUD"], "capclean: error: --log-level: unknown level 'LOUD'; choose from DEBUG, INFO, WARNING, "
                              "ERROR"),
    (["--log-level", "info", "--quiet"], "capclean: error: --quiet and --log-level: give one of them"),
])
def test_a_mistyped_level_is_one_line_and_exit_2(tmp_path, capsys, tiny_dataset, flags, line):
    source = tiny_dataset(tmp_path / "in")
    for command in (["clean", "--input", str(source), "--output", str(tmp_path / "out")],
                    ["sweep", "--input", str(source), "--output", str(tmp_path / "out")],
                    ["hardneg", "--input", str(source), "--output", str(tmp_path / "out")],
                    ["report", str(tmp_path)]):
        assert main(command + flags) == 2
        captured = capsys.readouterr()
        assert captured.err.splitlines() == [line] and captured.out == ""
    assert not (tmp_path / "out").exists()


def test_quiet_prints_the_summary_and_logs_nothing(tmp_path, capsys, caplog, tiny_dataset):
    # Under pytest, whose handlers capclean leaves alone (pipelines/runtime/logs.py), the records are in caplog.
    source = tiny_dataset(tmp_path / "in")
    assert main(["clean", "--input", str(source), "--output", str(tmp_path / "out"), "--quiet"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and captured.out.startswith("capclean: done in ")
    assert [record.getMessage() for record in caplog.records if record.name.startswith("capclean")] == []


def test_the_default_run_says_what_it_cleans_and_each_step(tmp_path, capsys, caplog, tiny_dataset):
    source = tiny_dataset(tmp_path / "in")
    assert main(["clean", "--input", str(source), "--output", str(tmp_path / "out"), "--profile", "paper"]) == 0
    progress = [record.getMessage() for record in caplog.records if record.name == "capclean.progress"]
    assert [line.split(":")[0] for line in progress] == ["read", "normalize", "spelling", "screen", "dedup", "runon"]
    assert progress[0].startswith("read: 3 videos, ") and all(" of 3 videos, " in line for line in progress[1:])
    assert "\r" not in capsys.readouterr().err


# --- Whole runs with Beam's worker processes, as `make run` starts them ------------------------------

def test_make_run_prints_at_most_30_lines_with_the_totals_of_both_workers(tmp_path, repo, small_msrvtt,
                                                                          multi_process):
    source = small_msrvtt.write(tmp_path / "in")
    run = subprocess.run(cli_command(source, tmp_path / "out", *multi_process), cwd=repo, capture_output=True,
                         text=True, timeout=600)
    lines = (run.stdout + run.stderr).splitlines()
    assert run.returncode == 0, run.stderr
    assert len(lines) <= MAKE_RUN_LINES, "\n".join(lines)
    assert not [line for line in lines if "INFO" in line or "apache_beam" in line or "Worker" in line]
    videos = len(small_msrvtt.VIDEOS)  # three on each of the two workers
    for step in ("normalize", "spelling", "screen", "dedup", "runon"):
        assert sum(f"capclean: {step}: {videos} of {videos} videos" in line for line in lines) == 1, step
    assert "\r" not in run.stderr


def worker_processes(pid) -> list:
    try:
        children = psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return []
    found = []
    for child in children:
        try:
            if "pipelines.runtime.sdk_worker" in " ".join(child.cmdline()):
                found.append(child)
        except psutil.Error:
            pass
    return found


def test_a_worker_at_ctrl_c_goes_on_but_writes_nothing_more_on_stderr(repo):
    """Beam's data plane in a worker, and gRPC's C core, would log the runner's cancelled calls under the
    command's one line; at Ctrl-C a worker's standard error goes to /dev/null, and the worker goes on."""
    script = ("import os, signal, sys\n"
              "from pipelines.runtime.sdk_worker import fall_silent\n"
              "signal.signal(signal.SIGINT, fall_silent)\n"
              "print('before', file=sys.stderr, flush=True)\n"
              "os.kill(os.getpid(), signal.SIGINT)\n"
              "print('GOAWAY received', file=sys.stderr, flush=True)\n"
              "os.write(2, b'from C code')\n"
              "print('still running')\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=repo, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(repo)})
    assert (done.returncode, done.stdout, done.stderr) == (0, "still running\n", "before\n")


def test_ctrl_c_while_the_workers_run_is_one_line_and_exit_130(tmp_path, repo, small_msrvtt, multi_process):
    source = small_msrvtt.write(tmp_path / "in")
    run = subprocess.Popen(cli_command(source, tmp_path / "out", *multi_process), cwd=repo, text=True,
                           start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 300
        workers = []
        while len(workers) < 2 and run.poll() is None and time.monotonic() < deadline:
            workers = [worker for worker in worker_processes(run.pid) if "python" in worker.name()]
            time.sleep(0.2)
        assert len(workers) >= 2, "the run never started its worker processes"
        time.sleep(2)
        os.killpg(run.pid, signal.SIGINT)  # as the terminal sends Ctrl-C: to the run and its workers
        out, err = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
    assert run.returncode == 130
    assert err.splitlines()[-1] == "capclean: interrupted; the earlier output, if any, is as it was"
    assert "Traceback" not in err and "Error" not in err
    assert not [worker for worker in workers if worker.is_running() and worker.status() != psutil.STATUS_ZOMBIE]
    assert sorted(path.name for path in tmp_path.iterdir() if not path.name.endswith(".lock")) == ["in"]


def test_a_failure_on_a_worker_is_one_line_without_beams_tracebacks(tmp_path, repo, multi_process):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "list.json").write_text("[]")
    run = subprocess.run(cli_command(tmp_path / "in", tmp_path / "out", *multi_process), cwd=repo,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 2
    lines = run.stderr.splitlines()
    assert len(lines) == 2 and " capclean: cleaning " in lines[0], run.stderr
    assert lines[1].startswith("capclean: error: ") and "list.json is not an MSR-VTT annotation file" in lines[1]


# Python runs a `sitecustomize` module found on its path at start-up: this one holds back the first
# worker's start (Beam names it worker_0 in its environment) and nothing else.
LATE_FIRST_WORKER = """import os, time
if os.environ.get("WORKER_ID") == "worker_0":
    time.sleep(10)
"""


def test_a_failure_with_a_worker_still_starting_is_one_line_and_ends(tmp_path, repo, multi_process):
    # The first worker fails the bundle while the second is still starting (under load, once in ~17 runs).
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "list.json").write_text("[]")
    (tmp_path / "late").mkdir()
    (tmp_path / "late" / "sitecustomize.py").write_text(LATE_FIRST_WORKER)
    path = os.pathsep.join([str(tmp_path / "late"), str(repo), os.environ.get("PYTHONPATH", "")])
    run = subprocess.run(cli_command(tmp_path / "in", tmp_path / "out", *multi_process), cwd=repo,
                         capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": path})
    assert run.returncode == 2, run.stderr
    assert run.stderr.splitlines()[-1].startswith("capclean: error: ")
