"""Errors that stop a run with one clear line, even when raised on a worker far from the command line."""

MARK = "capclean error: "


class CapcleanError(ValueError):
    """Its message names the file or record and the problem; the command line prints just that."""

    def __init__(self, message):
        super().__init__(MARK + message)


def find_error_line(error: BaseException):
    """The message of the (last) capclean error inside an exception, without the mark.

    Runners wrap and stringify what a worker raised, so the message is searched for in the text.
    """
    text = str(error)
    if MARK not in text:
        return None
    message = text[text.rindex(MARK) + len(MARK):].splitlines()[0]
    return message.split(" [while running")[0].strip()


class ConfigError(ValueError):
    """A configuration file or flag that cannot be used; the message says which and why."""
