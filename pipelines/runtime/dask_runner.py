"""Beam's DaskRunner (apache-beam 2.77) with the translation defects capclean's pipeline runs into mended.

Beam's runner turns each PTransform into a dask.bag operation. As released it
  1. computes a side input inside every task that reads it, by calling
     `compute()` on the side input's bag from within a worker: the whole
     upstream graph runs again per task, and a side input whose own lineage
     reads a side input (the spelling step's corpus statistics, the run-on
     word limit, the Finalize step) fails to serialise;
  2. computes only the last transform's bag, so a pipeline with several
     sinks runs only one of them;
  3. collects a bundle's outputs before `finish_bundle`, so what a DoFn
     emits there is lost, and runs `setup` for every bundle;
  4. keeps the single partition of a one-element `Create` all the way down,
     so everything after it runs on one worker;
  5. runs a combine (CombineGlobally, CombinePerKey) as a GroupByKey of every
     element followed by the combine of each group: every video was pickled,
     shuffled and combined in one worker process for each of the steps'
     corpus figures, holding a whole PCollection in one process;
  6. holds every element between tasks as a Python object, puts a Create's
     first 128 elements in one partition, and leaves to dask's ordering when
     a combine reads its input: at 10 times MSR-VTT one worker read all 40
     annotation files, and every step's output stayed in the workers as
     objects until the steps ended (a worker's peak grew 2.8 times from 1x).

This runner keeps Beam's translation of Flatten and the GroupByKey
expansion, and replaces the rest: a side input is one dask task that gathers
the side input's bag once and is handed, computed, to every task of the
ParDo that reads it; every sink is computed; a bundle's outputs are taken
after `finish_bundle`; a DoFn is set up once per worker process and stage, and
torn down once two other stages have run there since; a combine
is lifted as Beam's other runners lift it (each partition folded into one
accumulator per key where it lies, and only the accumulators grouped and
merged), and its folds run as soon as their partition is ready; a ParDo's tagged
outputs are separated (each output PCollection its own bag: as released, every
output went to every consumer). ParDos run in stages, as Beam's other runners
fuse them: a ParDo that alone reads another's main output runs in the same
task, element by element (`Stage`). A stage's output whose PCollection has a
coder the pipeline registered (capclean's videos) is held coded by it between
tasks, as Beam's other runners hold a stage's output (`Coded`), and a GroupByKey's
values cross the shuffle coded too, and stay coded in their groups until the
task that reads a group reaches it (`CodedGroup`); dask counts a held element
by its coded bytes. A GroupByKey gives --dask_npartitions partitions (default:
the number of workers: a partition's combine accumulators, about the corpus's
vocabulary each, are then few); a Create puts
each of its elements in a partition of its own (each annotation file read in a
task of its own). Metrics are still not reported (capclean's figures come from
the lineage tables).

A side input's partitions are taken from its bag's graph as it is: optimised
on its own first (dask's default for to_delayed), its tasks were fused under
new names, so the scheduler could not see they were the main input's too, and
the whole lineage of every side input was computed again (each video went
through every step three times: twice the FnApiRunner's CPU per caption).
"""
import collections
import hashlib
import itertools
import sys
import uuid
from functools import partial

import dask
import dask.bag as db
from dask.sizeof import sizeof
from apache_beam import DoFn, pvalue
from apache_beam.internal import pickler
from apache_beam.pipeline import PipelineVisitor
from apache_beam.runners.common import DoFnContext, DoFnInvoker, DoFnSignature, Receiver, _OutputHandler
from apache_beam.runners.dask import transform_evaluator as beam_dask
from apache_beam.runners.dask.dask_runner import DaskOptions, DaskRunner, DaskRunnerResult
from apache_beam.runners.dask.overrides import _Create, _GroupByKeyOnly, dask_overrides
from apache_beam.transforms.core import _KeyWithNone
from apache_beam.transforms.sideinputs import SideInputMap
import apache_beam
from apache_beam import coders, typehints

from pipelines.runtime.packing import pack, unpack

