"""The cleaning: the ordered STEPS (steps.py), the Beam stages that read, apply the steps, write and
count (read_source, apply_step, write_tables, finalize, stats), what a clean run does around the
pipeline (run.py; the validation of the written tables in verdict.py), and what the cleaning-side
commands build on (sweep, exports, vocab, report)."""
