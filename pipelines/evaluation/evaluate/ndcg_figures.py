"""nDCG inside `capclean evaluate`: a model's similarity matrix against the graded relevance of exactly the
protocol's texts and videos (Wray et al. 2021, as `capclean ndcg`), beside the exact random baseline.

The relevance is computed here, as `capclean relevance` computes it but restricted to the protocol: a
video's side from all its captions in --input, a text's set from its own text (1k-A: the JSFusion
sentence), a text's own video at 1 (transforms/evaluation/relevance.py's query_relevance, default reading);
or, with --relevance, read from a `capclean relevance` output: its pairs of the protocol's texts and videos.
The nDCG is transforms/evaluation/ndcg.py's, as `capclean ndcg` gives it: the cut-off at a query's number of
relevant items (the authors' released code), linear and exponential gain, ties averaged over their orders.
Its figures go to evaluate's JSON under "ndcg" and its page as one section (ndcg_section).
"""
import logging
from dataclasses import replace

from pipelines.commands.arguments import chosen_names
from pipelines.pages.html import esc, section
from transforms.evaluation.relevance_reading import PROXIES

log = logging.getLogger("capclean")

DEFAULT_PROXIES = "bow,pos,syn"
TIES = "nDCG: tied items share their ranks' discounts (the mean over the tie's orders), as capclean ndcg"
CUTOFF = "relevant"  # a query's DCG stops at its number of relevant items: Wray et al.'s released nDCG.py


def add_ndcg_arguments(parser) -> None:
    parser.add_argument("--proxies", metavar="LIST", help="nDCG with --scores: the relevance proxies, comma-"
                        f"separated, or none (default: {DEFAULT_PROXIES}, computed from --input for exactly the "
                        "protocol's texts and videos; with --relevance, every proxy it holds)")
    parser.add_argument("--relevance", metavar="DIR", help="read nDCG's relevance from this capclean relevance "
                        "output instead of computing it: its pairs of the protocol's videos and texts (a 1k-A "
                        "sentence's: those of the caption it matched, which needs --input)")


def chosen_proxies(value: str | None, relevance_dir: str | None = None) -> tuple | None:
    """The proxies --proxies names (checked before any work): () for none; None for those --relevance holds."""
    if value is None:
        return None if relevance_dir else chosen_names("proxies", DEFAULT_PROXIES, PROXIES)
    return chosen_names("proxies", value, PROXIES + (("met",) if relevance_dir else ()))


def ndcg_figures(protocol, similarity, input_path: str | None, proxies: tuple | None,
                 relevance_dir: str | None = None) -> dict | None:
    """{"proxies": {proxy: {"model": table, "random": table}}, ...} of the (texts x videos) matrix, each table
    {t2v, v2t, mean: {linear, exponential}} as transforms/evaluation/ndcg.py's ndcg_table; None when no proxy is
    asked for; {"left_out": why} when the protocol has no captions to build it from (1k-A without --input)."""
    if proxies == ():
        return None
    if relevance_dir is None and input_path is None:
        return {"left_out": f"{protocol.name} without --input has no captions to build the relevance from"}
    import numpy as np  # here, as the other imports: the command line builds the flags without them

    from transforms.evaluation.ndcg import NdcgOptions, dense_score_blocks, ndcg_table

    options = NdcgOptions(cutoff=CUTOFF)
    scores = dense_score_blocks(np.asarray(similarity).T)  # videos x texts, the relevance's shape
    figures = {"proxies": {}, "cutoff": CUTOFF, "ties": TIES, "relevance": relevance_note(protocol, relevance_dir)}
    if relevance_dir:
        folders = relevance_folders(relevance_dir, proxies)
        relevances, count = read_protocol_relevance(protocol, relevance_dir, folders), len(folders)
    else:
        relevances, count = protocol_relevance(protocol, input_path, proxies), len(proxies)
    for number, (proxy, relevance) in enumerate(relevances, start=1):
        log.info("nDCG: proxy %s (%d of %d), %s texts x %s videos", proxy, number, count,
                 f"{relevance.shape[1]:,}", f"{relevance.shape[0]:,}")
        figures["proxies"][proxy] = {"model": ndcg_table(relevance, scores, options, progress_of(proxy)),
                                     "random": ndcg_table(relevance, "random", options),
                                     "pairs": int(relevance.nnz)}
    return figures


