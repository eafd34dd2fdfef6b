"""COMMANDS: every `capclean` command, in the order `capclean --help` lists them.

A command is one module with a subclass of Command (pipelines/commands/command.py) and one line
here; the parser, the dispatch, the refusal of Beam flags and of renamed flags, and the contract
test all read this tuple. The README's "Adding a command" says how, and
tests/unit/layout/test_adding_a_command.py shows it."""
from pipelines.cleaning.commands.clean import Clean
from pipelines.cleaning.commands.export import Export
from pipelines.cleaning.commands.report import Report
from pipelines.cleaning.commands.sweep import Sweep
from pipelines.cleaning.commands.vocab import Vocab
from pipelines.evaluation.da.prepare.command import DaPrepare
from pipelines.evaluation.da.score.command import DaScore
from pipelines.evaluation.baseline.command import Baseline
from pipelines.evaluation.evaluate.command import Evaluate
from pipelines.evaluation.fire.command import Fire
from pipelines.evaluation.hardneg.command import Hardneg
from pipelines.evaluation.ndcg.command import Ndcg
from pipelines.evaluation.overlap.command import Overlap
from pipelines.evaluation.posrank.command import Posrank
from pipelines.evaluation.relevance.command import Relevance

COMMANDS = (
    Clean(),  # the cleaning
    Sweep(),
    Report(),
    Export(),
    Vocab(),
    Hardneg(),  # the evaluation
    Posrank(),
    Overlap(),
    Fire(),
    Relevance(),
    Ndcg(),
    Evaluate(),
    Baseline(),
    DaPrepare(),  # Direct Assessment
    DaScore(),
)
