"""`capclean baseline`: the text-only baseline's (texts x videos) similarity matrix on a protocol, written as
the `.npy` a retrieval model writes, for `capclean evaluate --scores`; with --negatives, also its scores of the
hard negatives, the (rows, 1 + K) `.npy` for `capclean evaluate --negatives-scores` (docs/commands/baseline.md).
The protocol is read as evaluate reads it (pipelines/evaluation/protocol_files.py, which matches 1k-A's sentences
to their captions), the negatives' texts in the order evaluate writes them (evaluate/posrank_figures.py's
negatives_texts); the method is transforms/evaluation/text_baseline.py."""
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
    negatives: str | None = None
    negatives_output: str | None = None


class Baseline(Command):
    name = "baseline"
    help = ("the text-only baseline: each video represented by its other captions, each text scored by tf-idf "
            "cosine, written as a model's (texts x videos) .npy in a protocol's order, for capclean evaluate")
    Args = BaselineArgs
    writes = FILES
    example = ("--protocol", "full-test", "--input", "{raw}", "--output", "{out}/baseline.npy", "--negatives",
               "{hardneg}", "--negatives-output", "{out}/negatives.npy")

    def add_arguments(self, parser):
        add_protocol_arguments(parser, required=True, orientation=False)
        parser.add_argument("--input", required=True, metavar="RUN_OR_RAW", help=RUN_OR_RAW_HELP + ": the "
                            "captions that represent the videos (and, for full-test and custom, the texts)")
        parser.add_argument("--output", required=True, metavar="FILE", help="the .npy file to write, texts x "
                            "videos, float32: a new file (capclean cannot tell its own .npy from a model's, so it "
                            "never replaces one)")
        parser.add_argument("--negatives", metavar="DIR", help="a capclean hardneg output of the protocol's videos: "
                            "also score each caption and its hard negatives against the caption's own video "
                            "(needs --negatives-output)")
        parser.add_argument("--negatives-output", metavar="FILE", help="the .npy file of those scores, (rows, 1 + K) "
                            "float32 in the order capclean evaluate --write-texts --negatives writes, NaN after a "
                            "row's last negative, for evaluate --negatives-scores: a new file")

    def run(self, args: BaselineArgs) -> int:
        from pipelines.evaluation.protocol_files import read_protocol

        target = check_npy_target(args.output, "--output")
        negatives_target = check_negatives_target(args.negatives, args.negatives_output, target)
        protocol = read_protocol(args.protocol, args.input, args.videos, args.sen_ids)
        texts, video_captions, idf_documents = baseline_inputs(protocol, args.input)
        unmatched = sum(not text.exclude for text in texts)
        if unmatched:
            log.warning("warning: %d of the %d sentences match no caption of %s, nor an earlier text of one it kept: "
                        "nothing is left out for them (the cleaning removed their captions, or they are not there)",
                        unmatched, len(texts), args.input)
        # The negatives are read (and a video outside the protocol refused) before the long matrix is written.
        negative_rows = negatives_rows(args.negatives, protocol, video_captions, args.input) if args.negatives else None
        write_baseline(target, texts, video_captions, idf_documents)
        print(f"capclean baseline: {len(texts):,} texts x {len(video_captions):,} videos of {protocol.name} "
              f"(idf from {len(idf_documents):,} videos outside it) written to {target}, texts x videos; score it "
              f"with capclean evaluate --protocol {protocol.name} --scores {target} --orientation texts-x-videos")
        if negative_rows is not None:
            write_negatives_scores(negatives_target, negative_rows, video_captions, idf_documents)
            print(f"capclean baseline: {len(negative_rows):,} rows of hard negatives (a caption, part and level each), "
                  f"scored against the caption's own video, written to {negatives_target}; PoSRank with capclean "
                  f"evaluate --negatives {args.negatives} --negatives-scores {negatives_target}")
        return 0


def check_npy_target(path: str, flag: str) -> Path:
    """`flag`'s target: a new .npy file, its folder made if needed."""
    target = Path(path)
    if target.suffix.lower() != ".npy":
        raise BaselineError(f"{flag} {path}: name a .npy file (the matrix a model writes)")
    if target.is_dir() or target.exists():
        raise BaselineError(f"{flag} {path} exists; name a new file (capclean never replaces a .npy: it cannot "
                            "tell its own from a model's)")
    return target


def check_negatives_target(negatives: str | None, negatives_output: str | None, matrix_target: Path) -> Path | None:
    """--negatives and --negatives-output go together; the second a new .npy other than --output."""
    if bool(negatives) != bool(negatives_output):
        raise BaselineError("--negatives and --negatives-output go together: the hardneg output to score, and the "
                            ".npy to write its scores to")
    if not negatives:
        return None
    if not Path(negatives).exists():
        raise BaselineError(f"--negatives {negatives} does not exist")
    target = check_npy_target(negatives_output, "--negatives-output")
    if target.resolve() == matrix_target.resolve():
        raise BaselineError(f"--negatives-output {negatives_output} is --output too; name another file")
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


def negatives_rows(negatives: str, protocol, video_captions: list, input_path: str) -> list:
    """(texts, own column, captions left out) of every row of the negatives' matrix, in the order evaluate's
    --write-texts --negatives writes them: the row's caption, then its negatives. The caption the row is is
    left out of its video's document, as the matrix leaves out a text's own caption; one --input does not hold
    (another cleaning's, or removed) leaves nothing out, and is counted."""
    from pipelines.evaluation.evaluate.posrank_figures import negatives_texts

    column_of = {video: column for column, video in enumerate(protocol.video_ids)}
    held = {(column, sen_id) for column, captions in enumerate(video_captions) for sen_id, _ in captions}
    rows = []
    for row in negatives_texts(negatives, protocol)["rows"]:
        column = column_of[row["video_id"]]
        rows.append((tuple(row["texts"]), column, (row["sen_id"],) if (column, row["sen_id"]) in held else ()))
    missing = sum(not exclude for _, _, exclude in rows)
    if missing:
        log.warning("warning: %d of the %d rows of --negatives %s are of a caption %s does not hold: nothing is left "
                    "out of their video for them", missing, len(rows), negatives, input_path)
    return rows


def write_negatives_scores(target: Path, rows: list, video_captions: list, idf_documents: list) -> None:
    """The (rows, 1 + K) matrix, written beside the target and renamed onto it (no half file under its name)."""
    import numpy as np

    from transforms.evaluation.text_baseline import negatives_scores

    matrix = negatives_scores(rows, video_captions, idf_documents)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.partial")
    try:
        with open(partial, "wb") as handle:
            np.save(handle, matrix)
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


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
