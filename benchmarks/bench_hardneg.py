"""`make bench`, hard negatives: all negatives of MSR-VTT's test split, against its tagging floor.

Each measured as its own process (benchmarks/measure.py: wall, CPU of every process, peak
memory of the process tree), in one run of this script:

  tagging floor   the split's captions read and tagged by the same spaCy pipeline
                  (transforms/evaluation/pos.py), in one process, nothing written: what any
                  hard negatives must at least cost
  all negatives   `capclean hardneg` on the test split (2,990 videos, 59,800 captions), K = 20
                  for each of the five parts of speech, word level, with the Beam args given
  reusing tags    (--reuse-tags) the same again with --tags naming the first run's output, so
                  nothing is tagged: the negatives alone

and their ratios. `--videos N` measures the first N videos of the split only (by video id), to
profile or compare quickly; the closing figures of docs/benchmarks.md are of the whole split.
Each run's processes are shown by role too (the driver, Beam's SDK workers: measure.py), so
where the peak and the CPU go can be read. `--checkout DIR` runs another checkout's code (its `python -m pipelines.cli`,
PYTHONPATH=DIR, as benchmarks/same_outputs.py does), to measure main and a branch alike.
"""
import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.measure import run_measured  # noqa: E402


def tag_split(input_path: str, split: str, videos_file: str | None) -> None:
    """The floor itself (run in its own process): read the split's captions (of the videos listed, if a file
    is given), tag them all, print the count."""
    from pipelines.evaluation.caption_input import CaptionSelection, read_caption_rows, read_video_ids, select_captions
    from transforms.evaluation.pos import load_tagger, tag_captions

    selection = CaptionSelection(split=split, video_ids=read_video_ids(videos_file) if videos_file else None,
                                 videos_file=videos_file)
    videos = select_captions(read_caption_rows(input_path), selection)
    tagger = load_tagger()
    print(sum(len(tag_captions(tagger, captions)) for _, captions in sorted(videos.items())))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", required=True)
    parser.add_argument("--checkout", help="the checkout whose code runs (default: this one)")
    parser.add_argument("--reuse-tags", action="store_true", help="also run hardneg with --tags of the first run")
    parser.add_argument("--keep", metavar="DIR", help="write the run with all negatives here (a new folder) "
                        "instead of a temporary one, e.g. to score stand-in models on it")
    parser.add_argument("--videos", type=int, metavar="N", help="only the first N videos of the test split "
                        "(by video id), for a quick profile (default: all)")
    parser.add_argument("--tag-split", metavar="SPLIT", help=argparse.SUPPRESS)  # the floor's own process
    parser.add_argument("--videos-file", help=argparse.SUPPRESS)  # the floor's own process: --videos as a file
    args, beam_args = parser.parse_known_args()
    if args.tag_split:
        return tag_split(args.input, args.tag_split, args.videos_file)
    checkout = Path(args.checkout or Path(__file__).resolve().parent.parent).resolve()
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    python = sys.executable
    results = {}
    with tempfile.TemporaryDirectory(prefix="capclean-bench-hardneg-") as scratch:
        subset = []
        if args.videos:
            subset = ["--videos", write_first_videos(args.input, "test", args.videos, Path(scratch) / "videos.txt")]
        floor = [python, str(Path(__file__).resolve()), "--input", args.input, "--tag-split", "test"]
        if subset:
            floor += ["--videos-file", subset[1]]
        results["tagging floor"] = measured("tagging floor", floor, env, checkout)
        output = Path(args.keep) if args.keep else Path(scratch) / "all-negatives"
        hardneg = [python, "-m", "pipelines.cli", "hardneg", "--input", args.input, *subset, "--output"]
        results["all negatives"] = measured("all negatives", [*hardneg, str(output), *beam_args], env, checkout)
        stats = json.loads((output / "stats.json").read_text())
        if args.reuse_tags:
            results["reusing tags"] = measured("reusing tags", [*hardneg, str(Path(scratch) / "reusing-tags"),
                                                                "--tags", str(output), *beam_args], env, checkout)
    negatives = sum(level["total"] for part in stats["negatives"].values() for level in part.values())
    print(f"capclean hardneg, test split ({stats['captions']:,} captions of {stats['videos']:,} videos), "
          f"checkout {checkout}, "
          f"Beam args: {' '.join(beam_args)}")
    print(f"  {'':<16}{'wall s':>9}{'CPU s':>8}{'peak MiB':>10}")
    for name, result in results.items():
        print(f"  {name:<16}{result['seconds']:>9.1f}{result['cpu_seconds']:>8.1f}{result['peak_mib']:>10.0f}")
    for name, result in results.items():
        roles = ", ".join(f"{role} x{figures['processes']} {figures['cpu_seconds']:.1f} s CPU, "
                          f"peak {figures['peak_mib']:.0f} MiB" for role, figures in result["processes"].items())
        print(f"    {name}: {roles}")
    full, floor = results["all negatives"], results["tagging floor"]
    print(f"  {negatives:,} negatives; {1000 * full['cpu_seconds'] / stats['captions']:.1f} ms CPU a caption")
    for name in [name for name in results if name != "tagging floor"]:
        result = results[name]
        print(f"  ratio {name} / tagging floor: time {result['seconds'] / floor['seconds']:.2f}x, "
              f"CPU {result['cpu_seconds'] / floor['cpu_seconds']:.2f}x, "
              f"memory {result['peak_mib'] / floor['peak_mib']:.2f}x ({result['peak_mib'] / 1024:.2f} GiB)")


def write_first_videos(input_path: str, split: str, count: int, path: Path) -> str:
    """The first `count` video ids of the split, one a line, as hardneg's --videos reads them."""
    from pipelines.evaluation.caption_input import CaptionSelection, read_caption_rows, select_captions

    video_ids = sorted(select_captions(read_caption_rows(input_path), CaptionSelection(split=split)))[:count]
    path.write_text("".join(f"{video_id}\n" for video_id in video_ids), encoding="utf-8")
    return str(path)


def measured(name: str, command: list, env: dict, checkout: Path) -> dict:
    result = run_measured(command, env=env, cwd=checkout)
    if result["returncode"] != 0:
        sys.exit(f"{name} failed:\n{result['output'][-2000:]}")
    return result


if __name__ == "__main__":
    main()
