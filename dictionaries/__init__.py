"""The word lists the spelling step reads, shipped as package data so remote workers have them too."""
from pathlib import Path

HERE = Path(__file__).resolve().parent


def resolve(path: str) -> Path:
    """A dictionary file named relative to this folder, or an absolute path as given."""
    candidate = Path(path)
    return candidate if candidate.is_absolute() else HERE / candidate
