"""The README's "Adding a command" holds: one new module and one line in COMMANDS make a command that
`capclean --help` lists, that runs, and that keeps the contract every command keeps (the checks of
test_command_contract.py, run here on it)."""
import importlib.util
import json
import textwrap
from collections import Counter

import pyarrow.parquet as pq
import pytest

from pipelines.cli import build_parser

NEW_COMMAND = '''
"""`capclean count`: a run's captions per split, into an output folder (docs/commands/count.md)."""
import json
from dataclasses import dataclass
from pathlib import Path

from pipelines.commands.arguments import add_output_folder_arguments
from pipelines.commands.command import Command
from transforms.errors import CapcleanError


@dataclass(frozen=True)
class CountArgs:
    input: str
    output: str
    overwrite: bool


class Count(Command):
    name = "count"
    help = "a run's captions per split"
    Args = CountArgs
    example = ("--input", "{run}", "--output", "{out}")

    def add_arguments(self, parser):
        add_output_folder_arguments(parser, "a capclean output folder", "counts.json and manifest.json")

    def run(self, args: CountArgs) -> int:
        import pyarrow.parquet as pq
        from pipelines.output.folder import check_target, put_in_place, staging_for, write_marker
        from pipelines.output.manifest import Clock, build_manifest, source_run_record, write_manifest

        clock = Clock()
        output = Path(args.output)
        check_target(output, [args.input], args.overwrite)  # before any work
        captions = Path(args.input) / "captions"
        if not captions.is_dir():
            raise CapcleanError(f"--input {args.input} is not a capclean output (no captions/)")
        splits = pq.read_table(captions, columns=["split"])["split"].to_pylist()
        counts = {split: splits.count(split) for split in sorted(set(splits))}
        output = output.resolve()
        with staging_for(output) as staging:
            staging.mkdir()
            (staging / "counts.json").write_text(json.dumps(counts, indent=2) + "\\n", encoding="utf-8")
            write_marker(staging, {"command": "count"})
            write_manifest(staging, build_manifest("count", input_info={"path": str(Path(args.input).resolve())},
                                                   source_run=source_run_record(args.input), stats=counts,
                                                   clock=clock))
            put_in_place(staging, output, [args.input])
        print(f"capclean count: {counts}; output in {output}")
        return 0
'''

NEW_DOC = '''
# `capclean count`: a run's captions per split

Module: `count_command.py`.

```sh
.venv/bin/capclean count --input RUN --output DIR [--overwrite]
```

- `--input RUN`: a capclean output folder.
- `--output DIR`: where `counts.json` and `manifest.json` go: a new or empty folder, or with `--overwrite`
  an earlier capclean output.
'''

# Run in a fresh interpreter: pipelines/commands/registry.py with one import and one line added to COMMANDS
# stands in for the edited file.
RUN = '''
import sys
from pathlib import Path
import pipelines.commands.registry as commands
source = Path(commands.__file__).read_text()
edited = source.replace("\\nCOMMANDS = (", "\\nfrom count_command import Count\\n\\nCOMMANDS = (", 1)
edited = edited.replace("\\n)\\n", "\\n    Count(),\\n)\\n", 1)
assert edited.count("Count") == 2, "pipelines/commands/registry.py is not as this test expects"
exec(compile(edited, commands.__file__, "exec"), commands.__dict__)
from pipelines.cli import main
sys.exit(main(sys.argv[1:]))
'''


@pytest.fixture(scope="module")
def new_module(tmp_path_factory):
    """The folder holding the new module, count_command.py, and its doc, docs/count.md (in the repository:
    docs/commands/count.md)."""
    folder = tmp_path_factory.mktemp("new-command")
    (folder / "count_command.py").write_text(textwrap.dedent(NEW_COMMAND))
    (folder / "docs").mkdir()
    (folder / "docs" / "count.md").write_text(textwrap.dedent(NEW_DOC))
    return folder


@pytest.fixture(scope="module")
def count(new_module):
    """The new command, loaded in this process too: the contract reads its name, Args, example and parser
    here, and runs it through the command line it was added to."""
    spec = importlib.util.spec_from_file_location("count_command", new_module / "count_command.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Count()


@pytest.fixture(scope="module")
def capclean(repo, new_module, capclean_in_a_new_interpreter):
    """argv -> Ran: the command line with `count` added to COMMANDS."""
    return capclean_in_a_new_interpreter(RUN, f"{repo}:{new_module}")


@pytest.fixture(scope="module")
def contract(request, count, capclean, new_module, tmp_path_factory, example_inputs, command_contract):
    return command_contract(count, capclean, build_parser((count,)), example_inputs(request, count.example),
                            new_module / "docs", tmp_path_factory.mktemp)


def test_capclean_lists_the_new_command(capclean):
    listed = capclean(["--help"])
    assert listed.code == 0, listed.stderr
    assert "a run's captions per split" in listed.stdout
    shown = capclean(["count", "--help"])
    assert shown.code == 0 and "example: capclean count --input {run} --output {out}" in shown.stdout


def test_it_counts_a_runs_captions(contract, example_run):
    counts = json.loads((contract.written / "counts.json").read_text())
    assert counts == Counter(pq.read_table(example_run / "captions", columns=["split"])["split"].to_pylist())


def test_it_keeps_the_contract_of_every_command(contract):
    not_applicable = []
    for check in contract.checks():
        try:
            check()
        except pytest.skip.Exception as skipped:
            not_applicable.append(str(skipped))
    assert not_applicable == ["count writes no Parquet table", "count has no renamed flag"]
