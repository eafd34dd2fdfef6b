"""`make bench`, the spelling recheck (transforms/recheck.py): the default profile's rounds on the videos that
enter them (MSR-VTT after steps I-IV), incremental as shipped beside every round counting and deciding every
video again (as they did before), in one run: CPU seconds of each round, their ratio, and the same videos out.

Each way runs in a process of its own on the same videos (read from one file), so that neither finds the
Hunspell answers the other asked for already cached; each round is timed in that process (CPU time,
time.process_time: other work on the machine hardly moves it); the two ways run alternately, `--repeats`
times each, and each round's figure is the least CPU of its runs. The videos out of the last round are
compared by a digest of every video (its captions and its lineage).
"""
import argparse
import hashlib
import json
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.measure import measure_in_process  # noqa: E402

WAYS = {"every video": False, "incremental": True}  # name -> RecheckInMemory's `incremental`


def videos_entering_the_recheck(input_path, profile) -> list:
    """Every video as steps I-IV leave it (one process, no Beam), as the first recheck round receives it."""
    from pipelines.cleaning.steps import steps_to_run
    from pipelines.config import load_config
    from transforms.read import read_input
    from transforms.step import run_step

    videos = read_input(input_path)
    for step in steps_to_run(load_config(profile)):
        videos = run_step(step, videos)
    return videos


def digest(videos) -> str:
    """A digest of the videos' captions and lineage, in their order (repr: every field of every row)."""
    hashed = hashlib.sha256()
    for video in videos:
        hashed.update(repr(video).encode())
    return hashed.hexdigest()


def run_rounds(profile, incremental: bool, entering_file, videos_limit: int) -> dict:
    """{"rounds": round name -> CPU s, "digest": of the videos out}: the rounds, each timed, in this process."""
    from pipelines.cleaning.steps import recheck_rounds
    from pipelines.config import load_config
    from transforms.recheck import RecheckInMemory

    config = load_config(profile)
    with open(entering_file, "rb") as handle:
        videos = pickle.load(handle)
    videos = videos[:videos_limit] if videos_limit else videos
    rounds = RecheckInMemory(config, incremental)
    cpu = {}
    for number in range(1, recheck_rounds(config) + 1):
        videos, figures = measure_in_process(lambda: rounds.round(number, videos))
        cpu[f"recheck {number}"] = figures["cpu_seconds"]
    return {"rounds": cpu, "digest": digest(videos)}


def least_cpu(runs: list) -> dict:
    """The runs of one way as one: each round's least CPU; the digest, which every run must give alike."""
    digests = {run["digest"] for run in runs}
    return {"rounds": {name: min(run["rounds"][name] for run in runs) for name in runs[0]["rounds"]},
            "digest": digests.pop() if len(digests) == 1 else "runs differ"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    repository = Path(__file__).resolve().parent.parent
    parser.add_argument("--input", default=str(repository.parent / "shared" / "data" / "msrvtt"))
    parser.add_argument("--profile", default="default")
    parser.add_argument("--entering", metavar="FILE",
                        help="keep the videos entering the recheck in FILE (a pickle): read it if it exists, "
                             "else write it (steps I-IV take minutes)")
    parser.add_argument("--videos", type=int, default=0, help="only the first N videos (0: all)")
    parser.add_argument("--repeats", type=int, default=2,
                        help="run each way this many times, alternately, and keep each round's least CPU (default 2)")
    parser.add_argument("--rounds-only", nargs=2, metavar=("WAY", "ENTERING"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rounds_only:
        way, entering = args.rounds_only
        print(json.dumps(run_rounds(args.profile, WAYS[way], entering, args.videos)))
        return 0

    with tempfile.TemporaryDirectory(prefix="capclean-bench-") as scratch:
        entering = args.entering or f"{scratch}/entering.pickle"
        if not Path(entering).exists():
            with open(entering, "wb") as handle:
                pickle.dump(videos_entering_the_recheck(args.input, args.profile), handle, protocol=pickle.HIGHEST_PROTOCOL)
        runs = {way: [] for way in WAYS}
        for _ in range(args.repeats):
            for way in WAYS:  # one way, then the other: a change in the machine's load falls on both
                runs[way].append(json.loads(subprocess.run(
                    [sys.executable, __file__, "--profile", args.profile, "--videos", str(args.videos),
                     "--rounds-only", way, entering], check=True, capture_output=True, text=True).stdout))
    before, after = (least_cpu(runs[way]) for way in WAYS)
    print(f"capclean bench, the spelling recheck on {args.input} (profile {args.profile}"
          f"{f', first {args.videos} videos' if args.videos else ''}), CPU s of each round, each way in its own process,"
          f" the least of {args.repeats} runs:")
    print(f"  {'':<14}{'incremental':>12}{'every video':>12}   ratio")
    for name, cpu in before["rounds"].items():
        print(f"  {name:<14}{after['rounds'][name]:>12.1f}{cpu:>12.1f}   {after['rounds'][name] / cpu:.2f}x")
    later = [name for name in before["rounds"] if name != "recheck 1"]
    for label, names in (("rounds 2 on", later), ("all rounds", list(before["rounds"]))):
        if names:
            new, old = (sum(way["rounds"][name] for name in names) for way in (after, before))
            print(f"  {label:<14}{new:>12.1f}{old:>12.1f}   {new / old:.2f}x")
    same = before["digest"] == after["digest"]
    print(f"  videos out: {'the same' if same else 'DIFFERENT'} (digest {after['digest'][:12]})")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
