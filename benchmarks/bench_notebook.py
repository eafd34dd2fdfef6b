"""`make bench-notebook`: what the published notebook's method costs on this machine, beside a capclean run.

The published cleaning ran as a notebook. Its two costly steps are re-implemented
here in plain Python, as METHOD.md describes them and as the notebook did them:

- step II: every token occurrence is looked up in the two mappings, checked with
  Hunspell, and a rejected token is replaced by Hunspell's first suggestion,
  asked anew each time (no cache);
- step III: the similarity of every pair of a clip's captions, from a
  longest-common-subsequence table over their words in which two words are
  equal when a pure-Python Levenshtein distance between them is at most e.

They run in one process on a random sample of videos (after capclean's step I,
which is cheap), and their time is extrapolated to MSR-VTT's 10,000 videos.
Steps I and IV are left out, so the estimate is a lower bound of the notebook's
time. The same run times `capclean clean` (default profile, whole MSR-VTT, the
Beam arguments given) and prints the ratio.
"""
import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.measure import run_measured  # noqa: E402

MSRVTT_VIDEOS = 10_000


# --- Step II as the notebook did it -------------------------------------------

def notebook_spelling(caption: str, british: dict, splits: dict, checker) -> str:
    words = []
    for token in caption.split():
        token = british.get(token, token)
        for piece in splits.get(token, token).split():
            if not checker.spell(piece):
                suggestions = checker.suggest(piece)
                if suggestions:
                    piece = suggestions[0]
            words.append(piece)
    return " ".join(words).lower()


# --- Step III as the notebook did it ------------------------------------------

def levenshtein(a: str, b: str) -> int:
    """Characters inserted, deleted or substituted to turn a into b: the textbook table, one row at a time."""
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, start=1):
        current = [i]
        for j, char_b in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char_a != char_b)))
        previous = current
    return previous[-1]


def common_words(a: list, b: list, edit_threshold: int) -> int:
    """Longest common subsequence of two word lists; words within the edit threshold count as equal."""
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            if levenshtein(a[i - 1], b[j - 1]) <= edit_threshold:
                table[i][j] = table[i - 1][j - 1] + 1
            else:
                table[i][j] = max(table[i - 1][j], table[i][j - 1])
    return table[-1][-1]


def notebook_duplicates(captions: list, edit_threshold: int, similarity_threshold: float) -> list:
    """The captions kept: every pair's similarity first, then greedy groups that keep their longest caption."""
    words = [caption.split() for caption in captions]
    similar = {}
    for i in range(len(words)):
        for j in range(i + 1, len(words)):
            m = common_words(words[i], words[j], edit_threshold)
            score = 0.5 * (m / len(words[i]) + m / len(words[j])) if words[i] and words[j] else 0.0
            similar[i, j] = score >= similarity_threshold
    grouped, kept = set(), []
    for opener in range(len(captions)):
        if opener in grouped:
            continue
        group = [opener] + [other for other in range(opener + 1, len(captions))
                            if other not in grouped and similar[opener, other]]
        grouped.update(group)
        kept.append(max(group, key=lambda index: (len(captions[index]), -index)))
    return [captions[index] for index in sorted(kept)]


def check_same_method() -> None:
    """The re-implementation must decide as capclean's step III does, or its time is not the method's: the
    same common words on random word lists, and the same captions kept of a clip. Run before the timing."""
    from transforms.batch import Caption, VideoBatch
    from transforms.dedup import common_words as capclean_common_words
    from transforms.dedup import remove_near_duplicates

    rng = random.Random(0)
    words = ["a", "man", "men", "is", "playing", "plays", "guitar", "guitars", "on", "stage"]
    for _ in range(200):
        a = [rng.choice(words) for _ in range(rng.randint(0, 9))]
        b = [rng.choice(words) for _ in range(rng.randint(0, 9))]
        for edit_threshold in (0, 1, 2):
            if common_words(a, b, edit_threshold) != capclean_common_words(a, b, edit_threshold):
                raise SystemExit(f"bench-notebook: common words of {a} and {b} (e={edit_threshold}) differ")
    texts = ["a man is playing a guitar", "a man is playing a guitar on stage", "a woman sings",
             "a man is playing guitar", "a woman sings a song", "a woman sings"]
    batch = VideoBatch("video1", "train", 1, [Caption(i, text) for i, text in enumerate(texts)])
    kept = [caption.text for caption in remove_near_duplicates(batch, 0, 0.85).captions]
    if notebook_duplicates(texts, 0, 0.85) != kept:
        raise SystemExit("bench-notebook: the re-implemented step III keeps other captions than capclean's")


