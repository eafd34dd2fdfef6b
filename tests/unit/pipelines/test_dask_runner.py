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


def test_a_global_combines_fold_keys_each_value_itself_and_decodes_it():
    """CombineGlobally's KeyWithVoid is left to the fold (VoidKeyed): values, coded or not, folded under None."""
    import dask
    import dask.bag as db
    from apache_beam.internal import pickler
    from apache_beam.transforms.combiners import MeanCombineFn

    from pipelines.runtime.dask_runner import PackingCoder, VoidKeyed, coded, combine_per_key_bag, partial_combine

    fn_bytes = pickler.dumps(MeanCombineFn())
    assert partial_combine([coded(2, PackingCoder()), 4], fn_bytes, True) == [(None, (6, 2))]
    values = VoidKeyed(db.from_sequence([1, 2, 3, coded(6, PackingCoder())], npartitions=2))
    with dask.config.set(scheduler="sync"):
        assert combine_per_key_bag(values, MeanCombineFn(), 1).compute() == [(None, 3.0)]
        assert values.as_bag().compute()[-1] == (None, 6)


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


class UppercaseFn(beam.DoFn):
    """A video's id upper-cased on the main output, and its caption count on the tagged output "count"."""

    def process(self, video):
        from dataclasses import replace
        yield replace(video, video_id=video.video_id.upper())
        yield beam.pvalue.TaggedOutput("count", len(video.captions))


class FirstCaptionFn(beam.DoFn):
    """A video with its first caption only on the main output, and its caption count on "count"."""

    def process(self, video):
        from dataclasses import replace
        first = replace(video, captions=video.captions[:1])
        yield first
        yield beam.pvalue.TaggedOutput("count", len(first.captions))


def test_a_stages_outputs_are_held_coded_where_the_pipeline_registered_a_coder():
    """Two ParDos in one stage: the first's videos go straight to the second (not held), the second's leave the
    task as their coder's bytes; each ParDo's tagged output is held apart, by its position in the stage, and a
    count (Beam's own coder) stays as it is."""
    from apache_beam import typehints
    from apache_beam.internal import pickler

    from pipelines.cleaning.batch_coder import VideoBatchCoder
    from pipelines.runtime.dask_runner import Coded, StageParDo, Tagged, decoded, registered_coder, run_stage
    from transforms.batch import Caption, VideoBatch

    assert isinstance(registered_coder(VideoBatch), VideoBatchCoder) and registered_coder(int) is None
    assert registered_coder(typehints.List[VideoBatch]) is not None and registered_coder(typehints.List[int]) is None
    video = VideoBatch("video7", "train", 12, [Caption(1, "a man sings"), Caption(2, "a man is singing")])
    coder = VideoBatchCoder()
    first = StageParDo(pickler.dumps(UppercaseFn()), "Upper", None, {"count": None}, [], {}, [])
    second = StageParDo(pickler.dumps(FirstCaptionFn()), "First", None, {None: coder, "count": None}, [], {}, [])
    held = run_stage([Coded(coder, coder.encode(video))], [first, second], "run")
    # The second ParDo ran on the video as the first emitted it, before the first emitted its count.
    assert held[1:] == [Tagged((1, "count"), 1), Tagged((0, "count"), 2)] and isinstance(held[0], Coded)
    assert decoded(held[0]).video_id == "VIDEO7" and decoded(held[0]).captions == video.captions[:1]


def test_a_group_by_keys_values_cross_the_shuffle_coded_and_come_out_grouped():
    import dask
    import dask.bag as db

    from pipelines.runtime.dask_runner import Coded, CodedGroup, PackingCoder, decoded, group_by_key_bag, value_coded

    assert isinstance(value_coded(("a", [1, 2]), PackingCoder())[1], Coded)
    pairs = [("a", 1), ("b", 2), ("a", 3), ("c", 4), ("b", 5)]
    for input_partitions in (1, 3):
        grouped = group_by_key_bag(db.from_sequence(pairs, npartitions=input_partitions), int, npartitions=2)
        assert grouped.npartitions == 2
        with dask.config.set(scheduler="sync"):
            held = grouped.compute()
        # Each group leaves the shuffle with its values still coded, to be decoded by the task that reads it.
        assert all(isinstance(group, CodedGroup) and all(isinstance(value, Coded) for value in group.values)
                   for group in held)
        groups = dict(decoded(group) for group in held)
        assert {key: sorted(values) for key, values in groups.items()} == {"a": [1, 3], "b": [2, 5], "c": [4]}


def test_dask_counts_a_held_element_by_its_coded_bytes():
    """A worker's memory figures (and its spilling to disk) see what a held partition weighs."""
    from dask.sizeof import sizeof

    from pipelines.runtime.dask_runner import Coded, CodedGroup, PackingCoder

    element = Coded(PackingCoder(), bytes(5000))
    assert 5000 < sizeof(element) < 5200
    assert 50 * 5000 < sizeof([element] * 50) < 50 * 5300
    assert 3 * 5000 < sizeof(CodedGroup("video7", [element] * 3)) < 3 * 5300


