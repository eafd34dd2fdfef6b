"""The cleaning: the ordered STEPS (steps.py), the Beam stages that read, apply the steps, write and
validate (read_source, apply_step, write_tables, finalize, stats), what a clean run does around the
pipeline (run.py), and what the cleaning-side commands build on (sweep, exports, vocab, report)."""
