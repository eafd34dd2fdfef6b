"""`make bench`, relevance: the bow, pos and syn proxies of MSR-VTT's whole test split in one command.

Runs `capclean relevance --split test` (2,990 videos x 59,800 captions, 178.8 million pairs per
proxy) as its own process (benchmarks/measure.py: wall, CPU, peak memory of the process tree)
and prints, from its stats.json, what each phase took and the pairs each proxy wrote.
"""
import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.measure import run_measured  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", required=True)
    parser.add_argument("--capclean", default=str(Path(sys.executable).with_name("capclean")))
    parser.add_argument("--keep", metavar="DIR", help="write the relevance here (a new folder) instead of a "
                        "temporary one, e.g. for capclean ndcg")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="capclean-bench-relevance-") as scratch:
        output = Path(args.keep) if args.keep else Path(scratch) / "relevance"
        command = [args.capclean, "relevance", "--input", args.input, "--split", "test", "--output", str(output),
                   "--proxies", "bow,pos,syn"]
        result = run_measured(command)
        if result["returncode"] != 0:
            sys.exit(f"capclean relevance failed:\n{result['output'][-2000:]}")
        stats = json.loads((output / "stats.json").read_text())
    print(f"capclean relevance, test split: {stats['videos']:,} videos x {stats['captions']:,} captions, "
          "proxies bow, pos, syn in one command")
    print(f"  wall {result['seconds']:.1f} s, CPU {result['cpu_seconds']:.1f} s, peak {result['peak_mib']:.0f} MiB")
    print(f"  read {stats['seconds']['read']:.1f} s, spaCy tagging {stats['seconds']['tag']:.1f} s (wall)")
    print(f"  {'proxy':<6}{'sets s':>8}{'total s':>9}{'pairs > 0':>14}{'density':>9}")
    for proxy, entry in stats["proxies"].items():
        print(f"  {proxy:<6}{entry['sets_seconds']:>8.1f}{entry['seconds']:>9.1f}{entry['pairs']:>14,}"
              f"{100 * entry['density']:>8.2f}%")


if __name__ == "__main__":
    main()
