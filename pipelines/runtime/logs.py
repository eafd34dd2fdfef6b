"""What capclean prints while it works: `--log-level`, `--quiet`, and the libraries kept quiet.

- capclean's own messages (the `capclean` loggers: what it cleans, the progress lines,
  warnings) are shown from `--log-level` (default INFO) up;
- the libraries' (Apache Beam, its worker processes, Great Expectations, matplotlib) only
  from WARNING up, or from DEBUG up with `--log-level DEBUG`;
- `--quiet`: errors only (the final summary of a run is still printed, on stdout).
Messages go to stderr; the summary of a run to stdout.
"""
import contextlib
import logging
import os
import signal
import sys
import threading

from pipelines.config import ConfigError
from pipelines.runtime.sdk_worker import WORKER_LOG_LEVEL, not_a_reraised_failure, not_idle_warning

LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


def add_logging_arguments(command) -> None:
    messages = command.add_argument_group("messages")
    messages.add_argument("--log-level", metavar="LEVEL", help=f"the least severe message shown: {', '.join(LEVELS)} "
                          "(default: INFO; the libraries' own messages are shown from WARNING, or with DEBUG from "
                          "DEBUG)")
    messages.add_argument("-q", "--quiet", action="store_true", help="print errors only, no progress (a run still "
                          "prints its summary on stdout)")


def chosen_level(args) -> int:
    """The level of capclean's messages that --log-level and --quiet ask for; a ConfigError if mistyped."""
    name = getattr(args, "log_level", None)
    quiet = getattr(args, "quiet", False)
    if name is None:
        return logging.ERROR if quiet else logging.INFO
    if name.upper() not in LEVELS:
        raise ConfigError(f"--log-level: unknown level {name!r}; choose from {', '.join(LEVELS)}")
    if quiet:
        raise ConfigError("--quiet and --log-level: give one of them")
    return getattr(logging, name.upper())


class StderrHandler(logging.StreamHandler):
    """A handler on whatever sys.stderr is when a line is written (as logging's own last resort)."""

    def __init__(self):
        super().__init__(sys.stderr)

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, value):
        pass

    def emit(self, record):
        progress = sys.modules.get("pipelines.runtime.progress")  # not imported: no status line (and no Beam to load)
        if progress is not None:
            progress.clear_status_line()
        super().emit(record)


class LineFormatter(logging.Formatter):
    """`12:00:00 capclean: message` for capclean's messages, with the logger's name and level for the others'."""

    def format(self, record):
        self._style._fmt = ("%(asctime)s capclean: %(message)s" if record.name.split(".")[0] == "capclean"
                            else "%(asctime)s %(name)s: %(levelname)s: %(message)s")
        return super().format(record)


def not_a_worker_copy(record) -> bool:
    """Beam's local runner logs again, in one long line, what each worker process logged; the worker
    process (pipelines/runtime/sdk_worker.py) has printed it already."""
    return not (record.name == "apache_beam.runners.portability.local_job_service"
                and str(record.msg).startswith("Worker: "))


def configure_logging(level: int = logging.INFO) -> None:
    """One handler on stderr; capclean's loggers at `level`, the libraries' at WARNING (or DEBUG).

    When the process has handlers of its own already (pytest, a notebook that configured
    logging), they are left alone and only the levels are set, as logging.basicConfig does."""
    root = logging.getLogger()
    for handler in [handler for handler in root.handlers if isinstance(handler, StderrHandler)]:
        root.removeHandler(handler)
    if not root.handlers:
        handler = StderrHandler()
        handler.setFormatter(LineFormatter(datefmt="%H:%M:%S"))
        handler.addFilter(not_idle_warning)
        handler.addFilter(not_a_worker_copy)
        if level > logging.DEBUG:
            handler.addFilter(not_a_reraised_failure)
        root.addHandler(handler)
    libraries = logging.DEBUG if level <= logging.DEBUG else max(level, logging.WARNING)
    root.setLevel(libraries)
    logging.getLogger("capclean").setLevel(level)
    for library in ("apache_beam", "great_expectations", "matplotlib", "distributed"):
        logging.getLogger(library).setLevel(libraries)
    os.environ[WORKER_LOG_LEVEL] = logging.getLevelName(libraries)  # read by the worker processes


def stop_worker_processes() -> None:
    """Kill this process's Beam SDK worker processes (pipelines/runtime/sdk_worker.py), which ignore Ctrl-C:
    Beam's runner, interrupted, would otherwise wait for each to finish its bundle."""
    import psutil

    try:
        children = psutil.Process().children(recursive=True)
    except psutil.Error:
        return
    for child in children:
        try:
            if "pipelines.runtime.sdk_worker" in " ".join(child.cmdline()):
                child.kill()
        except psutil.Error:
            pass  # gone already


@contextlib.contextmanager
def one_line_on_interrupt():
    """Ctrl-C -> KeyboardInterrupt in the main thread, with the worker processes stopped first and the
    runner's threads, which fail as their workers go, silenced: the command prints its one line."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    excepthook = threading.excepthook

    def interrupted(signum, frame):
        threading.excepthook = lambda args: None
        logging.disable(logging.CRITICAL)
        stop_worker_processes()
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, interrupted)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        threading.excepthook = excepthook
        logging.disable(logging.NOTSET)
