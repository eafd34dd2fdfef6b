"""The same pipeline on three runners gives the same bytes; the DaskRunner's mended translation on small pipelines."""
import hashlib
import json
import zipfile

import apache_beam as beam
import pytest

from pipelines.cli import join_flag_values, main
from pipelines.run import make_pipeline, run_and_wait, runner_resources

MULTI_PROCESS = ["--direct_num_workers=2", "--direct_running_mode=multi_processing"]
DASK = ["--runner", "DaskRunner", "--dask_local_workers=2"]  # the flag value as its own word, as typed


def output_digest(output):
    """sha256 of every Parquet file and of stats.json, by path."""
    paths = sorted(output.rglob("*.parquet")) + [output / "stats.json"]
    return {str(path.relative_to(output)): hashlib.sha256(path.read_bytes()).hexdigest() for path in paths}


@pytest.fixture(scope="module")
def msrvtt_mixed_sample(msrvtt_dir, tmp_path_factory):
    """300 videos of all three splits in two MSR-VTT-format files (in a temporary folder only)."""
    folder = tmp_path_factory.mktemp("mixed-sample")
    with zipfile.ZipFile(msrvtt_dir / "train_val_annotation.zip") as archive:
        train_val = json.load(archive.open("train_val_videodatainfo.json"))
    with zipfile.ZipFile(msrvtt_dir / "test_videodatainfo.json.zip") as archive:
        test = json.load(archive.open("test_videodatainfo.json"))
    train_val_videos = [v for v in train_val["videos"] if v["split"] == "train"][:150] + \
        [v for v in train_val["videos"] if v["split"] == "validate"][:50]
    for name, document, videos in (("train_val", train_val, train_val_videos), ("test", test, test["videos"][:100])):
        ids = {video["video_id"] for video in videos}
        sentences = [s for s in document["sentences"] if s["video_id"] in ids]
        (folder / f"{name}_videodatainfo.json").write_text(
            json.dumps({"info": {}, "videos": videos, "sentences": sentences}))
    return folder


@pytest.mark.integration
def test_in_process_multi_process_and_dask_write_the_same_bytes(msrvtt_mixed_sample, tmp_path):
    outputs = {}
    for name, beam_args in (("in_process", []), ("multi_process", MULTI_PROCESS), ("dask", DASK)):
        outputs[name] = tmp_path / name
        assert main(["clean", "--input", str(msrvtt_mixed_sample), "--output", str(outputs[name])] + beam_args) == 0
    reference = output_digest(outputs["in_process"])
    assert {"captions/part-00000.parquet", "removed/part-00000.parquet", "edits/part-00000.parquet",
            "corrections/part-00000.parquet", "stats.json"} <= set(reference)
    stats = json.loads((outputs["in_process"] / "stats.json").read_text())
    assert set(stats["output"]["captions_by_split"]) == {"train", "validate", "test"}
    assert stats["steps"]["runon"]["captions_changed"] > 0 and stats["steps"]["dedup"]["captions_removed"] > 0
    assert output_digest(outputs["multi_process"]) == reference
    assert output_digest(outputs["dask"]) == reference


def test_a_flag_value_may_follow_as_the_next_word():
    assert join_flag_values(["--runner", "DaskRunner", "--dask_local_workers=2", "--save_main_session"]) == \
        ["--runner=DaskRunner", "--dask_local_workers=2", "--save_main_session"]


def test_dask_runner_side_inputs_of_side_inputs_finish_bundle_and_two_sinks(tmp_path):
    """What Beam 2.77's DaskRunner gets wrong: a side input computed from a side input, the output
    of finish_bundle, and a pipeline with two sinks (it computed only the last one).

    The helpers are defined in here so that they travel to the dask workers by value.
    """
    from apache_beam.transforms.window import GlobalWindow
    from apache_beam.utils.windowed_value import WindowedValue

    class EmitsAtFinishBundleFn(beam.DoFn):
        """Emits the sum of its bundle from finish_bundle, as a batching writer would."""

        def start_bundle(self):
            self._total = 0

        def process(self, value):
            self._total += value

        def finish_bundle(self):
            yield WindowedValue(self._total, 0, [GlobalWindow()])

    def write_line(value, path):
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(f"{value}\n")

    with runner_resources(["--runner=DaskRunner", "--dask_local_workers=2"]) as runner_args:
        pipeline = make_pipeline(runner_args)
        numbers = pipeline | beam.Create(list(range(1, 11)))
        total = numbers | "Total" >> beam.CombineGlobally(sum)  # 55
        shifted = numbers | "Shift" >> beam.Map(lambda n, t: n + t, beam.pvalue.AsSingleton(total))
        shifted_total = shifted | "ShiftedTotal" >> beam.CombineGlobally(sum)  # 55 + 10 * 55 = 605
        _ = numbers | "FirstSink" >> beam.Map(write_line, str(tmp_path / "first.txt"))
        _ = (numbers
             | "SumPerBundle" >> beam.ParDo(EmitsAtFinishBundleFn())
             | "AddBundles" >> beam.CombineGlobally(sum)
             | "SecondSink" >> beam.Map(lambda bundles, shifted: write_line(f"{bundles} {shifted}",
                                                                            str(tmp_path / "second.txt")),
                                        beam.pvalue.AsSingleton(shifted_total)))
        run_and_wait(pipeline)
    assert sorted(int(line) for line in (tmp_path / "first.txt").read_text().split()) == list(range(1, 11))
    assert (tmp_path / "second.txt").read_text() == "55 605\n"
