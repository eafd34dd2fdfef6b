"""`capclean baseline`: the text-only baseline's (texts x videos) similarity matrix on a protocol, written as
the `.npy` a retrieval model writes, for `capclean evaluate --scores` (docs/commands/baseline.md). The
protocol is read as evaluate reads it (pipelines/evaluation/evaluate/protocol_files.py); the method is
transforms/evaluation/text_baseline.py."""
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from pipelines.commands.arguments import RUN_OR_RAW_HELP, add_protocol_arguments
from pipelines.commands.command import FILES, Command
from transforms.errors import CapcleanError

log = logging.getLogger("capclean")


class BaselineError(CapcleanError):
    """A target or an input the baseline cannot use; the message says which."""


@dataclass(frozen=True)
class BaselineArgs:
    protocol: str
    input: str
    output: str
    videos: str | None = None
    sen_ids: str | None = None


class Baseline(Command):
    name = "baseline"
    help = ("the text-only baseline: each video represented by its other captions, each text scored by tf-idf "
            "cosine, written as a model's (texts x videos) .npy in a protocol's order, for capclean evaluate")
    Args = BaselineArgs
    writes = FILES
    example = ("--protocol", "full-test", "--input", "{raw}", "--output", "{out}/baseline.npy")

    def add_arguments(self, parser):
        add_protocol_arguments(parser, required=True, orientation=False)
        parser.add_argument("--input", required=True, metavar="RUN_OR_RAW", help=RUN_OR_RAW_HELP + ": the "
                            "captions that represent the videos (and, for full-test and custom, the texts)")
        parser.add_argument("--output", required=True, metavar="FILE", help="the .npy file to write, texts x "
                            "videos, float32: a new file (capclean cannot tell its own .npy from a model's, so it "
                            "never replaces one)")

    def run(self, args: BaselineArgs) -> int:
        from pipelines.evaluation.evaluate.protocol_files import read_protocol

        target = check_npy_target(args.output)
        protocol = read_protocol(args.protocol, args.input, args.videos, args.sen_ids)
        texts, video_captions, idf_documents = baseline_inputs(protocol, args.input)
        texts = with_edited_captions(texts, protocol, args.input, video_captions)
        unmatched = sum(not text.exclude for text in texts)
        if unmatched:
            log.warning("warning: %d of the %d sentences match no caption of %s, nor an earlier text of one it kept: "
                        "nothing is left out for them (the cleaning removed their captions, or they are not there)",
                        unmatched, len(texts), args.input)
        write_baseline(target, texts, video_captions, idf_documents)
        print(f"capclean baseline: {len(texts):,} texts x {len(video_captions):,} videos of {protocol.name} "
              f"(idf from {len(idf_documents):,} videos outside it) written to {target}, texts x videos; score it "
              f"with capclean evaluate --protocol {protocol.name} --scores {target} --orientation texts-x-videos")
        return 0


def check_npy_target(path: str) -> Path:
    """--output: a new .npy file, its folder made if needed."""
    target = Path(path)
    if target.suffix.lower() != ".npy":
        raise BaselineError(f"--output {path}: name a .npy file (the matrix a model writes)")
    if target.is_dir() or target.exists():
        raise BaselineError(f"--output {path} exists; name a new file (capclean never replaces a .npy: it cannot "
                            "tell its own from a model's)")
    return target


def baseline_inputs(protocol, input_path: str) -> tuple:
    """(BaselineTexts, per column the video's (sen_id, caption), the documents of the videos outside the
    protocol) from the captions of --input."""
    from pipelines.evaluation.caption_input import read_caption_rows
    from transforms.evaluation.text_baseline import BaselineText

    column_of = {video: column for column, video in enumerate(protocol.video_ids)}
    video_captions = [[] for _ in protocol.video_ids]
    outside = {}
    for sen_id, video_id, _, caption in sorted(read_caption_rows(input_path)):
        if video_id in column_of:
            video_captions[column_of[video_id]].append((sen_id, caption))
        else:
            outside.setdefault(video_id, []).append(caption)
    texts = [BaselineText(query.text, column_of[query.video_id], tuple(query.sen_ids)) for query in protocol.queries]
    return texts, video_captions, [" \n".join(captions) for _, captions in sorted(outside.items())]


def with_edited_captions(texts: list, protocol, input_path: str, video_captions: list) -> list:
    """1k-A against a capclean output: a sentence that matches none of its video's captions as cleaned may be
    one the cleaning edited; its edits/ rows hold the caption's earlier texts, and a sentence matching one of
    them is that caption, left out of its own video as on raw data. (A caption the cleaning removed, edited
    first or not, is in no document: nothing to leave out.)"""
    unmatched = [row for row, text in enumerate(texts) if not text.exclude]
    edits = Path(input_path) / "edits"
    if not unmatched or not edits.is_dir():
        return texts
    import pyarrow.parquet as pq

    from transforms.evaluation.protocols import match_sentence
    from transforms.evaluation.text_baseline import BaselineText

    wanted = {protocol.queries[row].video_id for row in unmatched}
    earlier = {}
    for row in pq.read_table(edits, columns=["sen_id", "video_id", "before"]).to_pylist():
        if row["video_id"] in wanted:
            earlier.setdefault(row["video_id"], []).append((row["sen_id"], row["before"]))
    texts = list(texts)
    for row in unmatched:
        sen_ids, _ = match_sentence(texts[row].text, earlier.get(protocol.queries[row].video_id, []))
        kept = {sen_id for sen_id, _ in video_captions[texts[row].own_column]}
        texts[row] = BaselineText(texts[row].text, texts[row].own_column, tuple(sorted(set(sen_ids) & kept)))
    found = sum(bool(texts[row].exclude) for row in unmatched)
    log.info("baseline: %d of the %d sentences that match no caption of %s match an earlier text of a caption "
             "it kept (edits/): those captions are left out too", found, len(unmatched), input_path)
    return texts


def write_baseline(target: Path, texts: list, video_captions: list, idf_documents: list) -> None:
    """The matrix into a .npy beside the target, a block of rows at a time, then renamed onto it: an
    interrupted run leaves no half file under the target's name."""
    import numpy as np

    from transforms.evaluation.text_baseline import baseline_scores

    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.partial")
    matrix = np.lib.format.open_memmap(partial, mode="w+", dtype=np.float32,
                                       shape=(len(texts), len(video_captions)))
    try:
        baseline_scores(texts, video_captions, idf_documents, out=matrix, progress=report_progress)
        matrix.flush()
        del matrix
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


def report_progress(done: int, total: int) -> None:
    log.info("baseline: %s of %s texts scored", f"{done:,}", f"{total:,}")
