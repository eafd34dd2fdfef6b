"""The names of the tests that compare a worker's scores of the original and the degraded captions
(transforms/da/scoring.py runs them). Apart from the scoring, so that the command line offers them
without loading scipy."""

WORKER_TESTS = ("wilcoxon", "t-test", "mann-whitney")
