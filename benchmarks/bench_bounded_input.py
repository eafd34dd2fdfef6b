"""`make bench`, bounded input: a 1 MB zip that would inflate to 1 GiB is refused at once, in little memory.

The zip is written here (1 GiB of spaces in one JSON member, deflated as it is written), then
`capclean clean` is run on it as a user would and timed; its peak memory is the maximum
resident size of that process (getrusage of the waited-for child).
"""
import argparse
import resource
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

CHUNK = b" " * 2**24  # 16 MiB a write: the zip is never held in memory whole


def write_inflating_zip(path: Path, unpacked_bytes: int) -> None:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        with archive.open("train_val_videodatainfo.json", "w", force_zip64=True) as member:
            for _ in range(unpacked_bytes // len(CHUNK)):
                member.write(CHUNK)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--capclean", default=str(Path(sys.executable).with_name("capclean")))
    parser.add_argument("--gibibytes", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="capclean-bench-") as scratch:
        folder = Path(scratch) / "in"
        folder.mkdir()
        archive = folder / "train_val_annotation.zip"
        write_inflating_zip(archive, args.gibibytes * 2**30)
        started = time.monotonic()
        done = subprocess.run([args.capclean, "clean", "--input", str(folder), "--output", f"{scratch}/out"],
                              capture_output=True, text=True)
        seconds = time.monotonic() - started
        peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        refusal = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "(nothing on stderr)"
        print(f"bounded input: a {archive.stat().st_size / 2**20:.1f} MiB zip inflating to {args.gibibytes} GiB: "
              f"exit {done.returncode} in {seconds:.2f} s, peak memory {peak_mib:.0f} MiB")
        print(f"  {refusal}")
        # The time is printed, not checked: it is the machine's load as much as capclean's.
        if done.returncode != 2 or peak_mib > 200:
            sys.exit("bounded input: expected a refusal (exit 2) in under 200 MiB")


if __name__ == "__main__":
    main()
