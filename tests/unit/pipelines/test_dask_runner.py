"""The DaskRunner's mended translation on small pipelines (the same bytes on three runners, MSR-VTT:
tests/integration/test_runners.py)."""
import apache_beam as beam

from pipelines.cli import join_flag_values
from pipelines.runtime.runner import make_pipeline, run_and_wait, runner_resources


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


def test_a_lifted_combine_folds_each_partition_then_merges_the_accumulators():
    """CombinePerKey on dask: one accumulator per key per partition (in the order keys first appear),
    then the accumulators of a key merged and extracted, as a plain combine of all values would give."""
    from apache_beam.internal import pickler
    from apache_beam.transforms.combiners import MeanCombineFn

    from pipelines.runtime.dask_runner import merge_combined, partial_combine

    fn_bytes = pickler.dumps(MeanCombineFn())
    first = partial_combine([("b", 1), ("a", 2), ("b", 3)], fn_bytes)
    second = partial_combine([("a", 4)], fn_bytes)
    assert first == [("b", (4, 2)), ("a", (2, 1))]  # (sum, count) accumulators
    assert second == [("a", (4, 1))]
    assert merge_combined(("a", [first[1], second[0]]), fn_bytes) == ("a", 3.0)
    assert merge_combined(("b", [first[0]]), fn_bytes) == ("b", 2.0)


def test_dask_runner_combines_per_key_and_globally_with_and_without_defaults(tmp_path):
    """The lifted combine on a local cluster: per key, globally over several partitions, and the
    default of a global combine of nothing."""
    def write_line(value, path):
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(f"{value}\n")

    with runner_resources(["--runner=DaskRunner", "--dask_local_workers=2", "--dask_npartitions=3"]) as runner_args:
        pipeline = make_pipeline(runner_args)
        numbers = pipeline | beam.Create(list(range(1, 11)))
        _ = (numbers | "ByParity" >> beam.Map(lambda n: (n % 2, n)) | beam.CombinePerKey(sum)
             | "PerKey" >> beam.Map(write_line, str(tmp_path / "per_key.txt")))
        _ = (numbers | "Total" >> beam.CombineGlobally(sum)
             | "Global" >> beam.Map(write_line, str(tmp_path / "global.txt")))
        nothing = numbers | "None" >> beam.Filter(lambda n: n > 100)
        _ = (nothing | "EmptyTotal" >> beam.CombineGlobally(sum)
             | "Empty" >> beam.Map(write_line, str(tmp_path / "empty.txt")))
        run_and_wait(pipeline)
    assert sorted((tmp_path / "per_key.txt").read_text().split("\n")[:-1]) == ["(0, 30)", "(1, 25)"]
    assert (tmp_path / "global.txt").read_text() == "55\n"
    assert (tmp_path / "empty.txt").read_text() == "0\n"


def test_dask_runner_hands_each_tagged_output_only_to_its_own_consumers(tmp_path):
    """A ParDo with a tagged output (as the spelling recheck's stages have): the main output's consumer
    sees only the main elements, and a combine and a side input reading the tagged output only those."""
    def split(n):
        yield n
        if n % 3 == 0:
            yield beam.pvalue.TaggedOutput("threes", n * 100)

    def write_line(value, path):
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(f"{value}\n")

    with runner_resources(["--runner=DaskRunner", "--dask_local_workers=2", "--dask_npartitions=3"]) as runner_args:
        pipeline = make_pipeline(runner_args)
        outputs = (pipeline | beam.Create(list(range(1, 10)))
                   | beam.FlatMap(split).with_outputs("threes", main="numbers"))
        _ = outputs.numbers | "Main" >> beam.Map(write_line, str(tmp_path / "main.txt"))
        total = outputs.threes | "Total" >> beam.CombineGlobally(sum)
        _ = total | "Global" >> beam.Map(write_line, str(tmp_path / "threes.txt"))
        _ = (pipeline | "One" >> beam.Create([0])
             | "Seen" >> beam.Map(lambda _, threes: sorted(threes), beam.pvalue.AsList(outputs.threes))
             | "Side" >> beam.Map(write_line, str(tmp_path / "side.txt")))
        run_and_wait(pipeline)
    assert sorted(int(n) for n in (tmp_path / "main.txt").read_text().split()) == list(range(1, 10))
    assert (tmp_path / "threes.txt").read_text() == "1800\n"  # 300 + 600 + 900: the tagged output alone
    assert (tmp_path / "side.txt").read_text() == "[300, 600, 900]\n"


def test_dask_runner_computes_what_a_side_input_and_a_main_input_share_once(tmp_path):
    """A step whose output is both read as a side input (its total) and passed on: each element goes
    through the step once (the side input's lineage was computed again beside the main input's)."""
    def counted(value, path):
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(f"{value}\n")
        return value

    def write_line(value, path):
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(f"{value}\n")

    with runner_resources(["--runner=DaskRunner", "--dask_local_workers=2"]) as runner_args:
        pipeline = make_pipeline(runner_args)
        stepped = (pipeline | beam.Create(list(range(1, 11)))
                   | "Step" >> beam.Map(counted, str(tmp_path / "step_calls.txt")))
        total = stepped | "Total" >> beam.CombineGlobally(sum)
        _ = (stepped | "Share" >> beam.Map(lambda n, t: f"{n}/{t}", beam.pvalue.AsSingleton(total))
             | "Sink" >> beam.Map(write_line, str(tmp_path / "shares.txt")))
        run_and_wait(pipeline)
    assert sorted(int(line) for line in (tmp_path / "step_calls.txt").read_text().split()) == list(range(1, 11))
    assert sorted((tmp_path / "shares.txt").read_text().split()) == sorted(f"{n}/55" for n in range(1, 11))
