"""capclean's command line and what runs it.

  cli.py        the parser, built from COMMANDS; dispatch; errors as one line and an exit code
  commands/     the Command interface and COMMANDS, the ordered registry (one line a command)
  config.py     the cleaning configuration, typed; profiles/ holds its two profiles
  cleaning/     the cleaning graph (STEPS and the Beam stages around them) and the cleaning commands
  evaluation/   one package per evaluation command: its command module, its run, its page
  runtime/      the Beam runtime: runner choice, Dask, the worker process, progress lines, logs
  output/       output safety: the folder swap and marker, the manifest, the page files
  pages/        the HTML every page shares: style, template, escaping, charts
  install/      installing what capclean reads from the system (WordNet)
"""
