"""Where `make install` puts WordNet, and the error when it is not there, without importing NLTK.

Importing NLTK costs seconds (it imports scipy.stats): step III's check that WordNet is there, made
before any work when the cleaning pipeline is built, needs only the folder. Opening WordNet is
transforms/evaluation/lexicon.py's.
"""
import sys
from pathlib import Path

from transforms.errors import CapcleanError


class WordNetMissingError(CapcleanError):
    """No WordNet in the folder given, or one NLTK refuses to read."""


def default_wordnet_dir() -> Path:
    """Where `make install` puts WordNet: in the virtual environment's nltk_data, a folder NLTK trusts."""
    return Path(sys.prefix) / "nltk_data" / "corpora" / "wordnet"
