"""The README's "Adding a step" holds: one new module and one line in STEPS, and the configuration,
--steps, the lineage tables, stats.json and the validation take the new step up."""
import json
import subprocess
import sys
import textwrap

import pyarrow.parquet as pq

NEW_STEP = '''
from dataclasses import dataclass, replace

from transforms import lineage
from transforms.batch import Caption
from transforms.step import Step


@dataclass(frozen=True)
class ShoutSettings:
    word: str = "loudly"


class Shout(Step):
    """Adds a word to every caption, and removes captions of one word."""
    name = "shout"
    summary = "a word added"
    Settings = ShoutSettings

    def process(self, video):
        kept = [c for c in video.captions if len(c.text.split()) > 1]
        removed = [lineage.removed(video, c.sen_id, c.text, self.name, "one word") for c in video.captions
                   if c not in kept]
        edits = [lineage.edit(video, c.sen_id, self.name, "add", c.text, f"{c.text} {self.settings.word}")
                 for c in kept]
        return replace(video, captions=[Caption(c.sen_id, f"{c.text} {self.settings.word}") for c in kept],
                       edits=video.edits + edits, removed=video.removed + removed)
'''

# Run in a fresh interpreter: pipelines/cleaning/steps.py with one line added to STEPS stands in for the edited file.
RUN = '''
import sys, types
from pathlib import Path
import pipelines.cleaning
source = Path(pipelines.cleaning.__file__).with_name("steps.py").read_text()
source = source.replace("from transforms.step import runs\\n", "from transforms.step import runs\\nfrom shout_step import Shout\\n")
source = source.replace("    Runon,  #", "    Shout,\\n    Runon,  #")
clean = types.ModuleType("pipelines.cleaning.steps")
clean.__file__ = str(Path(pipelines.cleaning.__file__).with_name("steps.py"))
sys.modules["pipelines.cleaning.steps"] = clean
exec(compile(source, clean.__file__, "exec"), clean.__dict__)
from pipelines.cli import main
sys.exit(main(sys.argv[1:]))
'''


def test_a_new_step_is_one_module_and_one_line(tmp_path, repo, tiny_dataset):
    (tmp_path / "shout_step.py").write_text(textwrap.dedent(NEW_STEP))
    (tmp_path / "shout.yaml").write_text("steps: [normalize, shout]\nshout:\n  word: aloud\n")
    source, output = tiny_dataset(tmp_path / "in"), tmp_path / "out"
    done = subprocess.run([sys.executable, "-c", RUN, "clean", "--input", str(source), "--output", str(output),
                           "--config", str(tmp_path / "shout.yaml")],
                          cwd=repo, env={"PYTHONPATH": f"{repo}:{tmp_path}", "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    stats = json.loads((output / "stats.json").read_text())
    assert stats["steps_run"] == ["normalize", "screen", "shout"]
    assert stats["steps"]["shout"]["captions_changed"] > 0
    captions = pq.read_table(output / "captions").column("caption").to_pylist()
    assert captions and all(caption.endswith(" aloud") for caption in captions)
    edits = pq.read_table(output / "edits").to_pylist()
    assert {row["step"] for row in edits} == {"normalize", "shout"}
    assert json.loads((output / "validation" / "result.json").read_text())["success"]
