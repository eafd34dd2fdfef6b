"""PoSRank inside `capclean evaluate` (docs/commands/evaluate.md, "PoSRank"): the hard negatives' texts in the
order a model encodes them (`--write-texts FILE --negatives DIR`), and PoSRank per part of speech of the
model's scores of them (`--negatives-scores FILE`) beside a random scorer, under the key "posrank" of the
figures.

The order is transforms/evaluation/posrank.py's `matrix_rows`: one row per caption, part of speech and level;
`capclean posrank --scores` reads the same matrix. The negatives are read as `capclean posrank` reads them
(pipelines/evaluation/posrank/inputs.py), the scores as every scores file (pipelines/evaluation/score_tables.py).
"""
from pathlib import Path

from pipelines.evaluation.protocol_files import EvaluateInputError
from pipelines.pages.html import esc, section

ROW_ORDER = ("one row per caption, part of speech and level: by sen_id, then part (noun, verb, adjective, "
             "adverb, preposition), then level (word, phrase); in a row the caption, then its negatives by k, "
             "each to be scored against the caption's own video")
TIES = ("a tie counts against the model: a negative scored as high as the caption ranks above it, so one score "
        "for every text gets 1 / (n + 1), never more")
RANDOM = "chance: the mean over captions of H(n + 1) / (n + 1), n a caption's negatives (0.174 for n = 20)"


def check_negatives_flags(negatives: str | None, negatives_scores: str | None) -> None:
    """Before any work: --negatives-scores needs --negatives, and each must exist."""
    if negatives_scores and not negatives:
        raise EvaluateInputError("--negatives-scores needs --negatives: the hardneg output the scores are of")
    if negatives and not Path(negatives).exists():
        raise EvaluateInputError(f"--negatives {negatives} does not exist")
    if negatives_scores and not Path(negatives_scores).is_file():
        raise EvaluateInputError(f"--negatives-scores {negatives_scores}: no such file")


def protocol_negatives(negatives: str, protocol, columns: tuple = ()) -> dict:
    """The hardneg table's columns (NEGATIVE_COLUMNS and `columns`); a negative of a video the protocol does not
    have is refused, naming it: its PoSRank would not be of the protocol."""
    from pipelines.evaluation.posrank.inputs import read_negatives

    table = read_negatives(negatives, columns)
    videos = set(protocol.video_ids)
    strangers = sorted({video for video in table["video_id"] if video not in videos})
    if strangers:
        raise EvaluateInputError(f"--negatives {negatives}: video {strangers[0]} is not a video of {protocol.name} "
                                 f"({len(strangers):,} are not): build the negatives of its videos (capclean "
                                 "hardneg --videos)")
    return table


def negatives_texts(negatives: str, protocol) -> dict:
    """The part of --write-texts' document that lists the negatives' texts, row by row, in the matrix's order."""
    from transforms.evaluation.posrank import matrix_rows, matrix_width

    table = protocol_negatives(negatives, protocol, ("text", "caption"))
    text_of = dict(zip(table["negative_id"], table["text"]))
    caption_of = dict(zip(table["sen_id"], table["caption"]))
    rows = matrix_rows(table)
    return {"negatives": str(negatives), "order": ROW_ORDER, "shape": [len(rows), matrix_width(rows)],
            "padding": "a row with fewer negatives than the widest has NaN in the cells after them",
            "rows": [{"sen_id": row.sen_id, "video_id": row.video_id, "part": row.part, "level": row.level,
                      "texts": [caption_of[row.sen_id], *(text_of[negative] for negative in row.negative_ids)],
                      "text_ids": [str(row.sen_id), *row.negative_ids]} for row in rows]}


def posrank_section(negatives: str, negatives_scores: str, protocol) -> dict:
    """The figures under "posrank": PoSRank per part and level, with chance, of the scores given."""
    from pipelines.evaluation.posrank.inputs import posrank_of_scores
    from transforms.evaluation.posrank import posrank_figures

    result = posrank_of_scores(protocol_negatives(negatives, protocol), negatives_scores)
    return {"negatives": str(negatives), "scores": str(negatives_scores), "ties": TIES, "random": RANDOM,
            "figures": posrank_figures(result)}


def format_posrank_section(posrank: dict) -> str:
    """PoSRank per level as `capclean posrank` prints it, under a line naming the tie rule."""
    lines = ["PoSRank: the caption among its hard negatives, beside chance (a random scorer); ties count against "
             "the model"]
    header = f"  {'':<13}{'PoSRank':>8}{'chance':>8}{'captions':>10}"
    for level, parts in posrank["figures"].items():
        lines += [f"  {level} level", header]
        for part, figures in parts.items():
            captions = f"{figures['captions']:>10,}" if "captions" in figures else ""
            lines.append(f"  {part:<13}{figures['posrank']:>8.3f}{figures['chance']:>8.3f}{captions}")
    return "\n".join(lines)


def posrank_page_section(posrank: dict) -> str:
    """The report's PoSRank section: one table per level, the model beside chance."""
    body = ""
    for level, parts in posrank["figures"].items():
        for part, figures in parts.items():
            captions = f"{figures['captions']:,}" if "captions" in figures else ""  # the mean has none
            body += (f"<tr><th>{esc(level)}, {esc(part)}</th><td class='num'>{figures['posrank']:.3f}</td>"
                     f"<td class='num note'>{figures['chance']:.3f}</td><td class='num'>{captions}</td></tr>")
    note = f"<p class='note'>Scores: <code>{esc(posrank['scores'])}</code>. {esc(posrank['ties'])}; {esc(RANDOM)}.</p>"
    return section("PoSRank on the hard negatives", "<table class='figures'><thead><tr><th></th><th class='num'>"
                   "PoSRank</th><th class='num'>chance</th><th class='num'>captions</th></tr></thead><tbody>"
                   f"{body}</tbody></table>{note}")