# The set-up DoFns of the stages this worker process ran last in the current run, by stage, the most recent
# last. A DoFn may keep what it built from side inputs (a recheck round's speller), so a stage's DoFns are
# torn down once STAGES_KEPT other stages have run since, and a worker that serves a new run starts afresh.
_SET_UP_STAGES = {"run": None, "stages": collections.OrderedDict()}
STAGES_KEPT = 2


def _stage_dofns(pardos, run_id: str) -> list:
    """The DoFns of a stage's ParDos, unpickled and set up once per process, run and stage (as Beam's other
    runners reuse them), kept while the worker runs the stage or one of the next STAGES_KEPT - 1."""
    stages = _SET_UP_STAGES["stages"]
    if _SET_UP_STAGES["run"] != run_id:
        _SET_UP_STAGES["run"] = run_id
        _tear_down(stages, keep=0)
    key = tuple(hashlib.sha256(pardo.fn_bytes).hexdigest() for pardo in pardos)
    if key not in stages:
        stages[key] = [pickler.loads(pardo.fn_bytes) for pardo in pardos]
        for fn in stages[key]:
            fn.setup()
    stages.move_to_end(key)
    _tear_down(stages, keep=STAGES_KEPT)
    return stages[key]


def _tear_down(stages: collections.OrderedDict, keep: int):
    """Tear down the DoFns of all but the `keep` most recent stages, and forget them."""
    while len(stages) > keep:
        _, dofns = stages.popitem(last=False)
        for fn in dofns:
            fn.teardown()


# The dask priority of a combine's first fold (combine_per_key_bag); dask runs a ready task of higher priority first.
FOLD_FIRST = 1
# A Create of at most this many elements gets a partition per element (module docstring, 6).
CREATE_PARTITIONS_AT_MOST = 1024


class Coded:
    """An element held between dask tasks as its coder's bytes. Between tasks dask keeps a partition's
    elements in a worker's memory, or pickles them to move them; a video's pickle alone is about three
    times its coded bytes (docs/benchmarks.md, "Videos packed")."""
    __slots__ = ("coder", "data")

    def __init__(self, coder, data: bytes):
        self.coder, self.data = coder, data

    def __reduce__(self):  # __slots__ without __getstate__: pickled by its two fields
        return Coded, (self.coder, self.data)


@sizeof.register(Coded)
def _sizeof_coded(element: Coded) -> int:
    """What dask counts a held element as (its worker's memory figures, and when it spills to disk): its
    bytes, which dask's fallback (the object's own size, some 50 bytes) leaves out."""
    return sys.getsizeof(element) + sys.getsizeof(element.data)


class PackingCoder(coders.Coder):
    """Any value, pickled and compressed (pipelines/runtime/packing.py): a shuffle's values whose
    PCollection has no coder of the pipeline's own."""

    def encode(self, value) -> bytes:
        return pack(value)

    def decode(self, data: bytes):
        return unpack(data)


def registered_coder(element_type):
    """The coder of `element_type` where it uses a coder the pipeline registered (a VideoBatch, or a list
    of them), else None: Beam would code it with its own coders (primitives, or pickle for any other
    object), and it is held as it is."""
    coder = coders.registry.get_coder(element_type)
    return coder if uses_pipeline_coder(coder) else None


def uses_pipeline_coder(coder) -> bool:
    return not type(coder).__module__.startswith("apache_beam.") or \
        any(uses_pipeline_coder(component) for component in coder._get_component_coders())


def coded(element, coder):
    return Coded(coder, coder.encode(element))


class CodedGroup:
    """A GroupByKey's (key, values) as a task holds it: the values still coded, decoded only when the task
    that reads the group reaches it (`decoded`). Decoded as the shuffle gives them, a partition of groups was
    held as objects until the next stage had read all of it: at 10 times MSR-VTT, each worker's 50,000 videos'
    parts, about 400 MiB, and a worker's memory did not shrink back after it (docs/benchmarks.md)."""
    __slots__ = ("key", "values")

    def __init__(self, key, values: list):
        self.key, self.values = key, values

    def __reduce__(self):
        return CodedGroup, (self.key, self.values)


