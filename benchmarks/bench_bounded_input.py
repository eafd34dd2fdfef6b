"""`make bench`, bounded input: files made to exhaust memory are refused quickly, in little memory.

Two inputs are written here: a 1 MiB zip whose JSON member inflates to 1 GiB of spaces
(deflated as it is written), and a 200 MiB JSON file whose one caption is 200 MiB long.
`capclean clean` is run on each as a user would and timed; its peak memory is the largest
resident size of that process and the processes it waited for (wait4's rusage). The
zip must be refused in under 200 MiB; the long caption, which Beam is loaded to read, in
no more memory than a whole run over a file of one short caption (run here too).
"""
import argparse
import os
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


def write_one_caption(path: Path, caption_bytes: int) -> None:
    """An annotation file of one video and one caption of `caption_bytes` letters (a short one under 16 MiB)."""
    with open(path, "wb") as handle:
        handle.write(b'{"videos": [{"video_id": "video0", "split": "train", "category": 0}], "sentences": [')
        handle.write(b'{"sen_id": 0, "video_id": "video0", "caption": "')
        for _ in range(caption_bytes // len(CHUNK)):
            handle.write(CHUNK.replace(b" ", b"a"))
        handle.write(b"a man is walking" if caption_bytes < len(CHUNK) else b"")
        handle.write(b'"}]}')


def run_capclean(capclean: str, folder: Path, output: Path) -> tuple:
    """(exit code, seconds, peak MiB, last line on stderr) of one `capclean clean` run."""
    started = time.monotonic()
    with tempfile.TemporaryFile() as stderr:
        child = subprocess.Popen([capclean, "clean", "--input", str(folder), "--output", str(output)],
                                 stdout=subprocess.DEVNULL, stderr=stderr)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.monotonic() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        stderr.seek(0)
        lines = stderr.read().decode("utf-8", "replace").strip().splitlines()
    return child.returncode, seconds, usage.ru_maxrss / 1024, lines[-1] if lines else "(nothing on stderr)"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--capclean", default=str(Path(sys.executable).with_name("capclean")))
    parser.add_argument("--gibibytes", type=int, default=1)
    parser.add_argument("--caption-mebibytes", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="capclean-bench-") as scratch:
        zipped, huge, short = (Path(scratch) / name for name in ("zip", "huge", "short"))
        for folder in (zipped, huge, short):
            folder.mkdir()
        archive = zipped / "train_val_annotation.zip"
        write_inflating_zip(archive, args.gibibytes * 2**30)
        write_one_caption(huge / "my_videodatainfo.json", args.caption_mebibytes * 2**20)
        write_one_caption(short / "my_videodatainfo.json", 0)
        cases = {"zip": f"a {archive.stat().st_size / 2**20:.1f} MiB zip inflating to {args.gibibytes} GiB",
                 "huge": f"a {args.caption_mebibytes} MiB JSON file of one caption",
                 "short": "a JSON file of one short caption, cleaned (for comparison)"}
        results = {}
        for (key, name), folder in zip(cases.items(), (zipped, huge, short)):
            results[key] = run_capclean(args.capclean, folder, Path(scratch) / f"out-{key}")
            code, seconds, peak_mib, last_line = results[key]
            print(f"bounded input: {name}: exit {code} in {seconds:.2f} s, peak memory {peak_mib:.0f} MiB")
            print(f"  {last_line}")
    print(f"  ratio peak memory, long caption refused / short caption cleaned: "
          f"{results['huge'][2] / results['short'][2]:.2f}x")
    # The times are printed, not checked: they are the machine's load as much as capclean's.
    if results["zip"][0] != 2 or results["zip"][2] > 200:
        sys.exit("bounded input: expected the zip refused (exit 2) in under 200 MiB")
    if results["huge"][0] != 2 or results["huge"][2] > results["short"][2]:
        sys.exit("bounded input: expected the long caption refused (exit 2) in no more memory than the short run")

if __name__ == "__main__":
    main()
