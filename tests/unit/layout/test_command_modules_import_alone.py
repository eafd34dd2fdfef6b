"""Each command's module can be imported first, alone (a notebook, a test): the registry of commands is
not in the package's __init__, where importing a command module would start the registry, which imports
that same module half-way (test_hardneg_report.py failed so when run on its own)."""
import subprocess
import sys

from pipelines.commands.registry import COMMANDS


def test_every_command_module_imports_in_a_fresh_interpreter(repo):
    modules = sorted({type(command).__module__ for command in COMMANDS})
    assert len(modules) == len(COMMANDS)
    for module in modules:
        run = subprocess.run([sys.executable, "-c", f"import {module}"], cwd=repo, capture_output=True, text=True)
        assert run.returncode == 0, f"{module}: {run.stderr.strip().splitlines()[-1:]}"