@sizeof.register(CodedGroup)
def _sizeof_coded_group(group: CodedGroup) -> int:
    return sys.getsizeof(group) + sizeof(group.key) + sizeof(group.values)


def decoded(element):
    """An element as its DoFn or combine sees it: decoded if it was held coded."""
    if isinstance(element, Coded):
        return element.coder.decode(element.data)
    if isinstance(element, CodedGroup):
        return element.key, [decoded(value) for value in element.values]
    return element


class Tagged(collections.namedtuple("Tagged", "output value")):
    """An element of a stage's tagged output, as the stage's task holds it: `output` is (the position of the
    ParDo in the stage, its tag), since two ParDos of a stage may use the same tag."""
    __slots__ = ()


class HoldingReceiver(Receiver):
    """Receives a stage's outputs of one kind as they are to be held until their consumers run: coded as soon
    as they are emitted if their PCollection has a coder of the pipeline's own (so a task never holds its
    outputs as objects), and marked `Tagged` if `output` names a tagged output (None: the stage's main
    output; the visitor splits the bag by it, _outputs_by_tag)."""

    def __init__(self, output, coder, held: list):
        self._output, self._coder, self._held = output, coder, held

    def receive(self, windowed_value):
        element = windowed_value.value
        if self._coder is not None:
            element = coded(element, self._coder)
        self._held.append(element if self._output is None else Tagged(self._output, element))


class NextDoFnReceiver(Receiver):
    """Hands a ParDo's main output, element by element, to the next ParDo of its stage (never held)."""

    def __init__(self, invoker, window_fn):
        self._invoker, self._window_fn = invoker, window_fn

    def receive(self, windowed_value):
        # Windowed again as a held element would be when the next task read it (run_stage).
        self._invoker.invoke_process(beam_dask.get_windowed_value(windowed_value.value, self._window_fn))


class StageReceivers(dict):
    """One ParDo's receivers by tag (None: its main output): the main output to `main` (the next ParDo's,
    or holding for the last), each tagged output held, in the order of output."""

    def __init__(self, position: int, main: Receiver, output_coders: dict, held: list):
        super().__init__({None: main})
        self._position, self._output_coders, self._held = position, output_coders, held

    def __missing__(self, tag):
        self[tag] = HoldingReceiver((self._position, tag), self._output_coders.get(tag), self._held)
        return self[tag]


# One ParDo of a stage, as its task runs it. output_coders: {tag (None: the main output): the coder its
# held elements are coded with, or None}; side_views: a (view type, options, window_fn) per side input.
StageParDo = collections.namedtuple(
    "StageParDo", "fn_bytes label window_fn output_coders args kwargs side_views")


def _gather(*partitions) -> list:
    return [decoded(element) for partition in partitions for element in partition]


def _invoker(pardo: StageParDo, fn, receivers, side_values):
    side_inputs = [
        SideInputMap(view_type, view_options, [beam_dask.get_windowed_value(v, side_window) for v in values])
        for (view_type, view_options, side_window), values in zip(pardo.side_views, side_values)]
    return DoFnInvoker.create_invoker(
        DoFnSignature(fn),
        _OutputHandler(window_fn=pardo.window_fn, main_receivers=receivers[None], tagged_receivers=receivers,
                       per_element_output_counter=None, output_batch_converter=None,
                       process_yields_batches=False, process_batch_yields_elements=False),
        context=DoFnContext(pardo.label, state=None), side_inputs=side_inputs, input_args=pardo.args,
        input_kwargs=pardo.kwargs, user_state_context=None, bundle_finalizer_param=DoFn.BundleFinalizerParam())


def split_in_turn(values, counts) -> list:
    """`values` cut into consecutive lists of `counts[0]`, `counts[1]`, ... elements (each ParDo's side inputs)."""
    remaining = iter(values)
    return [list(itertools.islice(remaining, count)) for count in counts]