def sample_videos(input_path: str, videos: int, seed: int) -> list:
    """The captions (after step I) of `videos` videos drawn at random, each list in sen_id order."""
    from transforms.normalize import normalize_caption
    from transforms.read import find_annotation_files, load_annotations

    by_video = {}
    for source in find_annotation_files(input_path):
        for sentence in load_annotations(source)["sentences"]:
            by_video.setdefault(sentence["video_id"], []).append((sentence["sen_id"], sentence["caption"]))
    chosen = random.Random(seed).sample(sorted(by_video), videos)
    sample = []
    for video_id in chosen:
        captions = [normalize_caption(text)[0] for _, text in sorted(by_video[video_id])]
        sample.append([caption for caption in captions if caption])
    return sample


def time_notebook(sample: list) -> dict:
    from pipelines.config import load_config
    from transforms.spelling import WordLists, open_hunspell

    config = load_config("paper")
    word_lists = WordLists.read(config.spelling)
    checker = open_hunspell(config.spelling.hunspell_dictionary, word_lists.custom_words)
    # CPU time of this one process: the re-implementation is serial, so on an idle machine it is its
    # wall time, and on a shared one it is not inflated by the others' load.
    started = time.process_time()
    corrected = [[notebook_spelling(caption, word_lists.british, word_lists.splits, checker) for caption in video]
                 for video in sample]
    spelling_seconds = time.process_time() - started
    started = time.process_time()
    for video in corrected:
        notebook_duplicates(video, config.dedup.edit_threshold, config.dedup.similarity_threshold)
    dedup_seconds = time.process_time() - started
    return {"spelling": spelling_seconds, "dedup": dedup_seconds}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--input", required=True)
    parser.add_argument("--videos", type=int, default=100, help="videos in the timed sample (default 100)")
    parser.add_argument("--seed", type=int, default=0)
    args, beam_args = parser.parse_known_args()

    check_same_method()
    sample = sample_videos(args.input, args.videos, args.seed)
    seconds = time_notebook(sample)
    scale = MSRVTT_VIDEOS / len(sample)
    with tempfile.TemporaryDirectory(prefix="capclean-notebook-") as scratch:
        capclean = str(Path(sys.executable).parent / "capclean")
        full = run_measured([capclean, "clean", "--input", args.input, "--output", f"{scratch}/out",
                             "--profile", "default"] + beam_args)
    if full["returncode"] != 0:
        print(full["output"])
        raise SystemExit("bench-notebook: the capclean run failed")

    notebook_total = scale * (seconds["spelling"] + seconds["dedup"])
    print(f"published method, pure Python, one process: {len(sample)} random videos, "
          f"{sum(map(len, sample))} captions, extrapolated to {MSRVTT_VIDEOS} videos")
    for step, label in (("spelling", "II spelling (first suggestion per token, no cache)"),
                        ("dedup", "III duplicates (every pair, Levenshtein + LCS)")):
        print(f"  {label:<52}{seconds[step]:>7.1f} s CPU sample {scale * seconds[step]:>9.0f} s extrapolated")
    print(f"  {'steps II + III':<52}{'':>16}{notebook_total:>9.0f} s "
          f"({notebook_total / 60:.0f} min; {notebook_total / 2 / 60:.0f} min if spread over 2 cores)")
    print(f"capclean clean, default profile, whole MSR-VTT (Beam args: {' '.join(beam_args) or 'none'}): "
          f"wall {full['seconds']:.1f} s, CPU {full['cpu_seconds']:.1f} s (all processes), "
          f"peak {full['peak_mib']:.0f} MiB")
    print(f"ratio capclean / notebook steps II + III, CPU time: {full['cpu_seconds'] / notebook_total:.3f} "
          f"(the notebook's method takes {notebook_total / full['cpu_seconds']:.0f}x the CPU)")
    print(f"ratio capclean wall time / notebook's CPU time spread over 2 cores: "
          f"{full['seconds'] / (notebook_total / 2):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
