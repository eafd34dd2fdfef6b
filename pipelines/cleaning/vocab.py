"""`capclean vocab`: the tokens Hunspell rejects, with what the default rule would do, as a table to review.

This is a review tool, run in one process: it reads the input, applies step I,
counts every token (count and videos, as the pipeline's side input does) and
writes, for every rejected token, its figures, up to three example captions and
the decision. Curating `dictionaries/msrvtt/vocabulary.dic` starts from it.

A person writes a verdict in the table's last two columns; `write_reviewed_list` turns the
reviewed table into the reviewed list a later run applies (`spelling.reviewed`).
"""
import csv
from collections import defaultdict

from pipelines.cleaning.review_table import read_review_table
from pipelines.config import load_config
from transforms.batch import rewrite_captions
from transforms.corpus import corpus_statistics
from transforms.normalize import normalize_caption
from transforms.read import read_input
from transforms.spelling import RankedCorrection, Speller, WordLists
from transforms.spelling.wordlists import ReviewedList

EXAMPLES = 3
# The last two are the reviewer's, written empty: `verdict` (fix, keep) and `correct_to` (a fix's replacement),
# which `capclean vocab --reviewed` reads back (review_table.py).
COLUMNS = ("token", "count", "videos", "decision", "rule", "replacement", "candidate", "score", "reason", "examples",
           "verdict", "correct_to")


def normalized_batches(input_path: str) -> list:
    """Every video of the input after step I."""
    return [rewrite_captions(batch, "normalize", normalize_caption) for batch in read_input(input_path)]


def ranked_speller(config, stats, phrases) -> RankedCorrection:
    return Speller(config.spelling, WordLists.read(config.spelling), stats, phrases).rule


def vocabulary_rows(batches, speller, stats) -> list:
    rejected = {token for token in stats if speller.decide(token).rule != "accepted"}
    examples = defaultdict(list)
    for batch in batches:
        for caption in batch.captions:
            for token in set(caption.text.split()) & rejected:
                if len(examples[token]) < EXAMPLES:
                    examples[token].append(caption.text)
    rows = []
    for token in rejected:
        decision = speller.decide(token)
        rows.append({
            "token": token, "count": stats[token][0], "videos": stats[token][1],
            "decision": "change" if decision.replacement else ("flag" if decision.flag else "keep"),
            "rule": decision.rule, "replacement": decision.replacement or "", "candidate": decision.candidate or "",
            "score": "" if decision.score is None else decision.score, "reason": decision.flag or "",
            "examples": " | ".join(examples[token]), "verdict": "", "correct_to": "",
        })
    return sorted(rows, key=lambda row: (-row["videos"], -row["count"], row["token"]))


def write_vocabulary_table(input_path: str, output_path: str, profile: str = "default") -> int:
    config = load_config(profile)
    batches = normalized_batches(input_path)
    stats, phrases = corpus_statistics(batches)
    rows = vocabulary_rows(batches, ranked_speller(config, stats, phrases), stats)
    with open(output_path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS, delimiter="\t")
        writer.writeheader()
        writer.writerows(rows)
    return len(rows)


def write_reviewed_list(table_path: str, output_path: str) -> ReviewedList:
    """The verdicts of a reviewed table (review_table.py) as a reviewed list step II reads
    (`spelling.reviewed`); every row is checked before the list is written."""
    reviewed = read_review_table(table_path)
    with open(output_path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(reviewed.lines()) + "\n")
    return reviewed