def run_stage(items, pardos, run_id, *side_values) -> list:
    """One dask partition through a stage (a chain of ParDos) as one bundle: each element goes through every
    ParDo in turn, and only the stage's outputs are held (coded). side_values: every ParDo's side inputs'
    elements, computed, in the order of `pardos`."""
    held = []
    invokers = []
    dofns = _stage_dofns(pardos, run_id)
    own_side_values = split_in_turn(side_values, [len(pardo.side_views) for pardo in pardos])
    receiver = None  # the main output of the ParDo being built: the next one's invoker, or held
    for position in reversed(range(len(pardos))):
        pardo = pardos[position]
        if receiver is None:
            receiver = HoldingReceiver(None, pardo.output_coders.get(None), held)
        invoker = _invoker(pardo, dofns[position], StageReceivers(position, receiver, pardo.output_coders, held),
                           own_side_values[position])
        invokers.insert(0, invoker)
        receiver = NextDoFnReceiver(invoker, pardo.window_fn)
    for invoker in invokers:
        invoker.invoke_start_bundle()
    for item in items:
        invokers[0].invoke_process(beam_dask.get_windowed_value(decoded(item), pardos[0].window_fn))
    for invoker in invokers:  # in order: what one emits at finish_bundle reaches the next before it finishes
        invoker.invoke_finish_bundle()
    return held


def _is_main_output(element) -> bool:
    return not isinstance(element, Tagged)


def _is_output(output, element) -> bool:
    return isinstance(element, Tagged) and element.output == output


def _untagged(element):
    return element.value


def _outputs_by_tag(bag, outputs) -> tuple:
    """A stage's bag of all its outputs -> (its main output's bag, {(position, tag): that output's bag})."""
    return bag.filter(_is_main_output), \
        {output: bag.filter(partial(_is_output, output)).map(_untagged) for output in outputs}


class Stage:
    """ParDos that run one after the other in one dask task per partition, as Beam's other runners fuse a
    stage: a ParDo joins the stage of the ParDo whose main output it alone reads. Only the stage's outputs
    are held between tasks (each ParDo's tagged outputs, the last one's main output); as separate tasks, every
    ParDo decoded and coded every video again (docs/benchmarks.md)."""

    def __init__(self, input_bag):
        self.input_bag = input_bag
        self.nodes = []
        self.side_inputs = []  # (view, its bag), every ParDo's in turn

    def add(self, node, side_inputs):
        self.nodes.append(node)
        self.side_inputs.extend(side_inputs)

    def continued_by(self, node, readers) -> bool:
        """Whether `node` can run in this stage: a ParDo (not a global combine's keying, which the fold does)
        that alone reads the stage's last main output, as its main input."""
        last_output = self.nodes[-1].outputs[None]
        return is_stage_pardo(node) and len(node.inputs) == 1 and node.inputs[0] == last_output \
            and readers[last_output] == 1

    def bag(self, run_id):
        """The stage's bag: every partition of its input through the stage, the outputs held."""
        side_views = [(type(view), view._view_options(), view.pvalue.windowing.windowfn)
                      for view, _ in self.side_inputs]
        # The bag's own task keys (not optimised into fused tasks of new names): the scheduler then computes
        # them once for the side input and for the main inputs that read the same bag (module docstring).
        side_values = [dask.delayed(_gather)(*bag.to_delayed(optimize_graph=False)) for _, bag in self.side_inputs]
        own_views = split_in_turn(side_views, [len(node.side_inputs) for node in self.nodes])
        pardos = [stage_pardo(node, views, last=node is self.nodes[-1]) for node, views in zip(self.nodes, own_views)]
        return self.input_bag.map_partitions(run_stage, pardos, run_id, *side_values)