def progress_of(proxy: str):
    def progress(done: int, total: int) -> None:
        log.info("nDCG: proxy %s, %d of %d (direction, gain) done", proxy, done, total)
    return progress


def relevance_note(protocol, relevance_dir: str | None) -> str:
    if relevance_dir:
        return (f"read from {relevance_dir}: its pairs of the protocol's videos and texts"
                + (" (a sentence's: the caption it matched)" if protocol.name == "1k-A" else ""))
    texts = "the JSFusion sentences" if protocol.name == "1k-A" else "the captions"
    return (f"computed for the protocol: each of its videos from all its captions in --input, {texts} from their "
            "own text; a text's own video 1 (capclean relevance's default reading)")


def protocol_relevance(protocol, input_path: str, proxies: tuple):
    """(proxy, its (videos x texts) CSR relevance in the protocol's order) for each proxy."""
    from pipelines.evaluation.caption_input import read_caption_rows
    from transforms.evaluation.pos import load_tagger, tag_captions
    from transforms.evaluation.protocols import OWN_CAPTION
    from transforms.evaluation.relevance import RelevanceReading, caption_sets, query_relevance

    column_of = {video: column for column, video in enumerate(protocol.video_ids)}
    # By column, then sen_id: the videos' first appearance is the protocol's order.
    rows = sorted((row for row in read_caption_rows(input_path) if row[1] in column_of),
                  key=lambda row: (column_of[row[1]], row[0]))
    refuse_videos_without_captions(protocol, {row[1] for row in rows}, input_path)
    tagger = load_tagger()
    log.info("nDCG: tagging %s captions of %s videos", f"{len(rows):,}", f"{len(protocol.video_ids):,}")
    captions = tag_captions(tagger, rows)
    if all(query.match == OWN_CAPTION for query in protocol.queries):
        by_sen_id = {caption.sen_id: caption for caption in captions}
        texts = [by_sen_id[query.sen_ids[0]] for query in protocol.queries]
    else:  # 1k-A: the sentences, numbered by row (they are not all captions)
        texts = tag_captions(tagger, [(row, query.video_id, "test", query.text)
                                      for row, query in enumerate(protocol.queries)])
    reading = RelevanceReading()
    wordnet = open_wordnet_for(proxies)
    for proxy in proxies:
        video_side = caption_sets(captions, proxy, reading, wordnet)
        # A text's set needs no video senses of its own: those are the videos' (from their captions).
        text_side = caption_sets(texts, proxy, replace(reading, syn_video_senses="captions"), wordnet)
        yield proxy, query_relevance(video_side, text_side, reading).matrix


def relevance_folders(relevance_dir: str, proxies: tuple | None) -> dict:
    """{proxy: folder} of the proxies asked for (None: every one it holds), each of which it must hold."""
    from pipelines.evaluation.protocol_files import EvaluateInputError
    from pipelines.evaluation.ndcg.inputs import proxy_folders

    folders = proxy_folders(relevance_dir)
    missing = [proxy for proxy in proxies or () if proxy not in folders]
    if missing:
        raise EvaluateInputError(f"--relevance {relevance_dir} has no proxy {missing[0]} (it holds "
                                 f"{', '.join(folders)}): name those in --proxies")
    return {proxy: folders[proxy] for proxy in (proxies or folders)}


