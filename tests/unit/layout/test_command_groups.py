"""A command named by two words (`capclean da prepare`) sits in its group's parser: `capclean da --help`
lists the group, the words reach the right command, and a one-word command beside it is unchanged."""
from dataclasses import dataclass

import pytest

from pipelines.cli import build_parser, run_command
from pipelines.commands.command import Command


@dataclass(frozen=True)
class NoArgs:
    pass


def command_named(words: str, ran: list) -> Command:
    class Recorded(Command):
        name, help, Args = words, f"the {words} command", NoArgs

        def add_arguments(self, parser):
            pass

        def run(self, args):
            ran.append(self.name)
            return 0

    return Recorded()


def test_each_word_pair_reaches_its_own_command():
    ran = []
    commands = (command_named("solo", ran), command_named("grp first", ran), command_named("grp second", ran))
    assert [run_command(argv, commands) for argv in (["grp", "second"], ["solo"], ["grp", "first"])] == [0, 0, 0]
    assert ran == ["grp second", "solo", "grp first"]


def test_a_group_lists_its_commands_and_refuses_an_unknown_one(capsys):
    commands = (command_named("grp first", []), command_named("grp second", []))
    with pytest.raises(SystemExit):
        build_parser(commands).parse_args(["grp", "--help"])
    assert "first" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_:
        build_parser(commands).parse_args(["grp", "third"])
    assert exit_.value.code == 2
    assert "invalid choice: 'third'" in capsys.readouterr().err


def test_slug_and_words():
    command = command_named("da prepare", [])
    assert command.words == ("da", "prepare") and command.slug == "da-prepare"
