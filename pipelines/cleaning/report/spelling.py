"""Step II on the page: the tokens it changed, by rule and most frequent first (British spellings told from
the typos the british rule's list also maps), its recheck rounds, and the tokens it flagged."""
import re

import pandas as pd

from pipelines.cleaning.report.layout import comparison_table, per_run
from pipelines.cleaning.report.run import Run, caption_texts, step_figures
from pipelines.pages.html import deterministic_sample, esc, section


TOP_CORRECTIONS = 15

FLAGGED_ROW = "flagged, unchanged"

# The corrections of the british rule's list that are not British spellings (typos the list maps).
NOT_BRITISH = "british rule, not British spellings"


def corrections_section(runs: list[Run]) -> str:
    rules = sorted({rule for run in runs for rule in (step_figures(run, "spelling") or {}).get("tokens_changed_by_rule", {})})

    def value(run, rule, _column):
        figures = step_figures(run, "spelling")
        if figures is None:
            return None
        if rule == "total":
            return figures.get("tokens_changed")
        if rule == FLAGGED_ROW:
            return figures.get("tokens_flagged")
        return figures.get("tokens_changed_by_rule", {}).get(rule)

    rows = rules + ["total", FLAGGED_ROW]
    by_rule = comparison_table("rule", rows, [("tokens", "tokens")], runs, value) if rules else ""
    text = ("<p class='note'>The tokens the spelling step changed (<code>corrections/</code>), by rule, and those it "
            "left as written but flagged for review (<code>flagged/</code>); then the most frequent "
            f"{TOP_CORRECTIONS} changes of each rule. <i>british</i>, <i>split</i> and <i>vocabulary</i> are word "
            "lists, <i>suggestion</i> is Hunspell's first suggestion (paper), <i>ranked</i> and <i>context</i> are "
            "the default profile's corpus-ranked correction, <i>plural_in_context</i> its reading of a run-together "
            "possessive as a plural, <i>clip</i> a correction to the one close word the clip's other captions write, "
            "<i>dropped_g</i> an -ing word written without its g, and <i>misspelling_list</i> the one correction a "
            "list of common English misspellings gives a token the corpus could not settle (README). The "
            "<i>british</i> rule's list (the paper's, kept by the default profile) also maps typos (<i>vedio</i> → "
            "<i>video</i>): its table below shows the British spellings only, and the typos apart, as "
            f"<i>{NOT_BRITISH}</i>.</p>")
    return section("Spelling corrections", by_rule + text + recheck_note(runs) + per_run(runs, top_corrections))


def recheck_note(runs: list[Run]) -> str:
    """The captions each recheck round of step II changed, for the runs that had rounds."""
    lines = []
    for run in runs:
        rounds = (step_figures(run, "spelling") or {}).get("recheck_captions_changed") or {}
        if rounds:
            changed = ", ".join(f"round {name.split('_')[-1]}: {count:,}" for name, count in
                                sorted(rounds.items(), key=lambda item: int(item[0].split("_")[-1])))
            lines.append(f"<p class='note'>{esc(run.label)}: step II ran again on the cleaned captions with their "
                         f"counts taken again (README, <code>recheck_rounds</code>); captions changed by {changed}."
                         "</p>")
    return "".join(lines)


def top_corrections(run: Run) -> str:
    if run.corrections.empty:
        return "<p>No spelling corrections in this run.</p>"
    counts = (run.corrections.groupby(["rule", "original", "replacement"]).size().rename("count").reset_index())
    # The british rule's list holds typos too: only its British spellings are shown as british.
    british = counts["rule"] == "british"
    typos = british & ~pd.Series([is_british_spelling(original, replacement) for original, replacement
                                  in zip(counts["original"], counts["replacement"])], index=counts.index, dtype=bool)
    counts.loc[typos, "rule"] = NOT_BRITISH
    rule_totals = counts.groupby("rule")["count"].sum().sort_values(ascending=False, kind="stable")
    tables = []
    for rule, total in rule_totals.items():
        top = counts[counts["rule"] == rule].sort_values(["count", "original", "replacement"],
                                                         ascending=[False, True, True]).head(TOP_CORRECTIONS)
        rows = "".join(f"<tr><td>{esc(row.original)}</td><td class='arrow'>→</td><td>{esc(row.replacement)}</td>"
                       f"<td class='num'>{row.count:,}</td></tr>" for row in top.itertuples())
        tables.append(f"<table class='corrections'><caption>{esc(rule)}: {total:,} tokens</caption>"
                      f"<thead><tr><th>original</th><th></th><th>replacement</th><th class='num'>count</th></tr></thead>"
                      f"<tbody>{rows}</tbody></table>")
    return "<div class='tables'>" + "".join(tables) + "</div>"


