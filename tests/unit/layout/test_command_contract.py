"""One contract for every command of COMMANDS, tested once (the checks: CommandContract in conftest.py).

Each command's example runs once into a folder, which the checks that read an output share; the inputs it
names are built once for the session (tiny: six videos, Beam's in-process runner, --k 3)."""
import pytest

from pipelines.cli import build_parser
from pipelines.commands.registry import COMMANDS


@pytest.fixture(scope="module", params=COMMANDS, ids=[command.name for command in COMMANDS])
def contract(request, repo, tmp_path_factory, capclean_in_process, example_inputs, command_contract):
    command = request.param
    return command_contract(command, capclean_in_process, build_parser(),
                            example_inputs(request, command.example), repo / "docs" / "commands",
                            tmp_path_factory.mktemp)


def test_every_command_has_an_example_and_a_doc(contract):
    contract.check_example_and_docs()


def test_help_names_every_flag_the_docs_name(contract):
    contract.check_help_names_the_documented_flags()


def test_the_arguments_are_the_flags(contract):
    contract.check_args_are_the_flags()


def test_a_users_folder_or_file_is_refused(contract):
    contract.check_a_users_output_is_refused()


def test_an_output_folder_has_the_marker_and_a_manifest(contract):
    contract.check_marker_and_manifest()


def test_its_tables_have_the_schemas_schemas_declares(contract):
    contract.check_tables_have_their_schemas()


def test_the_same_input_gives_the_same_bytes(contract):
    contract.check_same_bytes()


def test_a_bad_flag_is_one_line(contract):
    contract.check_a_bad_flag_is_one_line()


def test_a_renamed_flag_is_refused_naming_the_new_one(contract):
    contract.check_renamed_flags_are_refused()