def stage_pardo(node, side_views, last: bool) -> StageParDo:
    transform = node.transform
    args, kwargs = transform.raw_side_inputs
    main_input = next(iter(node.main_inputs.values()))
    window_fn = main_input.windowing.windowfn if hasattr(main_input, "windowing") else None
    held = {tag: output for tag, output in node.outputs.items() if tag is not None or last}
    output_coders = {tag: registered_coder(output.element_type) for tag, output in held.items()}
    return StageParDo(pickler.dumps(transform.fn), transform.label, window_fn, output_coders, list(args), kwargs,
                      side_views)


def is_stage_pardo(node) -> bool:
    """A ParDo, but for a global combine's keying (left to the combine's folds, VoidKeyed)."""
    return node.transform.__class__ is apache_beam.ParDo and not is_void_keying(node)


def is_void_keying(node) -> bool:
    return node.transform.__class__ is apache_beam.ParDo and isinstance(node.transform.fn, _KeyWithNone) \
        and not node.side_inputs


class VoidKeyed:
    """The output of CombineGlobally's KeyWithVoid (each element keyed by None), left to whoever reads it:
    a lifted combine keys each element as it folds it, so the elements (videos, for the steps' figures)
    are not decoded, keyed and coded again in a task of their own; any other reader gets them keyed
    (`as_bag`)."""

    def __init__(self, bag):
        self.bag = bag

    def as_bag(self):
        return self.bag.map(key_with_none)


def key_with_none(element) -> tuple:
    return None, decoded(element)


def partial_combine(pairs, fn_bytes, key_each_with_none: bool = False) -> list:
    """One partition of (key, value) pairs (or of values, each keyed by None if `key_each_with_none`) ->
    [(key, accumulator)], one per key in the order keys first appear."""
    combine_fn = pickler.loads(fn_bytes)
    combine_fn.setup()
    accumulators = {}
    for key, value in map(key_with_none if key_each_with_none else decoded, pairs):
        if key not in accumulators:
            accumulators[key] = combine_fn.create_accumulator()
        accumulators[key] = combine_fn.add_input(accumulators[key], value)
    combined = [(key, combine_fn.compact(accumulator)) for key, accumulator in accumulators.items()]
    combine_fn.teardown()
    return combined


def merge_combined(key_and_accumulators, fn_bytes):
    """(key, [(key, accumulator), ...]) -> (key, the combine's output for the key)."""
    key, pairs = key_and_accumulators
    combine_fn = pickler.loads(fn_bytes)
    combine_fn.setup()
    output = combine_fn.extract_output(combine_fn.merge_accumulators([accumulator for _, accumulator in pairs]))
    combine_fn.teardown()
    return key, output


def combine_per_key_bag(input_bag, combine_fn, npartitions):
    """A CombinePerKey lifted: each partition folded into an accumulator per key, then only those grouped.
    `input_bag`: a bag of (key, value), or a VoidKeyed bag of values."""
    fn_bytes = pickler.dumps(combine_fn)
    # Run as soon as its partition is ready: the partition (a step's output, read by the next step too)
    # is then held only until the next step has read it. dask's ordering puts such folds late (after
    # every other task, in a small graph of this shape), and the step's output waits for them.
    with dask.annotate(priority=FOLD_FIRST):
        if isinstance(input_bag, VoidKeyed):
            partials = input_bag.bag.map_partitions(partial_combine, fn_bytes, True)
        else:
            partials = input_bag.map_partitions(partial_combine, fn_bytes)
    return partials.groupby(lambda pair: pair[0], npartitions=npartitions).map(merge_combined, fn_bytes)


def is_liftable_combine(node) -> bool:
    """A CombinePerKey (CombineGlobally's too) without side inputs or extra arguments."""
    transform = node.transform
    return type(transform) is apache_beam.CombinePerKey and not node.side_inputs \
        and not transform.args and not transform.kwargs


def value_coded(element, coder) -> tuple:
    key, value = decoded(element)
    return key, coded(beam_dask.defenestrate(value), coder)


def group_values(key_and_elements) -> CodedGroup:
    key, elements = key_and_elements
    return CodedGroup(key, [value for _, value in elements])


