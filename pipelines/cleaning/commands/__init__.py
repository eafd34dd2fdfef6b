"""The cleaning side's commands: clean, sweep, report, export, vocab; one module each."""