# How a British spelling becomes the American one: (pattern on the British word, replacement).
# A correction of the `british` rule is a British spelling only when these rewrite its
# original into its replacement; the paper's list, which the default one keeps, also maps
# plain typos (vedio -> video), and those are not British.
BRITISH_PATTERNS = [
    (re.compile(r"(?<=[a-z]{2})our"), "or"),                                  # colour, behaviour, favourite
    (re.compile(r"(?<=[^aeiou])re(?=[sd]?$)"), "er"),                        # centre, theatres, metre
    (re.compile(r"(?<=[aeiou])ll(?=(?:ing|ed|er|ers)$)"), "l"),              # travelling, labelled
    (re.compile(r"(?<=[a-z]{3})is(?=(?:e|es|ed|ing|ation|ations|er|ers)$)"), "iz"),  # organise(d), criticising
    (re.compile(r"ys(?=(?:e|es|ed|ing)$)"), "yz"),                            # analyse
    (re.compile(r"ogue(?=s?$)"), "og"),                                       # catalogue
    (re.compile(r"^(def|off|lic|pret)ence(?=s?$)"), r"\1ense"),           # defence, licence
    (re.compile(r"^practis"), "practic"),                                     # practise, practising
    (re.compile(r"^grey"), "gray"), (re.compile(r"^tyre"), "tire"), (re.compile(r"^chilli"), "chili"),
    (re.compile(r"^doughnut"), "donut"), (re.compile(r"^moustache"), "mustache"), (re.compile(r"^maths$"), "math"),
    (re.compile(r"^mum(?=s?$)"), "mom"), (re.compile(r"^aluminium$"), "aluminum"), (re.compile(r"^programme"), "program"),
    (re.compile(r"^aeroplane"), "airplane"), (re.compile(r"^plough"), "plow"), (re.compile(r"^pyjama"), "pajama"),
    (re.compile(r"^jewellery$"), "jewelry"), (re.compile(r"^cheque"), "check"), (re.compile(r"^specialit(?=(?:y|ies)$)"), "specialt"),
    (re.compile(r"^mould"), "mold"), (re.compile(r"^sceptic"), "skeptic"), (re.compile(r"^ageing$"), "aging"),
    (re.compile(r"judgement"), "judgment"), (re.compile(r"^cosy$"), "cozy"), (re.compile(r"^kerb"), "curb"),
]


def is_british_spelling(original: str, replacement: str, rewrites: int = 3) -> bool:
    """Whether British-to-American rewrites (at most `rewrites` of them) turn `original` into `replacement`."""
    forms = {original.lower()}
    target = replacement.lower()
    for _ in range(rewrites):
        forms |= {pattern.sub(american, form) for form in forms for pattern, american in BRITISH_PATTERNS}
        if target in forms:
            return True
    return False


TOP_FLAGGED = 20


def flagged_section(runs: list[Run]) -> str:
    if not any(len(run.flagged) for run in runs):
        return section("Flagged tokens", "<p>Step II flagged no token.</p>")
    text = (f"<p class='note'>Tokens Hunspell rejects that step II left as written because no correction was "
            f"clearly best (<code>flagged/</code>): the {TOP_FLAGGED} most frequent, with the reason and best "
            "candidate given most often, and one caption that holds it (the same on every rendering: the "
            "smallest SHA-1 of its sen_id), as <code>captions/</code> has it.</p>")
    return section("Flagged tokens", text + per_run(runs, top_flagged))


def top_flagged(run: Run) -> str:
    flagged = run.flagged
    if flagged.empty:
        return "<p>Step II flagged no token in this run.</p>"
    counts = flagged.groupby("token").size().rename("count").reset_index()
    counts = counts.sort_values(["count", "token"], ascending=[False, True], kind="stable").head(TOP_FLAGGED)
    text_of = caption_texts(run, flagged["sen_id"])
    rows = []
    for row in counts.itertuples():
        rows_of_token = flagged[flagged["token"] == row.token]
        reason = most_common(rows_of_token["reason"])
        candidate = most_common(rows_of_token["candidate"].dropna())
        example_id = deterministic_sample(rows_of_token.drop_duplicates("sen_id"), "sen_id", 1)["sen_id"].iloc[0]
        example = text_of.get(example_id)
        shown = marked_token(example, row.token) if isinstance(example, str) else "<i>(no caption)</i>"
        rows.append(f"<tr><td><code>{esc(row.token)}</code></td><td class='num'>{row.count:,}</td>"
                    f"<td>{esc(candidate) if candidate is not None else '–'}</td><td class='why'>{esc(reason)}</td>"
                    f"<td><span class='id'>{example_id}</span> {shown}</td></tr>")
    return (f"<table class='flagged' id='flagged-tokens'><caption>{len(flagged):,} tokens flagged, "
            f"{flagged['token'].nunique():,} distinct</caption><thead><tr><th>token</th><th class='num'>times</th>"
            "<th>best candidate</th><th>reason</th><th>example caption</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>")


def most_common(values: pd.Series):
    """The most frequent value (the first in sorted order on ties), None if there is none."""
    if values.empty:
        return None
    counts = values.value_counts()
    return sorted(counts[counts == counts.max()].index)[0]


def marked_token(caption: str, token: str) -> str:
    """The caption, escaped, with each word equal to `token` in <mark>."""
    return " ".join(f"<mark>{esc(word)}</mark>" if word == token else esc(word) for word in caption.split(" "))
