"""`capclean fire`'s figures of one model, the bootstrap of two, and the table it prints; the method is
transforms/evaluation/fire.py."""
from transforms.evaluation.fire import (ScoreMatrix, bootstrap_queries_needed, correct_by_length, label_sets,
                                        mean_figures, per_query)

KS = (1, 5, 10)


def ranked(predictions, gold: dict, depth: int) -> dict:
    """{query: its ranking} under the label set `gold`: a ranked table gives one ranking whatever the labels;
    a ScoreMatrix draws it for them, a tie counting against the model."""
    return predictions.rankings(gold, depth) if isinstance(predictions, ScoreMatrix) else predictions


def model_figures(name, predictions, originals, extra, model, normaliser, texts, depth) -> dict:
    sets = label_sets(originals, extra, model)
    figures = {"predictions": str(name), "model": model,
               "label_sets": {label_set: mean_figures(per_query(ranked(predictions, gold, depth), gold, KS,
                                                                normaliser))
                              for label_set, gold in sets.items()}}
    values = per_query(ranked(predictions, sets["original+extra"], depth), sets["original+extra"], KS, normaliser)
    by_length = correct_by_length(values, texts)
    if by_length:
        figures["by_length"] = by_length
    return figures


def bootstrap_figures(predictions_a, predictions_b, originals, extra, normaliser, resamples, seed, depth) -> dict:
    """The bootstrap on C@1 with every extra label, over the queries both models ranked."""
    gold = label_sets(originals, extra)["original+extra"]
    rankings_a, rankings_b = ranked(predictions_a, gold, depth), ranked(predictions_b, gold, depth)
    shared = sorted(set(rankings_a) & set(rankings_b))
    a = per_query({q: rankings_a[q] for q in shared}, gold, (1,), normaliser)
    b = per_query({q: rankings_b[q] for q in shared}, gold, (1,), normaliser)
    result = bootstrap_queries_needed([a[q]["C@1"] for q in shared], [b[q]["C@1"] for q in shared],
                                      resamples=resamples, seed=seed)
    result["figure"] = "C@1, original+extra"
    result["intervals"] = {str(size): list(bounds) for size, bounds in result["intervals"].items()}
    return result


def format_fire(figures: dict) -> str:
    lines = [f"capclean fire: top {figures['depth']} of each query, AP divided by the relevant videos "
             f"{'retrieved in it' if figures['ap_normaliser'] == 'retrieved' else 'labelled'}"]
    if figures.get("ties"):
        lines.append(f"  ties: {figures['ties']}")
    if figures["unmatched_labels"]:
        lines.append(f"  {figures['unmatched_labels']} label(s) matched no query (or named a video outside the "
                     "gallery) and were left out (--skip-unmatched-labels)")
    for key in ("a", "b"):
        if key not in figures:
            continue
        model = figures[key]
        lines.append(f"model {key.upper()}: {model['predictions']}" + (f" ({model['model']})" if model["model"] else ""))
        lines.append(f"  {'labels':<18}{'queries':>8}{'C@1':>8}{'C@5':>8}{'C@10':>8}{'mAP':>8}")
        for name, row in model["label_sets"].items():
            lines.append(f"  {name:<18}{row['queries']:>8}" + "".join(
                f"{100 * row[f]:>8.1f}" for f in ("C@1", "C@5", "C@10", "mAP")))
        if "by_length" in model:
            lines.append(f"  {'words (orig+extra)':<18}{'queries':>8}{'C@1':>8}{'C@5':>8}{'C@10':>8}")
            for name, row in model["by_length"].items():
                lines.append(f"  {name:<18}{row['queries']:>8}" + "".join(
                    f"{100 * row[f]:>8.1f}" for f in ("C@1", "C@5", "C@10")))
    if "overlap" in figures:
        overlap = figures["overlap"]
        lines.append(f"A vs B on {overlap['queries']} queries: top-10 overlap {100 * overlap['top10_overlap']:.1f}, "
                     f"RBO (p = {overlap['rbo_p']}) {overlap['rbo']:.3f}")
        boot = figures["bootstrap"]
        needed = boot["queries_needed"]
        lines.append(f"bootstrap ({boot['figure']}, {boot['resamples']} resamples, seed {boot['seed']}): "
                     f"A - B = {100 * boot['difference']:+.1f} points; "
                     + (f"{needed} queries detect it at 95%" if needed else "no number of queries detects it at 95%"))
    return "\n".join(lines)