def value_type(applied):
    """The type a GroupByKey's input declares for its values (Any where it declares none)."""
    element_type = next(iter(applied.inputs)).element_type
    if isinstance(element_type, typehints.typehints.TupleConstraint) and len(element_type.tuple_types) == 2:
        return element_type.tuple_types[1]
    return typehints.Any


def group_by_key_bag(input_bag, values_type, npartitions):
    """A GroupByKey into `npartitions` partitions: its values cross the shuffle coded (by the pipeline's coder
    for them, else packed)."""
    coder = registered_coder(values_type) or PackingCoder()
    keyed = input_bag.map(value_coded, coder)
    if keyed.npartitions != npartitions:  # a task shuffle gives as many partitions as it is given
        keyed = keyed.repartition(npartitions)
    return keyed.groupby(lambda item: item[0]).map(group_values)


def create_bag(applied, bag_kwargs):
    """A Create: each element in a partition of its own (module docstring, 6), unless the user chose the
    partitions (--dask_npartitions, --dask_partition_size) or the elements are many."""
    values = applied.transform.values
    if bag_kwargs or len(values) > CREATE_PARTITIONS_AT_MOST:
        return beam_dask.Create(applied, bag_kwargs=bag_kwargs).apply(input_bag=None)
    return db.from_sequence(values, npartitions=max(1, len(values)))


class _ReaderCounter(PipelineVisitor):
    """How many transforms read each PCollection, as a main or a side input (a stage may take in a ParDo
    only where it alone reads the stage's output)."""

    def __init__(self):
        self.readers = collections.Counter()

    def visit_transform(self, node):
        self.readers.update(value for value in node.inputs if not isinstance(value, pvalue.PBegin))
        self.readers.update(view.pvalue for view in node.side_inputs)


