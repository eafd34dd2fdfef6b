"""The worker process of a local multi-process run: Beam's SDK worker with capclean's logging.

With --direct_running_mode=multi_processing, Beam's FnApiRunner starts N processes of
`python -m apache_beam.runners.worker.sdk_worker_main`. Such a process logs at INFO to the
terminal: its first warning (Beam's GCP module, at import) makes Python's logging add a
stderr handler to the root logger, and the worker then sets the root level to INFO, so
every worker prints some twenty lines of start-up and shut-down. capclean starts this
module instead (pipelines/runtime/runner.py): the same worker, whose stderr shows only the messages
at CAPCLEAN_WORKER_LOG_LEVEL and above (WARNING unless `--log-level DEBUG`), and which
leaves Ctrl-C to the command that started it (which stops its workers when it exits): at
Ctrl-C the worker only falls silent.
"""
import logging
import os
import signal
import sys

from pipelines.runtime.malloc import return_freed_memory

WORKER_LOG_LEVEL = "CAPCLEAN_WORKER_LOG_LEVEL"


# Beam's warnings that say nothing about a local run: its GCP module's, at import, about optional
# Google clients; the worker's, about a staging folder only remote workers have.
IDLE_WARNINGS = ("apitools not found", "No semi_persistent_directory found")


def not_idle_warning(record) -> bool:
    return not str(record.msg).startswith(IDLE_WARNINGS)


def not_a_reraised_failure(record) -> bool:
    """A DoFn's failure, which Beam logs with its traceback where it happens (the DoFn's runner, then
    the worker) and raises to the command all the same: the command prints it (one line for a
    capclean error, the traceback for any other), so it is left out here, unless at DEBUG."""
    if record.name == "apache_beam.runners.common":
        return not record.exc_info
    return not (record.name == "apache_beam.runners.worker.sdk_worker"
                and str(record.msg).startswith("Error processing instruction"))


def configure_worker_logging(level: str) -> logging.Handler:
    handler = logging.StreamHandler(sys.stderr)
    handler.setLevel(level)
    handler.setFormatter(logging.Formatter("%(asctime)s capclean worker %(process)d: %(levelname)s %(name)s: "
                                           "%(message)s", datefmt="%H:%M:%S"))
    handler.addFilter(not_idle_warning)
    if logging.getLevelName(level) != logging.DEBUG:
        handler.addFilter(not_a_reraised_failure)
    logging.getLogger().addHandler(handler)  # before Beam is imported: no handler of logging's own is added
    return handler


def main(argv) -> None:
    return_freed_memory()  # before the worker's threads start (pipelines/runtime/malloc.py)
    # A Ctrl-C in the terminal reaches every process of the foreground group: the command
    # prints one line and exits, and the workers, whose runner is gone, end with it.
    signal.signal(signal.SIGINT, fall_silent)
    configure_worker_logging(os.environ.get(WORKER_LOG_LEVEL, "WARNING"))
    from apache_beam.runners.worker import sdk_worker, sdk_worker_main

    if os.environ.get(WORKER_LOG_LEVEL, "WARNING") != "DEBUG":
        sdk_worker.print = print_but_tracebacks  # the module's own name `print`: nothing else changes
    drop_finished_stages_soon(sdk_worker)
    sdk_worker_main.main(argv)


# Seconds a stage's DoFns are kept after its last bundle (Beam: 60).
FINISHED_STAGE_SECONDS = 5


def drop_finished_stages_soon(sdk_worker) -> None:
    """A stage's DoFns, and all they built (a Speller's caches, a recheck round's figures), live as long as
    the worker keeps the stage's bundle processor for reuse: Beam drops one 60 s after its last bundle. The
    FnApiRunner gives each worker one bundle a stage, so that minute holds the memory of stages that are
    done while the next ones run: at 10x MSR-VTT a recheck round lasts about 35 s, and each one added about
    200 MiB to each worker (docs/benchmarks.md). A stage that does get another bundle later is set up again."""
    sdk_worker.DEFAULT_BUNDLE_PROCESSOR_CACHE_SHUTDOWN_THRESHOLD_S = FINISHED_STAGE_SECONDS


def fall_silent(signum, frame) -> None:
    """Ctrl-C: the worker goes on until the command stops it, but writes nothing more on stderr. Between
    the Ctrl-C and its end, the runner's gRPC server may close first, and Beam's data plane would log
    the cancelled call with its traceback ('GOAWAY received ... Cancelling all calls') under the
    command's one line. Standard error is pointed at /dev/null, so that gRPC's own C logging is silent too."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stderr.fileno())
    os.close(devnull)


def print_but_tracebacks(*args, **kwargs):
    """Beam's worker prints a failed bundle's traceback on stderr before it reports it to the runner,
    which raises it in the command (not_a_reraised_failure): that print is left out."""
    if kwargs.get("file") is sys.stderr and args and str(args[0]).startswith("Traceback"):
        return
    print(*args, **kwargs)


if __name__ == "__main__":
    main(sys.argv)
