"""`make bench`, step III: near-duplicate removal on every MSR-VTT video, by this checkout and by an
earlier commit (`--before`, the commit before step III's CPU was cut), in one run: CPU seconds and their ratio.

The videos are those step III receives (read, steps I and II, the screen: this checkout's code,
once, in this process). Each checkout then runs step III's core on them in a fresh process of
its own, as a Beam worker does, no Beam: the default profile (keep_details: the detail rule,
WordNet through NLTK) counted from the start, so its imports and WordNet's opening are paid as
a worker pays them; the same again in that process, its caches full (what is left once a worker
has warmed up); and the paper rule (no detail rule, one pass) as the floor. CPU time of each
process (time.process_time), so other work on the machine hardly moves the figures.

The two checkouts' outputs of each profile are compared too: they must be the same videos, to the
byte of their pickles (a faster step III that changed one row would show here first).

    .venv/bin/python benchmarks/bench_dedup.py --input ../shared/data/msrvtt [--before 78725aa] [--videos N]

The earlier commit is taken with `git archive` into a temporary folder (the repository is left as it
is); its step III reads the same WordNet and word lists as this checkout's.
"""
import argparse
import json
import pickle
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# main when step III's CPU was measured and cut (issue 41): keep_details asked WordNet's tagged counts
# again for every pair of words, and every video went through a second until_stable pass.
BEFORE_COMMIT = "78725aa"
PROFILES = ("default", "paper")


def videos_before_step_iii(input_path: str, videos: int) -> list:
    """The videos as step III receives them in the default profile: read, then every step before it."""
    sys.path.insert(0, str(REPO))
    from benchmarks.bench_pipeline import load_batches, step_cores
    from pipelines.config import load_config

    batches = load_batches(input_path)
    batches = batches[:videos] if videos else batches
    for step, core in step_cores(load_config("default")):
        if step == "dedup":
            return batches
        batches = core(batches)
    raise RuntimeError("the default profile runs no step III")


def checkout_of(commit: str, folder: Path) -> Path:
    """The files of `commit` in `folder`, from `git archive` (no worktree, no change to the repository)."""
    archive = subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", commit], check=True,
                             capture_output=True).stdout
    archive_path = folder / "before.tar"
    archive_path.write_bytes(archive)
    with tarfile.open(archive_path) as tar:
        tar.extractall(folder / "before", filter="data")
    return folder / "before"


def measure_checkout(checkout: Path, videos_file: Path, outputs_folder: Path) -> dict:
    """Step III of `checkout` in a fresh process (this file's --measure mode): its figures."""
    done = subprocess.run([sys.executable, __file__, "--measure", str(checkout), "--videos-file", str(videos_file),
                           "--outputs", str(outputs_folder)], check=True, capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure(checkout: str, videos_file: str, outputs_folder: str) -> dict:
    """In a fresh process: step III of `checkout` on the videos, CPU seconds of each part; outputs pickled."""
    sys.path.insert(0, checkout)  # that checkout's transforms/, pipelines/ and dictionaries/, not this one's
    videos = pickle.loads(Path(videos_file).read_bytes())
    from pipelines.config import load_config
    from transforms.dedup import Dedup
    from transforms.step import run_step

    figures = {}

    def timed(name, thunk):
        started = time.process_time()
        result = thunk()
        figures[name] = time.process_time() - started
        return result

    outputs = {"default": timed("default, first run", lambda: run_step(Dedup(load_config("default")), videos))}
    timed("default, caches full", lambda: run_step(Dedup(load_config("default")), videos))
    outputs["paper"] = timed("paper rule (floor)", lambda: run_step(Dedup(load_config("paper")), videos))
    for profile, output in outputs.items():
        (Path(outputs_folder) / f"{profile}.pickle").write_bytes(pickle.dumps(output, protocol=5))
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", default=str(REPO.parent / "shared" / "data" / "msrvtt"))
    parser.add_argument("--before", default=BEFORE_COMMIT, help="the commit to compare with (default %(default)s)")
    parser.add_argument("--videos", type=int, default=0, help="only the first N videos (0: all)")
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # the fresh process of one checkout
    parser.add_argument("--videos-file", help=argparse.SUPPRESS)
    parser.add_argument("--outputs", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure, args.videos_file, args.outputs)))
        return 0

    with tempfile.TemporaryDirectory(prefix="bench-dedup-") as scratch:
        scratch = Path(scratch)
        videos = videos_before_step_iii(args.input, args.videos)
        videos_file = scratch / "videos.pickle"
        videos_file.write_bytes(pickle.dumps(videos, protocol=5))
        checkouts = {f"before ({args.before})": checkout_of(args.before, scratch), "this checkout": REPO}
        figures = {}
        for name, checkout in checkouts.items():
            (scratch / name).mkdir()
            figures[name] = measure_checkout(checkout, videos_file, scratch / name)
        captions = sum(len(video.captions) for video in videos)
        print(f"step III on {len(videos)} MSR-VTT videos, {captions} captions (as step III receives them), "
              "CPU s, each checkout in a fresh process")
        parts = list(next(iter(figures.values())))
        print(f"  {'':<24}" + "".join(f"{part:>24}" for part in parts))
        for name, measured in figures.items():
            print(f"  {name:<24}" + "".join(f"{measured[part]:>24.2f}" for part in parts))
        before, after = figures.values()
        for part in parts:
            print(f"  {part}: before / this checkout {before[part] / after[part]:.2f}x")
        print(f"  this checkout's default, first run / its paper rule (floor): "
              f"{after[parts[0]] / after['paper rule (floor)']:.2f}x")
        names = list(checkouts)
        for profile in PROFILES:
            same = all((scratch / names[0] / f"{profile}.pickle").read_bytes()
                       == (scratch / name / f"{profile}.pickle").read_bytes() for name in names[1:])
            print(f"  {profile} profile's outputs: {'the same' if same else 'DIFFERENT'}")
            if not same:
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