class _BagVisitor(PipelineVisitor):
    """Each applied transform -> its dask bag; also which bags some other transform consumes. ParDos are
    gathered into stages (`Stage`): the stage being gathered gets its bag when a transform that does not
    continue it is visited, or when its outputs are read, or at the end (`close_stage`)."""

    def __init__(self, bag_kwargs, npartitions, readers):
        self.bags = {}  # a transform -> the bag of its main output
        self.tagged_bags = {}  # (a transform, a tag) -> the bag of that tagged output
        self.consumed = set()
        self._bag_kwargs = bag_kwargs
        self._npartitions = npartitions
        self._readers = readers
        self._run_id = uuid.uuid4().hex
        self._lifted_combine = None  # the CombinePerKey being lifted: its parts are not translated
        self._stage = None  # the stage being gathered
        self.stages = []  # the labels of each stage's ParDos, as the stages were closed

    def enter_composite_transform(self, node):
        if self._lifted_combine is None and is_liftable_combine(node):
            self._lifted_combine = node

    def leave_composite_transform(self, node):
        if node is not self._lifted_combine:
            return
        self._lifted_combine = None
        (input_value,) = node.inputs
        self.consumed.add(input_value.producer)
        bag = combine_per_key_bag(self._bag_of(input_value), node.transform.fn, self._npartitions)
        for output in node.outputs.values():  # produced by the last of its parts, which its consumers name
            self.bags[output.producer] = bag

    def visit_transform(self, node):
        if self._lifted_combine is not None:
            return
        self.consumed.update(value.producer for value in node.inputs if not isinstance(value, pvalue.PBegin))
        self.consumed.update(view.pvalue.producer for view in node.side_inputs)
        # Side inputs first: one read from the stage being gathered ends it, so a stage never waits for itself.
        side_inputs = [(view, self._input_bag(view.pvalue)) for view in node.side_inputs]
        if self._stage is not None and self._stage.continued_by(node, self._readers):
            self._stage.add(node, side_inputs)
            return
        self.close_stage()
        inputs = [self._input_bag(value) for value in node.inputs
                  if not isinstance(value, pvalue.PBegin) and self._has_bag(value)]
        transform_type = node.transform.__class__
        if is_void_keying(node):
            self.bags[node] = VoidKeyed(inputs[0])
        elif transform_type is apache_beam.ParDo:
            self._stage = Stage(inputs[0])
            self._stage.add(node, side_inputs)
        elif transform_type is _GroupByKeyOnly:
            self.bags[node] = group_by_key_bag(inputs[0], value_type(node), self._npartitions)
        elif transform_type is _Create:
            self.bags[node] = create_bag(node, self._bag_kwargs)
        elif transform_type in beam_dask.TRANSLATIONS:  # Flatten, as Beam translates it
            op = beam_dask.TRANSLATIONS[transform_type](node, bag_kwargs=self._bag_kwargs)
            self.bags[node] = op.apply(input_bag=inputs if op.__class__ is beam_dask.Flatten else None)
        else:  # what needs no work on dask (a Reshuffle, a composite's own node): its input as it is
            self.bags[node] = inputs[0] if inputs else None

    def close_stage(self):
        """The stage being gathered, if any, gets its bag: its last ParDo's main output and every tagged output."""
        stage, self._stage = self._stage, None
        if stage is None:
            return
        self.stages.append([node.full_label for node in stage.nodes])
        bag = stage.bag(self._run_id)
        tagged_outputs = [(position, tag) for position, node in enumerate(stage.nodes)
                          for tag in node.outputs if tag is not None]
        if tagged_outputs:
            bag, tagged = _outputs_by_tag(bag, tagged_outputs)
            self.tagged_bags.update({(stage.nodes[position], tag): tagged_bag
                                     for (position, tag), tagged_bag in tagged.items()})
        self.bags[stage.nodes[-1]] = bag

    def _has_bag(self, pcollection) -> bool:
        if self._stage is not None and pcollection.producer in self._stage.nodes:
            self.close_stage()
        return pcollection.producer in self.bags or (pcollection.producer, pcollection.tag) in self.tagged_bags

    def _bag_of(self, pcollection):
        """The bag of a PCollection: its producer's tagged output if it is one, else the producer's main output
        (a VoidKeyed for a KeyWithVoid, which a lifted combine folds as it is)."""
        if self._stage is not None and pcollection.producer in self._stage.nodes:
            self.close_stage()
        tagged = (pcollection.producer, pcollection.tag)
        return self.tagged_bags[tagged] if tagged in self.tagged_bags else self.bags[pcollection.producer]

    def _input_bag(self, pcollection):
        """The bag of a PCollection as any transform but a lifted combine reads it."""
        bag = self._bag_of(pcollection)
        return bag.as_bag() if isinstance(bag, VoidKeyed) else bag


def translate(pipeline, bag_kwargs, npartitions) -> _BagVisitor:
    """The pipeline's transforms as dask bags (the visitor's `bags`, `tagged_bags`, `stages`)."""
    pipeline.replace_all(dask_overrides())
    counter = _ReaderCounter()
    pipeline.visit(counter)
    visitor = _BagVisitor(bag_kwargs, npartitions, counter.readers)
    pipeline.visit(visitor)
    visitor.close_stage()
    return visitor


class CapcleanDaskRunner(DaskRunner):
    """Beam's DaskRunner with side inputs computed once, every sink computed and DoFns set up once per worker."""

    def run_pipeline(self, pipeline, options):
        import dask.distributed as ddist

        dask_options = options.view_as(DaskOptions).get_all_options(drop_default=True, current_only=True)
        bag_kwargs = DaskOptions._extract_bag_kwargs(dask_options)
        client = ddist.Client(**dask_options)
        npartitions = bag_kwargs.get("npartitions") or len(client.scheduler_info()["workers"])
        visitor = translate(pipeline, bag_kwargs, npartitions)
        sinks = [bag for node, bag in visitor.bags.items()
                 if node not in visitor.consumed and isinstance(bag, db.Bag)]
        # Not optimised: dask's graph optimisation drops the tasks' priorities (FOLD_FIRST).
        futures = client.compute(sinks, optimize_graph=False)
        return DaskRunnerResult(client, futures)
