"""`make bench-scale`: the default cleaning of synthetic corpora 1, 5 and 10 times MSR-VTT, in one run.

For each factor, benchmarks/make_scaled_corpus.py writes the corpus into a
scratch folder (never the repository) and `capclean clean` runs on it as its
own process, so that its wall time and peak memory (every Beam worker process
counted) are its own. Growth is linear when the time per caption stays flat,
and memory is bounded when the peak grows far slower than the data. CPU time
per caption is printed too: on a shared machine wall time follows the others' load.
"""
import argparse
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.make_scaled_corpus import write_scaled_corpus  # noqa: E402
from benchmarks.measure import run_measured  # noqa: E402


def clean_scaled(input_path, factor, scratch, profile, beam_args) -> dict:
    corpus = Path(scratch) / f"corpus-{factor}x"
    totals = write_scaled_corpus(input_path, corpus, factor, seed=0, videos_per_file=2500)
    capclean = str(Path(sys.executable).parent / "capclean")
    result = run_measured([capclean, "clean", "--input", str(corpus), "--output", f"{scratch}/out-{factor}x",
                           "--profile", profile, "--config", str(corpus / "ranges.yaml")] + beam_args)
    if result["returncode"] != 0:
        print(result["output"])
        raise SystemExit(f"bench-scale: the run at {factor}x failed")
    return {**result, "captions": totals["captions"], "files": totals["files"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--input", required=True, help="the MSR-VTT annotations the corpora are drawn from")
    parser.add_argument("--profile", default="default")
    parser.add_argument("--factors", default="1,5,10", help="comma-separated scale factors (default 1,5,10)")
    parser.add_argument("--scratch", default=None, help="folder for the corpora and outputs (default: a temporary one)")
    args, beam_args = parser.parse_known_args()
    factors = [int(f) for f in args.factors.split(",")]
    results = {}
    with tempfile.TemporaryDirectory(prefix="capclean-scale-", dir=args.scratch) as scratch:
        for factor in factors:
            results[factor] = clean_scaled(args.input, factor, scratch, args.profile, beam_args)
            print(f"  {factor}x done: {results[factor]['seconds']:.1f} s", flush=True)

    print(f"capclean bench-scale (profile {args.profile}; Beam args: {' '.join(beam_args) or 'none'})")
    print(f"  {'corpus':<8}{'captions':>10}{'wall s':>9}{'wall us/cap':>13}{'CPU s':>8}{'CPU us/cap':>12}"
          f"{'peak MiB':>10}")
    for factor, result in results.items():
        result["per_caption"] = result["seconds"] / result["captions"]
        result["cpu_per_caption"] = result["cpu_seconds"] / result["captions"]
        print(f"  {str(factor) + 'x':<8}{result['captions']:>10}{result['seconds']:>9.1f}"
              f"{1e6 * result['per_caption']:>13.1f}{result['cpu_seconds']:>8.0f}"
              f"{1e6 * result['cpu_per_caption']:>12.1f}{result['peak_mib']:>10.0f}")
    first, last = results[factors[0]], results[factors[-1]]
    print(f"  ratio {factors[-1]}x / {factors[0]}x: wall time per caption {last['per_caption'] / first['per_caption']:.2f}x, "
          f"CPU time per caption {last['cpu_per_caption'] / first['cpu_per_caption']:.2f}x, "
          f"peak memory {last['peak_mib'] / first['peak_mib']:.2f}x (data {factors[-1] // factors[0]}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
