"""What every `capclean` command is, as transforms/step.py is for the cleaning steps.

A command is one module with a subclass of Command, and one line in COMMANDS
(pipelines/commands/registry.py). The command line (pipelines/cli.py) builds its parser, its
dispatch and its exit codes from COMMANDS alone; the contract every command keeps is tested once
over COMMANDS (tests/unit/layout/test_command_contract.py).
"""
import argparse
from dataclasses import dataclass, fields

# The exit codes a command returns or the command line maps an error to (the README lists them).
EXIT_VALIDATION_FAILED = 1  # `clean`: the output failed validation; the previous output is left as it was
EXIT_USAGE = 2  # a usage, configuration, input or output error, and any failure of the system (disk, memory)
EXIT_INTERRUPTED = 130  # Ctrl-C, as shells report it

# What a command writes, which its contract test checks.
FOLDER = "folder"  # --output DIR: a new or empty folder, or an earlier capclean output; marker and manifest
FILES = "files"  # the files its flags name (--output FILE, --json, --report): new ones, or earlier ones of capclean's


@dataclass(frozen=True)
class BeamOptions:
    """The flags capclean does not know, passed to Apache Beam, and capclean's own flags (so that a mistyped
    capclean flag is refused with the nearest one, not passed on)."""
    args: tuple = ()
    capclean_flags: tuple = ()


class Command:
    """One `capclean` command.

    name      the words after `capclean`: one (`clean`), or a group and a command (`da prepare`, `da score`);
              `capclean da --help` lists a group's commands
    help      one line for `capclean --help`
    Args      a frozen dataclass of the command's arguments: one field per flag, by its argparse dest
              (and `beam`, a BeamOptions, for a command that takes Beam options)
    writes    FOLDER or FILES
    example   the arguments of a small run, with {raw} (MSR-VTT-format annotations), {run} (a clean output),
              {hardneg}, {relevance}, {scores_for_hardneg}, {predictions}, {labels}, {similarity} (a texts x
              videos matrix of {raw}'s full-test protocol), {da_hits} (a prepared Direct Assessment folder),
              {da_judgments} (its judgments) and {out} (where it writes)
              to fill in: the contract test runs it, and `--help` shows it
    renamed   {old flag: new flag}: an old spelling is refused in one line that names the new one
    local_paths_only  the fields that must not name an s3:// or gs:// URL (a folder the command writes into),
              refused in one line (the others: pipelines/output/object_store.py)
    """
    name: str = ""
    help: str = ""
    Args: type = None
    takes_beam_options: bool = False
    writes: str = FOLDER
    example: tuple = ()
    renamed: dict = {}
    local_paths_only: tuple = ()

    @property
    def words(self) -> tuple:
        """The words after `capclean`: ("clean",) or ("da", "prepare")."""
        return tuple(self.name.split())

    @property
    def slug(self) -> str:
        """The name as one word, for file names: docs/commands/<slug>.md ("da-prepare")."""
        return "-".join(self.words)

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Declare the command's flags (the shared ones: pipelines/commands/arguments.py)."""
        raise NotImplementedError

    def run(self, args) -> int:
        """The command's body on its typed arguments; returns the exit code. Heavy imports go inside it, so
        that `capclean --help` and a refused flag stay fast."""
        raise NotImplementedError

    def arguments(self, namespace: argparse.Namespace, beam: BeamOptions):
        """The typed arguments from what argparse parsed."""
        values = {field.name: getattr(namespace, field.name) for field in fields(self.Args) if field.name != "beam"}
        if self.takes_beam_options:
            values["beam"] = beam
        return self.Args(**values)
