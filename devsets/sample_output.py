"""Sample what a cleaning run wrote, for blind judgement: captions no step touched, near-duplicate
removals that were not word-for-word copies, and the changes some of step II's rules made.

Three samples, each from one run's output folder (`capclean clean --output`):

- `untouched`: captions of `captions/` that no step changed (no row of `edits/` names their sen_id),
  drawn uniformly. A labeller reads each one as an editor would and says whether it still holds an
  error a dictionary cannot see (a real word used for another: "a band preforms a song"), and which.
- `dedup`: rows of `removed/` that step III removed (`step` = dedup) whose text is not the same as the
  caption it was compared to, drawn uniformly. The labeller sees the removed caption, the caption kept
  for its group, and the captions the video keeps, and says whether the removal dropped a detail.

The sample is written outside the repository, labelled blind by people who have not seen what a changed
capclean does with it, scored once, and only then joins the dev set (docs/devsets.md).

Usage:
    .venv/bin/python -m devsets.sample_output untouched --run out/msrvtt --seed 42142 --size 300 \
        --out /tmp/untouched.tsv
    .venv/bin/python -m devsets.sample_output dedup --run out/msrvtt --seed 42242 --size 200 \
        --out /tmp/dedup.tsv
    .venv/bin/python -m devsets.sample_output changes --run out/msrvtt --seed 47247 --size 60 \
        --rules compound confusion --out /tmp/changes.tsv

`--exclude` names earlier samples (their TSVs): a fresh sample draws none of their sen_ids.
"""
import argparse
import random
from collections import defaultdict

import pyarrow.dataset as ds

from devsets import read_tsv

UNTOUCHED_COLUMNS = ("sen_id", "video_id", "caption", "label", "intended", "note")
CHANGES_COLUMNS = ("sen_id", "position", "original", "replacement", "before", "after", "label", "note")
DEDUP_COLUMNS = ("sen_id", "video_id", "removed", "kept_sen_id", "kept", "video_keeps",
                 "kept_lacks_detail", "video_lacks_detail", "note")


def read_table(run: str, table: str, columns: list) -> list:
    """The rows of one table of a run folder as dicts."""
    return ds.dataset(f"{run}/{table}", format="parquet").to_table(columns=columns).to_pylist()


def untouched_rows(run: str) -> list:
    """(sen_id, video_id, caption) of every output caption no step changed."""
    changed = {row["sen_id"] for row in read_table(run, "edits", ["sen_id"])}
    return [(row["sen_id"], row["video_id"], row["caption"])
            for row in read_table(run, "captions", ["sen_id", "video_id", "caption"])
            if row["sen_id"] not in changed]


def non_identical_removals(run: str) -> list:
    """Step III's removals whose text differs from the caption they were compared to, each with the
    caption kept for the group and the video's kept captions (joined by " | ")."""
    captions = read_table(run, "captions", ["sen_id", "video_id", "caption"])
    text_of = {row["sen_id"]: row["caption"] for row in captions}
    by_video = {}
    for row in captions:
        by_video.setdefault(row["video_id"], []).append(row["caption"])
    removed = read_table(run, "removed", ["sen_id", "video_id", "caption", "step", "kept_sen_id", "similarity"])
    return [(row["sen_id"], row["video_id"], row["caption"], row["kept_sen_id"], text_of.get(row["kept_sen_id"], ""),
             " | ".join(by_video.get(row["video_id"], [])))
            for row in removed
            if row["step"] == "dedup" and row["similarity"] is not None and row["similarity"] < 1.0]


def round_and_rules(rule: str) -> tuple:
    """`recheck 2: compound,ranked` as ("recheck 2: ", {"compound", "ranked"}); `ranked` as ("", {"ranked"})."""
    prefix, _, rules = rule.rpartition(": ")
    return (prefix + ": " if prefix else ""), set(rules.split(","))


def rule_changes(run: str, rules: set) -> list:
    """(sen_id, position, original, replacement, before, after) of every correction one of `rules` made,
    with the caption before and after the step II pass (step II itself or a recheck round) that made it.
    corrections/ names the rule without the round, so the pass is the one whose rules hold it and whose
    caption holds the original at the correction's position."""
    passes = defaultdict(list)
    for edit in read_table(run, "edits", ["sen_id", "step", "rule", "before", "after"]):
        if edit["step"] == "spelling":
            passes[edit["sen_id"]].append((round_and_rules(edit["rule"])[1], edit["before"], edit["after"]))
    changes = []
    for row in read_table(run, "corrections", ["sen_id", "position", "original", "replacement", "rule"]):
        if row["rule"] not in rules:
            continue
        words = row["original"].split()
        for edit_rules, before, after in passes[row["sen_id"]]:
            if row["rule"] in edit_rules and before.split()[row["position"]:row["position"] + len(words)] == words:
                changes.append((row["sen_id"], row["position"], row["original"], row["replacement"], before, after))
                break
    return changes


def draw(rows: list, size: int, seed: int) -> list:
    return sorted(random.Random(seed).sample(rows, min(size, len(rows))))


def earlier_sen_ids(paths: list) -> set:
    """The sen_ids of earlier samples' TSVs, so that a fresh sample holds none of them."""
    return {int(row["sen_id"]) for path in paths for row in read_tsv(path)}


def write_tsv(path: str, columns: tuple, rows: list) -> None:
    """Plain tab-separated lines with the label columns empty; captions hold no tab or newline."""
    filled = len(rows[0]) if rows else 0
    with open(path, "w") as handle:
        handle.write("\t".join(columns) + "\n")
        for row in rows:
            handle.write("\t".join([str(value) for value in row] + [""] * (len(columns) - filled)) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sample", choices=("untouched", "dedup", "changes"))
    parser.add_argument("--run", required=True, help="a cleaning run's output folder")
    parser.add_argument("--out", required=True, help="where to write the unlabelled sample (outside the repository)")
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--size", type=int, required=True)
    parser.add_argument("--rules", nargs="*", default=[], help="changes: the rules whose corrections to draw")
    parser.add_argument("--exclude", nargs="*", default=[], metavar="TSV",
                        help="earlier samples: their sen_ids are not drawn again")
    args = parser.parse_args()
    if args.sample == "untouched":
        pool, columns = untouched_rows(args.run), UNTOUCHED_COLUMNS
    elif args.sample == "dedup":
        pool, columns = non_identical_removals(args.run), DEDUP_COLUMNS
    else:
        pool, columns = rule_changes(args.run, set(args.rules)), CHANGES_COLUMNS
    excluded = earlier_sen_ids(args.exclude)
    pool = [row for row in pool if row[0] not in excluded]
    rows = draw(pool, args.size, args.seed)
    write_tsv(args.out, columns, rows)
    print(f"{args.sample}: {len(pool)} rows to draw from; wrote {len(rows)} to {args.out}")


if __name__ == "__main__":
    main()
