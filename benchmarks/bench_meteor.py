"""`make bench`, METEOR: NLTK's meteor_score and capclean's (transforms/evaluation/meteor.py) on the
same pairs of MSR-VTT test captions, in one run: cost per pair, their ratio, and the largest difference.

CPU time of this process (time.process_time), so that other work on the machine hardly moves the
figures. capclean's cost is split in two: encoding every test caption once (the stems and WordNet
synonyms of its new words), then matching the pairs. The last lines project both onto the MET
proxy's exact all-pairs matrix of the test split (every caption against every caption of every
video: 59,800 x 59,800 pairs), and time the MET kernel itself on a few query captions against every
test video, as pipelines/evaluation/relevance/met.py runs it.
"""
import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nltk.translate.meteor_score import single_meteor_score  # noqa: E402

from pipelines.evaluation.caption_input import read_caption_rows  # noqa: E402
from transforms.evaluation.lexicon import default_wordnet_dir, open_wordnet  # noqa: E402
from transforms.evaluation.met_relevance import MetSettings, Query, query_relevance, video_side  # noqa: E402
from transforms.evaluation.meteor import MeteorLexicon, single_meteor  # noqa: E402


def sample_pairs(captions: list, count: int, seed: int) -> list:
    """(reference, hypothesis) texts: half from one video, half from any two (the kernel sees both)."""
    by_video = {}
    for _, video_id, _, text in sorted(captions):
        by_video.setdefault(video_id, []).append(text)
    video_ids = sorted(by_video)
    rng = random.Random(seed)
    pairs = []
    for number in range(count):
        first = rng.choice(video_ids)
        second = first if number % 2 == 0 else rng.choice(video_ids)
        pairs.append((rng.choice(by_video[first]), rng.choice(by_video[second])))
    return pairs


def cpu_seconds(work) -> tuple:
    started = time.process_time()
    result = work()
    return time.process_time() - started, result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", required=True, help="raw MSR-VTT or a capclean output")
    parser.add_argument("--pairs", type=int, default=5000, help="caption pairs (default: %(default)s)")
    parser.add_argument("--queries", type=int, default=20, help="query captions for the kernel (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    captions = [row for row in read_caption_rows(args.input) if row[2] == "test"]
    pairs = sample_pairs(captions, args.pairs, args.seed)
    wordnet = open_wordnet(default_wordnet_dir())
    single_meteor_score(["warm", "up"], ["warm", "up"], wordnet=wordnet)  # WordNet's files loaded before timing

    nltk_seconds, theirs = cpu_seconds(lambda: [
        single_meteor_score(reference.split(), hypothesis.split(), wordnet=wordnet) for reference, hypothesis in pairs])
    lexicon = MeteorLexicon(wordnet)
    texts = sorted({text for _, _, _, text in captions})
    encode_seconds, encoded = cpu_seconds(lambda: {text: lexicon.encode(text) for text in texts})
    match_seconds, ours = cpu_seconds(lambda: [
        single_meteor(encoded[reference], encoded[hypothesis], lexicon) for reference, hypothesis in pairs])

    nltk_pair, our_pair = nltk_seconds / len(pairs), match_seconds / len(pairs)
    difference = max(abs(a - b) for a, b in zip(ours, theirs))
    print(f"METEOR, {len(pairs):,} pairs of MSR-VTT test captions (half within a video), CPU time")
    print(f"  NLTK meteor_score      {1e3 * nltk_pair:6.3f} ms a pair")
    print(f"  capclean, pair by pair {1e6 * our_pair:6.1f} us a pair, after encoding the split's {len(texts):,} "
          f"distinct captions once ({encode_seconds:.1f} s)")
    print(f"  ratio NLTK / capclean: {nltk_pair / our_pair:.0f}x; largest difference {difference:.1e}")
    all_pairs = len(captions) ** 2
    print(f"  the test split's all-pairs matrix ({all_pairs:,} pairs; twice for the match kernel): "
          f"NLTK {nltk_pair * all_pairs / 86400:.0f} CPU days, capclean pair by pair "
          f"{our_pair * all_pairs / 3600:.1f} CPU hours")

    kernel_figures(captions, encoded, lexicon, args.queries, args.seed, nltk_pair)


def kernel_figures(captions: list, encoded: dict, lexicon: MeteorLexicon, count: int, seed: int,
                   nltk_pair: float) -> None:
    """The MET kernel as pipelines/evaluation/relevance/met.py runs it: query captions against every video,
    through the batch code (meteor_batch.py)."""
    videos = {}
    for _, video_id, _, text in sorted(captions):
        videos.setdefault(video_id, []).append(encoded[text])
    build_seconds, side = cpu_seconds(lambda: video_side(videos, lexicon))
    chosen = random.Random(seed).sample(sorted(captions), count)
    queries = [Query(sen_id, video_id, encoded[text]) for sen_id, video_id, _, text in chosen]
    print(f"  MET kernel, {count} query captions against all {len(videos):,} videos "
          f"({len(captions):,} captions; batch built once in {build_seconds:.1f} s):")
    for kernel, directions in (("max", 1), ("mean", 1), ("match", 2)):
        settings = MetSettings(kernel=kernel)
        seconds, _ = cpu_seconds(lambda: [query_relevance(query, side, lexicon, settings) for query in queries])
        per_query = seconds / count
        per_pair = per_query / (directions * len(captions))
        print(f"    {kernel:<6}{per_query:6.3f} CPU s a query ({1e6 * per_pair:.2f} us a METEOR pair, NLTK / capclean "
              f"{nltk_pair / per_pair:,.0f}x); the whole split ({len(captions):,} queries): "
              f"{per_query * len(captions) / 60:.0f} CPU min")


if __name__ == "__main__":
    main()
