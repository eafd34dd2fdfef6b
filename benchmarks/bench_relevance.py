"""`make bench`, relevance: the bow, pos and syn proxies of MSR-VTT's whole test split in one command,
with the captions' tags absent (tagged by the command) and present (read with --tags).

Runs `capclean relevance --split test` (2,990 videos x 59,800 captions, 178.8 million pairs per
proxy) twice, each as its own process (benchmarks/measure.py: wall, CPU, peak memory of the
process tree): first tagging every caption, then with `--tags` naming a hardneg output of the
same split (`--tags DIR`, or one this script makes first, unmeasured, with almost no negatives),
so nothing is tagged. It checks the two write the same relevance/ bytes, and prints, from
stats.json, what each phase took and the pairs each proxy wrote.
"""
import argparse
import hashlib
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.measure import run_measured  # noqa: E402

# A hardneg output that is little more than its pos/: one preposition antonym per caption at most.
TAGS_ONLY = ["--k", "1", "--parts", "preposition", "--vocabulary-fallback", "none"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", required=True)
    parser.add_argument("--capclean", default=str(Path(sys.executable).with_name("capclean")))
    parser.add_argument("--tags", metavar="DIR", help="a hardneg output of the test split whose pos/ is read "
                        "(default: one made first, unmeasured)")
    parser.add_argument("--keep", metavar="DIR", help="write the relevance here (a new folder) instead of a "
                        "temporary one, e.g. for capclean ndcg")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="capclean-bench-relevance-") as scratch:
        tags = Path(args.tags) if args.tags else Path(scratch) / "tags"
        if not args.tags:
            checked(run_measured([args.capclean, "hardneg", "--input", args.input, "--output", str(tags),
                                  *TAGS_ONLY]), "capclean hardneg (the tags)")
        runs = {"tags absent": (Path(args.keep) if args.keep else Path(scratch) / "absent", []),
                "tags present": (Path(scratch) / "present", ["--tags", str(tags)])}
        results = {}
        for name, (output, flags) in runs.items():
            command = [args.capclean, "relevance", "--input", args.input, "--split", "test", "--output", str(output),
                       "--proxies", "bow,pos,syn", *flags]
            results[name] = checked(run_measured(command), f"capclean relevance ({name})")
            results[name]["stats"] = json.loads((output / "stats.json").read_text())
        same = relevance_bytes(runs["tags absent"][0]) == relevance_bytes(runs["tags present"][0])
    stats = results["tags absent"]["stats"]
    print(f"capclean relevance, test split: {stats['videos']:,} videos x {stats['captions']:,} captions, "
          "proxies bow, pos, syn in one command")
    print(f"  {'':<14}{'wall s':>9}{'CPU s':>8}{'peak MiB':>10}{'tag s':>8}")
    for name, result in results.items():
        print(f"  {name:<14}{result['seconds']:>9.1f}{result['cpu_seconds']:>8.1f}{result['peak_mib']:>10.0f}"
              f"{result['stats']['seconds']['tag']:>8.1f}")
    absent, present = results["tags absent"], results["tags present"]
    print(f"  ratio present / absent: time {present['seconds'] / absent['seconds']:.2f}x, CPU "
          f"{present['cpu_seconds'] / absent['cpu_seconds']:.2f}x; relevance/ the same bytes: "
          f"{'yes' if same else 'NO'}")
    print(f"  read {stats['seconds']['read']:.1f} s, spaCy tagging {stats['seconds']['tag']:.1f} s (wall, tags absent)")
    print(f"  {'proxy':<6}{'sets s':>8}{'total s':>9}{'pairs > 0':>14}{'density':>9}")
    for proxy, entry in stats["proxies"].items():
        print(f"  {proxy:<6}{entry['sets_seconds']:>8.1f}{entry['seconds']:>9.1f}{entry['pairs']:>14,}"
              f"{100 * entry['density']:>8.2f}%")
    if not same:
        sys.exit("relevance/ differs with --tags")


def checked(result: dict, name: str) -> dict:
    if result["returncode"] != 0:
        sys.exit(f"{name} failed:\n{result['output'][-2000:]}")
    return result


def relevance_bytes(output: Path) -> dict:
    """relative path -> sha256 of each file of relevance/ (hundreds of MB on the test split)."""
    return {str(path.relative_to(output)): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted((output / "relevance").rglob("*")) if path.is_file()}


if __name__ == "__main__":
    main()
