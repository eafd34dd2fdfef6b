"""The command line's commands: Command and its shared flags (command.py, arguments.py) and the
registry of every command (registry.py). Nothing is imported here, so that a command's module can be
imported first, on its own (a notebook, a test), without the registry importing it half-way."""
