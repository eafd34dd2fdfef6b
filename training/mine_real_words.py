"""Candidates for dictionaries/msrvtt/real_words.txt, for a person to review (transforms/spelling/real_word.py).

    .venv/bin/python training/mine_real_words.py [--input DIR] > candidates.tsv

Counts the corpus as step II sees it (the input after step I) and prints, as TSV, every word
the default profile's dictionary accepts that is one common typo (typos.is_common_typo) from a
word written at least twice as often, then every two words whose join is a word written at least
twice as often. Columns: original, replacement, their counts, and how many occurrences the rule
would change with the pair listed (`would_change`) and leave (`would_keep`). Review reads the
occurrences of each pair; only pairs the corpus almost always means as the replacement go in.
"""
import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def main():
    from pipelines.cleaning.vocab import normalized_batches
    from pipelines.config import load_config
    from transforms.corpus import corpus_statistics
    from transforms.spelling import open_hunspell
    from transforms.spelling.hunspell import Dictionary
    from transforms.spelling.real_word import RealWords, mine_joins, mine_pairs
    from transforms.spelling.typos import is_common_typo

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", default=str(REPO.parent / "shared" / "data" / "msrvtt"))
    args = parser.parse_args()
    config = load_config("default").spelling
    accepts = Dictionary(open_hunspell(config.hunspell_dictionary, (), config.vocabulary)).accepts
    batches = normalized_batches(args.input)
    stats, phrases = corpus_statistics(batches)
    candidates = mine_pairs(stats, accepts, is_typo=is_common_typo) + mine_joins(stats, phrases, accepts)
    rule = RealWords({original: replacement for original, replacement, _, _ in candidates}, stats, phrases,
                     config.real_word_min_support, config.real_word_margin)
    changed = dict.fromkeys((original for original, _, _, _ in candidates), 0)
    seen = dict(changed)
    for batch in batches:
        for caption in batch.captions:
            tokens = caption.text.split()
            for at in range(len(tokens)):
                for length in (1, 2):
                    original = " ".join(tokens[at:at + length])
                    if at + length <= len(tokens) and original in seen:
                        seen[original] += 1
                        fix = rule.find(tokens, at, tokens[at - 1] if at else "")
                        changed[original] += fix is not None and fix.original == original
    print("original\treplacement\toriginal_count\treplacement_count\twould_change\twould_keep")
    for original, replacement, count, replacement_count in candidates:
        print(f"{original}\t{replacement}\t{count}\t{replacement_count}\t{changed[original]}\t"
              f"{seen[original] - changed[original]}")


if __name__ == "__main__":
    main()
