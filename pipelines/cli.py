"""The `capclean` command line: the parser built from COMMANDS, the dispatch, and every error as one
line with a documented exit code. No command's body is here: each command is one module
(pipelines/commands/registry.py lists them)."""
import argparse
import sys

from pipelines.commands.registry import COMMANDS
from pipelines.commands.arguments import BEAM_HELP
from pipelines.commands.command import EXIT_INTERRUPTED, EXIT_USAGE, BeamOptions
from pipelines.output.object_store import run_with_object_store
from pipelines.runtime.logs import add_logging_arguments, chosen_level, configure_logging, one_line_on_interrupt
from pipelines.runtime.malloc import return_freed_memory
from transforms.errors import CapcleanError, ConfigError, find_error_line

INTERRUPTED = "capclean: interrupted; the earlier output, if any, is as it was"


class VersionAction(argparse.Action):
    """--version: one line, the version and the git commit (found only when asked for)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from pipelines.output.manifest import version_line

        print(version_line())
        parser.exit()


class OneLineParser(argparse.ArgumentParser):
    """A mistyped flag or value is one line, as every other error: argparse's own would print the usage first."""

    def error(self, message):
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def build_parser(commands=COMMANDS) -> argparse.ArgumentParser:
    parser = OneLineParser(prog="capclean", description="Clean a crowd-sourced video-caption dataset (MSR-VTT "
                           "format) into validated Parquet tables, and evaluate retrieval models on it.")
    parser.add_argument("--version", action=VersionAction, help="print capclean's version (and git commit) and exit")
    subparsers = parser.add_subparsers(dest="command", required=True)
    groups = {}
    for command in commands:
        where = subparsers
        if len(command.words) == 2:  # `capclean da prepare`: the group's parser holds its commands
            where = groups.get(command.words[0]) or groups.setdefault(command.words[0], add_group(subparsers, command))
        # No abbreviations: a shortened or renamed flag must not pass for another one.
        sub = where.add_parser(command.words[-1], help=command.help, description=command.help, allow_abbrev=False,
                               epilog=epilog(command), formatter_class=argparse.RawDescriptionHelpFormatter)
        command.add_arguments(sub)
        add_logging_arguments(sub)
        sub.add_argument("--version", action=VersionAction, help="print capclean's version (and git commit) and exit")
    return parser


def add_group(subparsers, command):
    """The parser of a group of commands (`capclean da`), whose first command names it."""
    group = subparsers.add_parser(command.words[0], help=f"{command.words[0]} commands: "
                                  f"`capclean {command.words[0]} --help` lists them", allow_abbrev=False)
    return group.add_subparsers(dest="group_command", required=True)


def chosen_command(namespace: argparse.Namespace, commands):
    """The command the parsed words name."""
    words = (namespace.command, getattr(namespace, "group_command", None))
    return next(command for command in commands if command.words == words[:len(command.words)])


def epilog(command) -> str:
    example = f"example: capclean {command.name} {' '.join(command.example)}" if command.example else ""
    return "\n\n".join(part for part in (example, BEAM_HELP if command.takes_beam_options else "") if part)


def main(argv=None) -> int:
    """The command line; Ctrl-C at any point is one line and exit code 130."""
    return_freed_memory()  # before any thread starts (pipelines/runtime/malloc.py)
    with one_line_on_interrupt():
        try:
            return run_command(argv)
        except KeyboardInterrupt:
            print(INTERRUPTED, file=sys.stderr)
            return EXIT_INTERRUPTED


def run_command(argv=None, commands=COMMANDS) -> int:
    configure_logging()
    parser = build_parser(commands)
    namespace, extra = parser.parse_known_args(argv)
    command = chosen_command(namespace, commands)
    try:
        configure_logging(chosen_level(namespace))
        beam_args = join_flag_values(extra)
        check_extra_arguments(command, beam_args)
        args = command.arguments(namespace, BeamOptions(tuple(beam_args), tuple(own_flags(parser))))
        return run_with_object_store(command, args)  # s3:// and gs:// paths as local copies
    except (ConfigError, CapcleanError) as error:
        print(f"capclean: error: {find_error_line(error) or error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(INTERRUPTED, file=sys.stderr)
        return EXIT_INTERRUPTED
    except (OSError, MemoryError) as error:
        print(f"capclean: error: {system_error_line(error)}", file=sys.stderr)
        return EXIT_USAGE


def check_extra_arguments(command, beam_args: list) -> None:
    """What argparse did not take: a renamed flag is refused naming the new one; a command that takes no
    Beam options refuses them all; a word that is no flag is refused. The rest goes to Beam."""
    for arg in beam_args:
        new = command.renamed.get(arg.split("=", 1)[0])
        if new:
            raise ConfigError(f"{command.name} {arg.split('=', 1)[0]} is now {new}")
    unknown = [arg for arg in beam_args if not arg.startswith("--")]
    if unknown or (beam_args and not command.takes_beam_options):
        raise ConfigError(f"unexpected arguments: {' '.join(beam_args)}")


def system_error_line(error: BaseException) -> str:
    """One line for a failure of the system: a file that cannot be written, a full disk, no memory."""
    if isinstance(error, MemoryError):
        return "out of memory; give the run more memory, or fewer worker processes (--direct_num_workers)"
    where = f" ({error.filename})" if getattr(error, "filename", None) else ""
    return f"{error.strerror or error}{where}" if isinstance(error, OSError) else str(error)


def join_flag_values(beam_args: list) -> list:
    """`--runner DaskRunner` -> `--runner=DaskRunner`: a Beam flag may take its value as the next word."""
    joined = []
    for arg in beam_args:
        if joined and not arg.startswith("-") and joined[-1].startswith("--") and "=" not in joined[-1]:
            joined[-1] = f"{joined[-1]}={arg}"
        else:
            joined.append(arg)
    return joined


def own_flags(parser: argparse.ArgumentParser) -> list:
    """Every --flag of every capclean command."""
    subparsers = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
    return sorted({flag for command in subparsers.choices.values() for action in command._actions
                   for flag in action.option_strings if flag.startswith("--")})


if __name__ == "__main__":
    sys.exit(main())
