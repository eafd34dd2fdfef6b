"""FIRE inside `capclean evaluate` (--fire-labels): Correct@1/5/10 and mAP of the model's matrix with the
original labels and with the original + extra labels, each beside the exact figures of a random ranking
(docs/commands/evaluate.md). The labels are read as `capclean fire` reads them (pipelines/evaluation/label_files.py:
a table of query, video, label, source, `capclean overlap`'s labelling sheet, or FIRE's released JSON) and matched
exactly to the protocol's rows, by text (1k-A's JSFusion sentence, as FIRE keys them) or by sen_id; a label
that matches no row, or names a video outside the protocol's, is an error unless --skip-unmatched-labels.
The method is transforms/evaluation/fire.py, FIRE's mmr/analysis.py: the model's top 20 of each text, AP
divided by the relevant videos retrieved in it."""
from pipelines.commands.arguments import add_skip_unmatched_labels_argument
from pipelines.pages.html import esc, points, section

KS = (1, 5, 10)
FIGURES = ("C@1", "C@5", "C@10", "mAP")
LABEL_SETS = ("original", "original+extra")
AP_NORMALISER = "retrieved"  # FIRE's: the relevant videos within the top FIRE_DEPTH


def add_fire_arguments(parser) -> None:
    parser.add_argument("--fire-labels", metavar="FILE", help="also FIRE's C@1/5/10 and mAP with the original and "
                        "the extra labels: a table of query, video, label, source (capclean overlap's labelling "
                        "sheet), or FIRE's released JSON; queries matched exactly by text or sen_id")
    add_skip_unmatched_labels_argument(parser)


def fire_figures(protocol, similarity, labels_path: str, skip_unmatched: bool) -> dict:
    """The FIRE figures of a (texts x videos) matrix on `protocol`, with the labels of `labels_path`."""
    # Here, not above: the command line builds `evaluate`'s flags without loading the method (numpy).
    from pipelines.evaluation.label_files import gold_from_matches, read_labels, refuse_unmatched
    from transforms.evaluation.fire import (FIRE_DEPTH, MATRIX_TIES, LabelQuery, ScoreMatrix, label_sets,
                                            match_labels, mean_figures, per_query, random_figures)

    keys = tuple(str(row) for row in range(len(protocol.queries)))
    labels = read_labels(labels_path)
    queries = [LabelQuery(query.text, query.sen_ids, (key,)) for key, query in zip(keys, protocol.queries)]
    matched, unmatched = match_labels(labels, queries, protocol.video_ids)
    skipped = refuse_unmatched(unmatched, labels_path, skip_unmatched)
    originals, extra = gold_from_matches(matched, keys)
    for key, query in zip(keys, protocol.queries):  # FIRE's gold set starts with the text's own video
        originals[key].add(query.video_id)
    matrix = ScoreMatrix(similarity, keys, protocol.video_ids)
    sets = label_sets(originals, extra)
    figures = {}
    for name in LABEL_SETS:
        gold = sets[name]
        figures[name] = {
            "model": mean_figures(per_query(matrix.rankings(gold, FIRE_DEPTH), gold, KS, AP_NORMALISER)),
            "random": random_figures([len(gold[key]) for key in keys], len(protocol.video_ids), KS, FIRE_DEPTH)}
    return {"labels": labels_path, "labels_read": len(labels), "labels_skipped": skipped,
            "extra_positives": sum(len(sets["original+extra"][key] - sets["original"][key]) for key in keys),
            "depth": FIRE_DEPTH, "ap_normaliser": AP_NORMALISER, "ties": MATRIX_TIES, "label_sets": figures}


def fire_lines(fire: dict) -> list:
    """The terminal's rows: C@K and mAP in percent, the model's then random's, per label set."""
    skipped = f", {fire['labels_skipped']:,} left out (--skip-unmatched-labels)" if fire["labels_skipped"] else \
        ", every one matched"
    lines = [f"  FIRE labels {fire['labels']}: {fire['labels_read']:,} read{skipped}; {fire['extra_positives']:,} "
             f"extra positives; top {fire['depth']}, AP over the relevant retrieved; ties count against the model",
             f"  {'':<24}" + "".join(f"{name:>9}" for name in FIGURES)]
    for name, rows in fire["label_sets"].items():
        for source in ("model", "random"):
            lines.append(f"  {name + ' ' + source:<24}" + "".join(f"{100 * rows[source][figure]:.1f}".rjust(9)
                                                                  for figure in FIGURES))
    return lines


def fire_section(fire: dict) -> str:
    """The page's FIRE section: the same rows as a table."""
    head = "".join(f"<th class='num'>{name}</th>" for name in FIGURES)
    body = ""
    for name, rows in fire["label_sets"].items():
        for source in ("model", "random"):
            cells = "".join(f"<td class='num{' note' if source == 'random' else ''}'>{points(rows[source][figure])}"
                            "</td>" for figure in FIGURES)
            body += f"<tr><th>{esc(name)}, {source}</th><td class='num'>{rows[source]['queries']:,}</td>{cells}</tr>"
    note = (f"<p class='note'>Labels: <code>{esc(fire['labels'])}</code>, {fire['labels_read']:,} read, "
            f"{fire['labels_skipped']:,} left out, {fire['extra_positives']:,} extra positives. FIRE's figures "
            f"(Rodriguez et al. 2022, mmr/analysis.py): C@K is the share of texts with a relevant video in the "
            f"top K; AP the mean precision at the relevant videos within the top {fire['depth']}. Ties: "
            f"{esc(fire['ties'])}. Random: the exact expectation of a uniformly random ranking.</p>")
    return section("FIRE: Correct@K and mAP with the extra labels",
                   f"<table class='figures'><thead><tr><th></th><th class='num'>queries</th>{head}</tr></thead>"
                   f"<tbody>{body}</tbody></table>{note}")
