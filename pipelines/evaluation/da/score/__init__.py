"""`capclean da score`: Direct Assessment judgments to trusted workers, caption and system scores (command.py)."""