def test_a_combines_first_folds_run_before_other_ready_tasks():
    """The partial folds carry dask's priority annotation, so a step's output is not held until the end."""
    import dask.bag as db
    from apache_beam.transforms.combiners import CountCombineFn

    from pipelines.runtime.dask_runner import FOLD_FIRST, combine_per_key_bag

    combined = combine_per_key_bag(db.from_sequence([("a", 1)] * 4, npartitions=2), CountCombineFn(), 1)
    layers = combined.__dask_graph__().layers
    folds = [name for name in layers if name.startswith("partial_combine")]
    assert folds and all(layers[name].annotations == {"priority": FOLD_FIRST} for name in folds)
    others = [name for name in layers if not name.startswith("partial_combine")]
    assert all(not layers[name].annotations for name in others)


def test_a_create_puts_each_element_in_a_partition_of_its_own_unless_told_otherwise():
    """Each annotation file read in its own task (Beam's translation put 128 files in one partition)."""
    from apache_beam.runners.dask.overrides import _Create
    from apache_beam.pipeline import AppliedPTransform

    from pipelines.runtime.dask_runner import CREATE_PARTITIONS_AT_MOST, create_bag

    def applied(values):
        return AppliedPTransform(None, _Create(values), "Create", {}, None, {})

    assert create_bag(applied(list(range(40))), {}).npartitions == 40
    assert create_bag(applied([]), {}).compute() == []
    assert create_bag(applied(list(range(40))), {"npartitions": 4}).npartitions == 4
    many = create_bag(applied(list(range(CREATE_PARTITIONS_AT_MOST + 1))), {})
    assert many.npartitions < CREATE_PARTITIONS_AT_MOST and sorted(many.compute()) == list(range(CREATE_PARTITIONS_AT_MOST + 1))


class TranslatingRunner(beam.runners.PipelineRunner):
    """Translates the pipeline as the DaskRunner does (after Beam's own preparation in `run`) and keeps the
    translation, without a cluster."""

    def is_fnapi_compatible(self):  # as the DaskRunner: Beam then hands over the pipeline as its proto rebuilds it
        return False

    def run_pipeline(self, pipeline, options):
        from pipelines.runtime.dask_runner import translate

        self.translation = translate(pipeline, {}, 1)


def test_a_stage_takes_a_pardo_that_alone_reads_its_output_and_never_one_that_waits_for_it():
    """Double and AddOne run as one stage; AddOne's output is read twice, so Shift starts a stage of its own.
    Split's tagged output feeds the side input of Tally, which reads Split's main output: Tally in Split's
    stage would wait for itself, so it runs apart, and the graph computes."""
    import dask

    def split(n):
        yield n
        yield beam.pvalue.TaggedOutput("tens", n * 10)

    runner = TranslatingRunner()
    pipeline = beam.Pipeline(runner=runner)
    numbers = pipeline | beam.Create([1, 2, 3])
    added = numbers | "Double" >> beam.Map(lambda n: 2 * n) | "AddOne" >> beam.Map(lambda n: n + 1)  # 3, 5, 7
    total = added | "Total" >> beam.CombineGlobally(sum)  # 15
    _ = added | "Shift" >> beam.Map(lambda n, t: n - t, beam.pvalue.AsSingleton(total))
    parts = numbers | "Split" >> beam.FlatMap(split).with_outputs("tens", main="ones")
    tens = parts.tens | "Tens" >> beam.CombineGlobally(sum)  # 60
    _ = parts.ones | "Tally" >> beam.Map(lambda n, t: n + t, beam.pvalue.AsSingleton(tens))
    pipeline.run()
    translation = runner.translation
    assert ["Double", "AddOne"] in translation.stages and ["Shift"] in translation.stages
    assert ["Split/FlatMap(split)"] in translation.stages and ["Tally"] in translation.stages
    shifted, tallied = (bag for node, bag in translation.bags.items() if node.full_label in ("Shift", "Tally"))
    with dask.config.set(scheduler="sync"):
        assert sorted(shifted.compute()) == [-12, -10, -8] and sorted(tallied.compute()) == [61, 62, 63]


class RecordsSetUpFn(beam.DoFn):
    """Passes numbers on; records its setup and teardown by name in `events` (shared by its copies)."""
    events = []

    def __init__(self, name):
        self.name = name

    def setup(self):
        RecordsSetUpFn.events.append(f"setup {self.name}")

    def teardown(self):
        RecordsSetUpFn.events.append(f"teardown {self.name}")

    def process(self, n):
        yield n


def test_a_workers_dofns_are_set_up_once_per_stage_and_torn_down_once_later_stages_ran():
    """A stage's DoFns serve each of its bundles; once STAGES_KEPT other stages ran they are torn down
    (a recheck round's speller does not stay to the end), and a new run starts afresh."""
    from apache_beam.internal import pickler

    from pipelines.runtime.dask_runner import STAGES_KEPT, StageParDo, run_stage

    def stage(name):
        return [StageParDo(pickler.dumps(RecordsSetUpFn(name)), name, None, {None: None}, [], {}, [])]

    assert STAGES_KEPT == 2
    events = RecordsSetUpFn.events
    events.clear()
    for name in ("a", "a", "b", "a", "c"):  # "a" again before "c": "b" is the older then
        assert run_stage([1, 2], stage(name), "run1") == [1, 2]
    assert events == ["setup a", "setup b", "setup c", "teardown b"]
    run_stage([3], stage("b"), "run1")
    assert events[4:] == ["setup b", "teardown a"]
    run_stage([3], stage("c"), "run2")
    assert events[6:] == ["teardown c", "teardown b", "setup c"]
