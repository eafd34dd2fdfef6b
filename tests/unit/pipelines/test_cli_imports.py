"""The command line loads only what it uses: `capclean --help` and the import of pipelines.cli load none of
the heavy libraries the commands' work needs (issue 41, fixed cost). Each check runs in a fresh interpreter,
since this test session has loaded them all already."""
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]

# Loaded only by the work that needs them. numpy is not listed: step IV's module (transforms/runon/) still
# imports it when the command line lists the steps.
HEAVY = ("apache_beam", "great_expectations", "pandas", "pyarrow", "scipy", "spacy", "onnxruntime", "nltk",
         "selenium", "lemminflect", "hunspell")

SCRIPT = """
import contextlib, io, json, sys
import pipelines.cli
after_import = sorted(sys.modules)
sys.argv = ["capclean", "--help"]
with contextlib.redirect_stdout(io.StringIO()):
    try:
        pipelines.cli.main()
    except SystemExit:
        pass
print(json.dumps({"import": after_import, "help": sorted(sys.modules)}))
"""


def loaded_heavy(modules: list) -> list:
    return sorted({name.split(".")[0] for name in modules} & set(HEAVY))


def test_the_command_line_loads_no_heavy_library():
    loaded = json.loads(subprocess.run([sys.executable, "-c", SCRIPT], cwd=REPO, check=True, capture_output=True,
                                       text=True, env={"PYTHONPATH": str(REPO), "PATH": ""}).stdout)
    assert loaded_heavy(loaded["import"]) == []
    assert loaded_heavy(loaded["help"]) == []


def test_loaded_heavy_names_a_library_by_its_top_package():
    assert loaded_heavy(["scipy.stats", "json", "apache_beam"]) == ["apache_beam", "scipy"]
