"""`make bench`, step II: the default profile's spelling step on every MSR-VTT caption (after step I),
with the rules for words the dictionary accepts (possessives, real-word errors, confusions, compounds,
number agreement, no doubled word, clipped names; transforms/spelling/real_word.py, possessive.py,
confusions.py, compounds.py, agreement.py) and without them, in one run: CPU
seconds per 10,000 captions, their ratio, and the tokens each changed.

Each speller is built first (Hunspell, the corpus figures), then timed on the same captions, each
caption with its clip, as step II runs them. CPU time of this process (time.process_time), so other
work on the machine hardly moves the figures. The first pass warms Hunspell's caches for both.
"""
import argparse
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.measure import measure_in_process  # noqa: E402
from devsets.spelling import corpus_statistics  # noqa: E402
from pipelines.cleaning.vocab import normalized_batches  # noqa: E402
from pipelines.config import load_config  # noqa: E402
from transforms.spelling import OtherCaptions, Speller, WordLists, captions_writing  # noqa: E402

WITHOUT = dict(possessives=False, real_words="", drop_doubled_words=False, keep_name_clippings=False, confusions="",
               compounds=False, number_agreement=False)


def run(speller, captions) -> int:
    return sum(len(speller.correct(text, clip)[1]) for text, clip in captions)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    repository = Path(__file__).resolve().parent.parent
    parser.add_argument("--input", default=str(repository.parent / "shared" / "data" / "msrvtt"))
    parser.add_argument("--videos", type=int, default=0, help="time only the first N videos' captions (0: all)")
    args = parser.parse_args()
    stats, phrases, _ = corpus_statistics(args.input)
    captions = []
    batches = normalized_batches(args.input)
    for batch in batches[:args.videos] if args.videos else batches:
        in_clip = captions_writing(caption.text for caption in batch.captions)
        captions.extend((caption.text, OtherCaptions(in_clip, caption.text)) for caption in batch.captions)
    config = load_config("default").spelling
    spellers = {"with the rules (default)": config, "without them (before)": replace(config, **WITHOUT)}
    spellers = {name: Speller(settings, WordLists.read(settings), stats, phrases)
                for name, settings in spellers.items()}
    for speller in spellers.values():
        run(speller, captions)  # warm Hunspell's and the rule's caches, as a long run has them
    print(f"step II on {len(captions)} MSR-VTT captions (default profile, corpus figures of the whole input)")
    seconds = {}
    for name, speller in spellers.items():
        tokens, measured = measure_in_process(lambda: run(speller, captions))
        seconds[name] = measured["cpu_seconds"]
        print(f"  {name:<26}{1e4 * seconds[name] / len(captions):8.3f} CPU s per 10,000 captions,"
              f" {tokens} correction rows")
    with_rules, without = seconds.values()
    print(f"  ratio with / without: {with_rules / without:.2f}")


if __name__ == "__main__":
    main()