def read_protocol_relevance(protocol, relevance_dir: str, folders: dict):
    """(proxy, its (videos x texts) CSR relevance in the protocol's order) read from a capclean relevance output:
    a text's row is its caption's (1k-A: the first caption the sentence matched), and every text's pair with its
    own video must be there (relevance 1), or the output was not built over the protocol's captions."""
    import numpy as np

    from pipelines.evaluation.protocol_files import EvaluateInputError
    from pipelines.evaluation.ndcg.inputs import read_relevance
    from pipelines.evaluation.score_tables import Gallery

    unmatched = [row for row, query in enumerate(protocol.queries) if not query.sen_ids]
    if unmatched:
        raise EvaluateInputError(f"--relevance {relevance_dir}: text {unmatched[0]} of {protocol.name} is no caption "
                                 f"(matched to none{'' if protocol.name != '1k-A' else ': give --input'}), so the "
                                 "relevance has no row for it; leave out --relevance to compute it")
    gallery = Gallery(protocol.video_ids, tuple(query.sen_ids[0] for query in protocol.queries),
                      f"the {protocol.name} protocol")
    own_columns = protocol.own_columns()
    for proxy, folder in folders.items():
        relevance = read_relevance(folder, gallery, within=True)
        own = np.asarray(relevance[own_columns, np.arange(len(own_columns))]).ravel()
        if not (own > 0).all():
            row = int(np.flatnonzero(own <= 0)[0])
            raise EvaluateInputError(f"--relevance {relevance_dir}: proxy {proxy} has no pair of caption "
                                     f"{gallery.sen_ids[row]} with its own video {protocol.queries[row].video_id}: "
                                     "it was not built over the protocol's captions")
        yield proxy, relevance


def refuse_videos_without_captions(protocol, described: set, input_path: str) -> None:
    """A video with no caption in --input has no side to be relevant by: one line naming it."""
    from pipelines.evaluation.protocol_files import EvaluateInputError

    bare = [video for video in protocol.video_ids if video not in described]
    if bare:
        raise EvaluateInputError(f"--input {input_path}: video {bare[0]} of the protocol has no caption there, so "
                                 f"it has no relevance for nDCG ({len(bare):,} such videos; --proxies none skips nDCG)")


def open_wordnet_for(proxies: tuple):
    if "syn" not in proxies:
        return None
    from transforms.evaluation.lexicon import default_wordnet_dir, open_wordnet

    return open_wordnet(default_wordnet_dir())


# ---------------------------------------------------------------- what it prints and shows

def format_ndcg(figures: dict | None) -> list:
    """Lines under evaluate's table: per proxy and gain, nDCG t2v, v2t, mean, the model's then random's."""
    if not figures:
        return []
    if "left_out" in figures:
        return [f"  nDCG: left out, {figures['left_out']}"]
    lines = [f"  nDCG (%), cut-off {figures['cutoff']}, ties averaged over their orders",
             f"  {'proxy':<6}{'gain':<13}{'':<8}{'t2v':>7}{'v2t':>7}{'mean':>7}"]
    for proxy, tables in figures["proxies"].items():
        for gain in tables["model"]["mean"]:
            for source in ("model", "random"):
                table = tables[source]
                lines.append(f"  {proxy:<6}{gain:<13}{source:<8}" + "".join(f"{100 * table[key][gain]:>7.1f}"
                                                                         for key in ("t2v", "v2t", "mean")))
    return lines


def ndcg_section(figures: dict | None) -> list:
    """The page's nDCG section (none without nDCG figures): `capclean ndcg`'s table of each gain."""
    if not figures or "left_out" in figures:
        return []
    from pipelines.evaluation.ndcg.page import ndcg_table_html

    model = {proxy: tables["model"] for proxy, tables in figures["proxies"].items()}
    random = {proxy: tables["random"] for proxy, tables in figures["proxies"].items()}
    gains = list(next(iter(model.values()))["mean"])
    note = (f"<p class='note'>Relevance {esc(figures['relevance'])}. Cut-off: {esc(figures['cutoff'])} (a query's "
            f"DCG stops at its number of relevant items). {esc(figures['ties'])}. Random: the exact expectation of "
            "a uniformly random ranking. docs/commands/ndcg.md gives each definition.</p>")
    return [section("nDCG per proxy and direction", "".join(ndcg_table_html(model, random, gain) for gain in gains)
                    + note)]
