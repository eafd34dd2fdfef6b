"""A failure raised on a Beam worker, which the runner wraps in its own exception and traceback, turned
back into the error it was, so that the command line prints it as one line."""
import re

from transforms.errors import CapcleanError, find_error_line

# A failure of the system that a worker raised, as the runner's wrapping text shows it.
WORKER_SYSTEM_ERROR = re.compile(r"\b(?:[A-Za-z]+Error): \[Errno (\d+)\] ([^\n'\"]*)|\bMemoryError\b")


class worker_errors_as_one_line:
    """Turn a capclean error, a failed write or a lack of memory raised on a worker (wrapped by the
    runner in its own exception and traceback) back into the error it was, for one line."""

    def __enter__(self):
        return self

    def __exit__(self, kind, error, traceback):
        if error is None or isinstance(error, (CapcleanError, OSError, MemoryError)):
            return False
        if not isinstance(error, Exception):
            return False  # KeyboardInterrupt, SystemExit
        message = find_error_line(error)
        if message is not None:
            raise CapcleanError(message) from None
        system = WORKER_SYSTEM_ERROR.search(str(error))
        if system is None:
            return False
        if system.group(1) is None:
            raise MemoryError() from None
        raise OSError(int(system.group(1)), system.group(2).split(" [while running")[0].strip()) from None
