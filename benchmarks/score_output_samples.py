"""Score a cleaning run against the labelled samples of its output that `devsets/sample_output.py` drew
from an earlier run (docs/devsets.md, "Issue 42's held-out samples").

- `untouched`: the captions no step touched in the earlier run, labelled `ok` or `error` with
  `word -> intended` pairs. A labelled error is *missed* when the new run's caption still holds the
  erroneous words; an `ok` caption whose words the new run changed is a *wrong change* (one it no longer
  writes, removed by step III or split by step IV, is counted apart: no word of it was changed).
- `dedup`: step III's non-identical removals, labelled whether the removed caption states a detail its
  kept caption lacks. Of the sample's captions the new run still removes with the same kept caption, how
  many lose a detail; removals whose kept caption changed are listed, to be labelled again. With
  `--before`, the share of the earlier run's word-for-word removals (similarity 1) the new run keeps
  removing.

Usage:
    .venv/bin/python benchmarks/score_output_samples.py untouched --labels U.tsv --run NEW_RUN
    .venv/bin/python benchmarks/score_output_samples.py dedup --labels D.tsv --run NEW_RUN --before OLD_RUN
"""
import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from devsets import read_tsv  # noqa: E402
from devsets.sample_output import read_table  # noqa: E402


def error_pairs(intended: str) -> list:
    """`preforms -> performs ; some one -> someone` as [("preforms", "performs"), ("some one", "someone")]."""
    pairs = []
    for part in intended.split(";"):
        if "->" in part:
            wrong, right = (side.strip() for side in part.split("->", 1))
            pairs.append((wrong, right))
    return pairs


def holds_words(caption: str, words: str) -> bool:
    """Whether the caption holds `words` as whole words, in a row."""
    return f" {words} " in f" {caption} "


def score_untouched(labelled: list, captions_now: dict) -> dict:
    """labelled: rows of the untouched sample; captions_now: sen_id -> the new run's caption (absent when
    the new run removed or split it away: an error's text then counts as gone, an ok caption as gone)."""
    errors = [row for row in labelled if row["label"] == "error"]
    missed = [row["sen_id"] for row in errors
              if any(holds_words(captions_now.get(int(row["sen_id"]), ""), wrong)
                     for wrong, _ in error_pairs(row["intended"]))]
    ok = [row for row in labelled if row["label"] == "ok"]
    changed_ok = [row["sen_id"] for row in ok
                  if int(row["sen_id"]) in captions_now and captions_now[int(row["sen_id"])] != row["caption"]]
    gone_ok = [row["sen_id"] for row in ok if int(row["sen_id"]) not in captions_now]
    return {"errors": len(errors), "missed": missed, "ok": len(ok), "changed_ok": changed_ok, "gone_ok": gone_ok}


def score_dedup(labelled: list, removed_now: dict) -> dict:
    """labelled: rows of the dedup sample; removed_now: sen_id -> kept_sen_id of the new run's step III
    removals."""
    same_kept = [row for row in labelled if removed_now.get(int(row["sen_id"])) == int(row["kept_sen_id"])]
    new_kept = [row["sen_id"] for row in labelled
                if int(row["sen_id"]) in removed_now and removed_now[int(row["sen_id"])] != int(row["kept_sen_id"])]
    return {"sample": len(labelled), "still_removed_same_kept": len(same_kept),
            "lose_detail": [row["sen_id"] for row in same_kept if row["kept_lacks_detail"] == "yes"],
            "kept_changed": new_kept,
            "no_longer_removed": len(labelled) - len(same_kept) - len(new_kept)}


def dedup_removals(run: str) -> list:
    return [row for row in read_table(run, "removed", ["sen_id", "step", "kept_sen_id", "similarity"])
            if row["step"] == "dedup"]


def word_for_word_kept_removed(before: str, now: str) -> tuple:
    """(today's word-for-word removals, how many of them the new run removes too)."""
    identical = {row["sen_id"] for row in dedup_removals(before) if row["similarity"] == 1.0}
    removed = {row["sen_id"] for row in dedup_removals(now)}
    return len(identical), len(identical & removed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sample", choices=("untouched", "dedup"))
    parser.add_argument("--labels", required=True, help="the labelled sample (TSV)")
    parser.add_argument("--run", required=True, help="the new run's output folder")
    parser.add_argument("--before", help="dedup: the run the sample was drawn from, for the word-for-word share")
    args = parser.parse_args()
    labelled = read_tsv(args.labels)
    if args.sample == "untouched":
        captions = {row["sen_id"]: row["caption"] for row in read_table(args.run, "captions", ["sen_id", "caption"])}
        result = score_untouched(labelled, captions)
        print(f"labelled errors: {result['errors']}; missed: {len(result['missed'])} {result['missed']}")
        print(f"ok captions: {result['ok']}; their words changed by the new run: {len(result['changed_ok'])} "
              f"{result['changed_ok']}; not in its captions (removed or split): {len(result['gone_ok'])} {result['gone_ok']}")
        return
    result = score_dedup(labelled, {row["sen_id"]: row["kept_sen_id"] for row in dedup_removals(args.run)})
    still = result["still_removed_same_kept"]
    print(f"sample: {result['sample']}; still removed with the same kept caption: {still}; no longer removed: "
          f"{result['no_longer_removed']}; kept caption changed (label again): {len(result['kept_changed'])} "
          f"{result['kept_changed']}")
    share = f"{len(result['lose_detail']) / still:.3f}" if still else "n/a"
    print(f"of those still removed, losing a detail the kept caption lacks: {len(result['lose_detail'])} ({share}) "
          f"{result['lose_detail']}")
    if args.before:
        identical, kept_removed = word_for_word_kept_removed(args.before, args.run)
        print(f"word-for-word removals before: {identical}; still removed: {kept_removed} ({kept_removed / identical:.4f})")


if __name__ == "__main__":
    main()
