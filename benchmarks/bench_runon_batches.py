"""`make bench`, step IV: the boundary model on the same MSR-VTT captions alone (as step IV ran them
before), in batches of one video's captions, and in batches of the captions of many videos (as it runs
them now), in one run: CPU seconds per 1,000 captions, their ratio, and whether every figure is equal.

The captions are those step IV scores with the default profile (the pre-filter lets them through),
of the first --videos videos of the train and validate splits, raw (uncleaned: the model's cost is the
same). CPU time of this process (time.process_time), one thread, so that other work on the machine
hardly moves the figures. Every caption's probabilities must be the same bit for bit in all three
ways (transforms/runon/per_row_quantization.py); the script exits 1 if one differs.

It also runs step IV's rule as the default profile runs it (the pieces of a split caption and the
merged caption scored again) on the same videos, every text through the model as before, and with
a text scored once per process as now (BoundaryModel.word_probabilities): the same sentences, and
the ratio. These are raw captions, some of them repeats within a video that step III removes; in the default
run of the whole MSR-VTT 409 of the 40,477 texts step IV scores repeat (1%), so there the gain is
about 1%.

What it printed on the 2-core machine (AVX-512 VNNI), under load from other work (load 7):

    step IV's boundary model: 4852 captions of 1024 videos (the default pre-filter's)
      alone (shipped graph, before):         4.47 CPU s per 1,000 captions
      batched within each video:             3.82 CPU s per 1,000 captions  (1.17x faster than alone)
      batched across 256 videos (now):        2.42 CPU s per 1,000 captions  (1.85x faster than alone)
      step IV's rule (default profile, pieces and merged captions scored again), 256 videos at a time:
        every text through the model (before):   13.77 CPU s
        a text scored once per process (now):    12.63 CPU s  (1.09x faster; same sentences: yes)
      captions whose probabilities differ from alone: 0 of 4852
"""
import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.measure import measure_in_process  # noqa: E402
from pipelines.config import load_config  # noqa: E402
from pipelines.evaluation.caption_input import read_caption_rows  # noqa: E402
from transforms.runon.boundary_model import MODEL_DIR, BoundaryModel, word_probabilities_of  # noqa: E402
from transforms.runon.prefilter import caption_scoring  # noqa: E402
from transforms.runon.step import VIDEOS_SCORED_TOGETHER, find_for_policy, model_sentence_finder  # noqa: E402


def scored_captions_by_video(input_path: str, videos: int) -> list:
    """The captions step IV's model scores, per video, for the first `videos` videos of its splits."""
    settings = load_config("default").runon
    scoring = caption_scoring(settings)
    by_video = {}
    for _, video_id, split, text in sorted(read_caption_rows(input_path), key=lambda row: row[:2]):
        if split in settings.splits and scoring(text) is not None:
            by_video.setdefault(video_id, []).append(text)
    return [by_video[video_id] for video_id in sorted(by_video)[:videos]]


def alone_with_the_shipped_graph(model, texts: list) -> list:
    """Each text through model.onnx as shipped (one quantization scale per tensor), one at a time."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    session = onnxruntime.InferenceSession(str(MODEL_DIR / "model.onnx"), options, providers=["CPUExecutionProvider"])

    def run():
        found = []
        for text in texts:
            encoding = model._tokenizer.encode(text.split(), is_pretokenized=True)
            ids = np.array([encoding.ids], dtype=np.int64)
            scores = session.run(None, {"input_ids": ids, "attention_mask": np.ones_like(ids)})[0][0]
            found.append(word_probabilities_of(len(text.split()), encoding.word_ids, scores))
        return found

    return cpu_seconds(run)


class EveryTextThroughTheModel:
    """The boundary model as step IV used it before it kept the texts it had scored: every text run again."""

    def __init__(self, model):
        self.word_probabilities = model.run_model


def step_iv_sentences(model, groups: list) -> list:
    """The sentences step IV's default rule and policy find in each group of videos' captions, with `model`."""
    settings = load_config("default").runon
    find = model_sentence_finder(model, settings)
    return [find_for_policy([text for video in group for text in video], find, settings.policy.for_split("train"))
            for group in groups]


def cpu_seconds(work) -> tuple:
    """(CPU seconds of this process while `work()` ran, what it returned)."""
    result, figures = measure_in_process(work)
    return figures["cpu_seconds"], result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", required=True, help="raw MSR-VTT")
    parser.add_argument("--videos", type=int, default=1024, help="videos whose captions are scored (default: %(default)s)")
    args = parser.parse_args()
    videos = scored_captions_by_video(args.input, args.videos)
    texts = [text for video in videos for text in video]
    model = BoundaryModel(MODEL_DIR)
    model.run_model(texts[:64])  # the first run of a session allocates its buffers: not timed

    alone_seconds, alone = alone_with_the_shipped_graph(model, texts)
    per_video_seconds, per_video = cpu_seconds(
        lambda: [found for video in videos for found in model.run_model(video)])
    groups = [videos[start:start + VIDEOS_SCORED_TOGETHER] for start in range(0, len(videos), VIDEOS_SCORED_TOGETHER)]
    together_seconds, together = cpu_seconds(
        lambda: [found for group in groups for found in model.run_model([text for video in group for text in video])])
    rescoring_seconds, rescoring = cpu_seconds(lambda: step_iv_sentences(EveryTextThroughTheModel(model), groups))
    once_seconds, once = cpu_seconds(lambda: step_iv_sentences(model, groups))

    per_thousand = 1000 / len(texts)
    print(f"step IV's boundary model: {len(texts)} captions of {len(videos)} videos (the default pre-filter's)")
    print(f"  alone (shipped graph, before):       {alone_seconds * per_thousand:6.2f} CPU s per 1,000 captions")
    print(f"  batched within each video:           {per_video_seconds * per_thousand:6.2f} CPU s per 1,000 captions"
          f"  ({alone_seconds / per_video_seconds:.2f}x faster than alone)")
    print(f"  batched across {VIDEOS_SCORED_TOGETHER} videos (now):      {together_seconds * per_thousand:6.2f} CPU s per "
          f"1,000 captions  ({alone_seconds / together_seconds:.2f}x faster than alone)")
    print(f"  step IV's rule (default profile, pieces and merged captions scored again), {VIDEOS_SCORED_TOGETHER} "
          "videos at a time:")
    print(f"    every text through the model (before):  {rescoring_seconds:6.2f} CPU s")
    print(f"    a text scored once per process (now):   {once_seconds:6.2f} CPU s  "
          f"({rescoring_seconds / once_seconds:.2f}x faster; same sentences: {'yes' if once == rescoring else 'NO'})")
    differing = sum(a != b or a != c for a, b, c in zip(alone, per_video, together))
    print(f"  captions whose probabilities differ from alone: {differing} of {len(texts)}")
    return 1 if differing or once != rescoring else 0


if __name__ == "__main__":
    sys.exit(main())
