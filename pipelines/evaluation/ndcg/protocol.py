"""`capclean ndcg --protocol`: a model's similarity matrix in a retrieval protocol's order (1k-A, full-test,
custom) scored against a `capclean relevance` output, exactly as `capclean evaluate --relevance` scores it.

Nothing here is written twice: the protocol is read by evaluate's protocol_files.py, the matrix by its
scores.py (texts x videos or videos x texts, --orientation for a square one, every score finite), and the
relevance of the protocol's texts and videos by its ndcg_figures.py (a text's row is its caption's; a 1k-A
sentence's, that of the caption it matched; the relevance's pairs outside the protocol are left aside).
What this module adds is ndcg's side: the captions come from --captions or the relevance's recorded input,
and a matrix given without --protocol is refused before any work (is_matrix_file)."""
from pathlib import Path

import numpy as np

from pipelines.evaluation.ndcg.inputs import BASELINES, NdcgInputError, ScoredGallery, captions_source


def protocol_gallery(relevance_dir: str, scores: str, captions: str | None, protocol_flags: dict) -> ScoredGallery:
    """The gallery of a protocol (`protocol_flags`: protocol, videos, sen_ids, orientation by their dest), scored
    by a matrix in its order: texts x videos as `capclean evaluate` reads it, each text's relevance read as
    `evaluate --relevance` reads it (a 1k-A sentence's: the caption it matched), the relevance's pairs outside
    the protocol left aside."""
    from pipelines.evaluation.evaluate.ndcg_figures import read_protocol_relevance, relevance_folders
    from pipelines.evaluation.protocol_files import read_protocol
    from pipelines.evaluation.evaluate.scores import read_scores as read_protocol_scores
    from transforms.evaluation.ndcg import dense_score_blocks
    from transforms.evaluation.protocols import match_counts

    name = protocol_flags["protocol"]
    folders = relevance_folders(relevance_dir, None)
    source = captions_source(relevance_dir, captions)
    if source is None:
        raise NdcgInputError(f"--protocol {name} needs --captions RUN_OR_RAW: the captions the relevance was built "
                             f"from (the output at --relevance {relevance_dir} records no input that still exists)")
    protocol = read_protocol(name, source, protocol_flags["videos"], protocol_flags["sen_ids"], "--captions")
    refuse_unmatched_sentences(protocol, source)
    if scores in BASELINES:
        ranking, layout = scores, None
    else:
        similarity, layout = read_protocol_scores(scores, protocol_flags["orientation"], protocol)
        ranking = dense_score_blocks(similarity.T)  # videos x texts, the relevance's shape
    described = {"name": name, "scores": layout,
                 "matching": match_counts(protocol) if name == "1k-A" else None}
    return ScoredGallery(len(protocol.video_ids), len(protocol.queries), len(folders),
                         read_protocol_relevance(protocol, relevance_dir, folders), ranking,
                         np.array(protocol.own_columns(), dtype=np.int64), described)


def refuse_unmatched_sentences(protocol, captions: str) -> None:
    """A 1k-A sentence that is none of its video's captions has no row in the relevance: one line naming it."""
    unmatched = [row for row, query in enumerate(protocol.queries) if not query.sen_ids]
    if unmatched:
        query = protocol.queries[unmatched[0]]
        raise NdcgInputError(f"--captions {captions}: sentence {unmatched[0]} of {protocol.name} ({query.text!r}, "
                             f"{query.video_id}) is none of its video's captions there, so the relevance has no row "
                             f"for it ({len(unmatched):,} such sentences); give the captions the relevance was built "
                             "from")


def is_matrix_file(path: str) -> bool:
    """A similarity matrix without ids (a .npy, or a .npz without sen_ids and video_ids): only a protocol says
    which caption and video its rows and columns are. A missing .npz is left to the reader to report."""
    from pipelines.evaluation.evaluate.scores import has_id_arrays

    file = Path(path)
    suffix = file.suffix.lower()
    return suffix == ".npy" or (suffix == ".npz" and file.is_file() and not has_id_arrays(file))
