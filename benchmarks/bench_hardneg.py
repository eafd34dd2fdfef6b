"""`make bench`, hard negatives: all negatives of MSR-VTT's test split, against tagging alone.

Runs `capclean hardneg` on the test split (2,990 videos, 59,800 captions) twice, each as
its own process (benchmarks/measure.py: wall, CPU of every process, peak memory of the
process tree): first a floor that reads, tags and writes pos/ but makes almost no
negative (one preposition antonym per caption at most), then the default (K = 20 for
each of the five parts of speech, word level).
"""
import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.measure import run_measured  # noqa: E402

FLOOR = ["--k", "1", "--parts", "preposition", "--vocabulary-fallback", "none"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", required=True)
    parser.add_argument("--capclean", default=str(Path(sys.executable).with_name("capclean")))
    parser.add_argument("--keep", metavar="DIR", help="write the run with all negatives here (a new folder) "
                        "instead of a temporary one, e.g. to score stand-in models on it")
    args, beam_args = parser.parse_known_args()
    results = {}
    with tempfile.TemporaryDirectory(prefix="capclean-bench-hardneg-") as scratch:
        for name, flags in (("tagging floor", FLOOR), ("all negatives", [])):
            output = Path(scratch) / name.replace(" ", "-")
            if args.keep and name == "all negatives":
                output = Path(args.keep)
            command = [args.capclean, "hardneg", "--input", args.input, "--output", str(output), *flags, *beam_args]
            results[name] = run_measured(command)
            if results[name]["returncode"] != 0:
                sys.exit(f"{name}: capclean hardneg failed:\n{results[name]['output'][-2000:]}")
            results[name]["stats"] = json.loads((output / "stats.json").read_text())
    full = results["all negatives"]
    negatives = sum(level["total"] for part in full["stats"]["negatives"].values() for level in part.values())
    print(f"capclean hardneg, test split ({full['stats']['captions']:,} captions), Beam args: {' '.join(beam_args)}")
    print(f"  {'':<16}{'wall s':>9}{'CPU s':>8}{'peak MiB':>10}")
    for name, result in results.items():
        print(f"  {name:<16}{result['seconds']:>9.1f}{result['cpu_seconds']:>8.1f}{result['peak_mib']:>10.0f}")
    floor = results["tagging floor"]
    print(f"  {negatives:,} negatives; {1000 * full['cpu_seconds'] / full['stats']['captions']:.1f} ms CPU a caption")
    print(f"  ratio all negatives / tagging floor: time {full['seconds'] / floor['seconds']:.1f}x, "
          f"CPU {full['cpu_seconds'] / floor['cpu_seconds']:.1f}x, memory {full['peak_mib'] / floor['peak_mib']:.1f}x")


if __name__ == "__main__":
    main()
