"""Step IV: run-on captions.

  step.py            the step (Runon) and its rules: truncate (the paper), model (capclean's)
  prefilter.py       the word-level pre-filter that decides which captions the model scores
  boundary_model.py  the trained token classifier (ONNX, in model/) that finds sentence boundaries
  finite_verbs.txt   the pre-filter's word list (training/runon_lexicon.py rebuilds it)
"""
from transforms.runon.step import RUNON_RULES, Runon  # noqa: F401
