import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
MSRVTT = REPO.parent / "shared" / "data" / "msrvtt"
sys.path.insert(0, str(REPO))


def pytest_configure(config):
    config.addinivalue_line("markers", "integration: runs the pipeline on the real MSR-VTT annotations")


@pytest.fixture(scope="session")
def msrvtt_dir():
    if not (MSRVTT / "train_val_annotation.zip").is_file():
        pytest.fail(f"MSR-VTT annotations not found in {MSRVTT} (see README: Getting MSR-VTT)")
    return MSRVTT
