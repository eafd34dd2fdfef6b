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
     corpus figures, holding a whole PCollection in one process.

This runner keeps Beam's translation of Create, Flatten and the GroupByKey
expansion, and replaces the rest: a side input is one dask task that gathers
the side input's bag once and is handed, computed, to every task of the
ParDo that reads it; every sink is computed; a bundle's outputs are taken
after `finish_bundle`; a DoFn is set up once per worker process; a combine
is lifted as Beam's other runners lift it (each partition folded into one
accumulator per key where it lies, and only the accumulators grouped and
merged); a GroupByKey spreads its groups over at least --dask_npartitions partitions
(default: the number of workers). A ParDo's tagged outputs are separated
(each output PCollection its own bag: as released, every output went to every
consumer); metrics are still not reported (capclean's figures come from the
lineage tables).

A side input's partitions are taken from its bag's graph as it is: optimised
on its own first (dask's default for to_delayed), its tasks were fused under
new names, so the scheduler could not see they were the main input's too, and
the whole lineage of every side input was computed again (each video went
through every step three times: twice the FnApiRunner's CPU per caption).
"""
import hashlib
import uuid
from functools import partial

import dask
import dask.bag as db
from apache_beam import DoFn, pvalue
from apache_beam.internal import pickler
from apache_beam.pipeline import PipelineVisitor
from apache_beam.runners.common import DoFnContext, DoFnInvoker, DoFnSignature, _OutputHandler
from apache_beam.runners.dask import transform_evaluator as beam_dask
from apache_beam.runners.dask.dask_runner import DaskOptions, DaskRunner, DaskRunnerResult
from apache_beam.runners.dask.overrides import _GroupByKeyOnly, dask_overrides
from apache_beam.transforms.sideinputs import SideInputMap
import apache_beam

# The DoFns set up in this worker process for the current run, by the hash of their pickled form.
# A DoFn may keep what it built from side inputs, so a worker that serves a new run starts afresh.
_SET_UP_DOFNS = {"run": None, "dofns": {}}


def _dofn_ready(fn_bytes: bytes, run_id: str):
    """The DoFn of these bytes, unpickled and set up once per process and run (as Beam's other runners reuse them)."""
    if _SET_UP_DOFNS["run"] != run_id:
        _SET_UP_DOFNS["run"], _SET_UP_DOFNS["dofns"] = run_id, {}
    key = hashlib.sha256(fn_bytes).hexdigest()
    fn = _SET_UP_DOFNS["dofns"].get(key)
    if fn is None:
        fn = pickler.loads(fn_bytes)
        fn.setup()
        _SET_UP_DOFNS["dofns"][key] = fn
    return fn


def _gather(*partitions) -> list:
    return [element for partition in partitions for element in partition]


def run_bundle(items, fn_bytes, run_id, label, window_fn, args, kwargs, side_views, *side_values):
    """One dask partition through a DoFn as one bundle; side_values are the side inputs' elements, computed."""
    receivers = beam_dask.OneReceiver()
    side_inputs = [
        SideInputMap(view_type, view_options, [beam_dask.get_windowed_value(v, side_window) for v in values])
        for (view_type, view_options, side_window), values in zip(side_views, side_values)]
    invoker = DoFnInvoker.create_invoker(
        DoFnSignature(_dofn_ready(fn_bytes, run_id)),
        _OutputHandler(window_fn=window_fn, main_receivers=receivers[None], tagged_receivers=receivers,
                       per_element_output_counter=None, output_batch_converter=None,
                       process_yields_batches=False, process_batch_yields_elements=False),
        context=DoFnContext(label, state=None), side_inputs=side_inputs, input_args=args,
        input_kwargs=kwargs, user_state_context=None, bundle_finalizer_param=DoFn.BundleFinalizerParam())
    invoker.invoke_start_bundle()
    for item in items:
        invoker.invoke_process(item)
    invoker.invoke_finish_bundle()
    # A tagged output arrives as TaggedOutput(tag, windowed value): it keeps its tag, and the visitor
    # splits the bag by it (_outputs_by_tag).
    return [pvalue.TaggedOutput(value.tag, value.value.value) if isinstance(value, pvalue.TaggedOutput)
            else value.value for value in receivers.values]


def _is_main_output(element) -> bool:
    return not isinstance(element, pvalue.TaggedOutput)


def _is_tagged(tag, element) -> bool:
    return isinstance(element, pvalue.TaggedOutput) and element.tag == tag


def _untagged(element):
    return element.value


def _outputs_by_tag(bag, tags) -> tuple:
    """A ParDo's bag of all its outputs -> (its main output's bag, {tag: that output's bag})."""
    return bag.filter(_is_main_output), {tag: bag.filter(partial(_is_tagged, tag)).map(_untagged) for tag in tags}


def pardo_bag(applied, input_bag, side_inputs, run_id):
    """A ParDo as map_partitions; each side input arrives as one computed list (a dask Delayed)."""
    transform = applied.transform
    args, kwargs = transform.raw_side_inputs
    main_input = next(iter(applied.main_inputs.values()))
    window_fn = main_input.windowing.windowfn if hasattr(main_input, "windowing") else None
    side_views = [(type(view), view._view_options(), view.pvalue.windowing.windowfn) for view, _ in side_inputs]
    # The bag's own task keys (not optimised into fused tasks of new names): the scheduler then computes
    # them once for the side input and for the main inputs that read the same bag (module docstring).
    side_values = [dask.delayed(_gather)(*bag.to_delayed(optimize_graph=False)) for _, bag in side_inputs]
    return input_bag.map(beam_dask.get_windowed_value, window_fn).map_partitions(
        run_bundle, pickler.dumps(transform.fn), run_id, transform.label, window_fn, list(args), kwargs, side_views,
        *side_values)


def partial_combine(pairs, fn_bytes) -> list:
    """One partition of (key, value) pairs -> [(key, accumulator)], one per key in the order keys first appear."""
    combine_fn = pickler.loads(fn_bytes)
    combine_fn.setup()
    accumulators = {}
    for key, value in pairs:
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
    """A CombinePerKey lifted: each partition folded into an accumulator per key, then only those grouped."""
    fn_bytes = pickler.dumps(combine_fn)
    partials = input_bag.map_partitions(partial_combine, fn_bytes)
    return partials.groupby(lambda pair: pair[0], npartitions=npartitions).map(merge_combined, fn_bytes)


def is_liftable_combine(node) -> bool:
    """A CombinePerKey (CombineGlobally's too) without side inputs or extra arguments."""
    transform = node.transform
    return type(transform) is apache_beam.CombinePerKey and not node.side_inputs \
        and not transform.args and not transform.kwargs


def group_by_key_bag(input_bag, npartitions):
    if npartitions and input_bag.npartitions < npartitions:
        input_bag = input_bag.repartition(npartitions)
    return input_bag.groupby(lambda item: item[0]).map(
        lambda item: (item[0], [beam_dask.defenestrate(element[1]) for element in item[1]]))


class _BagVisitor(PipelineVisitor):
    """Each applied transform -> its dask bag; also which bags some other transform consumes."""

    def __init__(self, bag_kwargs, npartitions):
        self.bags = {}  # a transform -> the bag of its main output
        self.tagged_bags = {}  # (a transform, a tag) -> the bag of that tagged output
        self.consumed = set()
        self._bag_kwargs = bag_kwargs
        self._npartitions = npartitions
        self._run_id = uuid.uuid4().hex
        self._lifted_combine = None  # the CombinePerKey being lifted: its parts are not translated

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
        inputs = [self._bag_of(value) for value in node.inputs
                  if not isinstance(value, pvalue.PBegin) and value.producer in self.bags]
        self.consumed.update(value.producer for value in node.inputs if not isinstance(value, pvalue.PBegin))
        side_inputs = []
        for view in node.side_inputs:
            self.consumed.add(view.pvalue.producer)
            side_inputs.append((view, self._bag_of(view.pvalue)))
        transform_type = node.transform.__class__
        if transform_type is apache_beam.ParDo:
            bag = pardo_bag(node, inputs[0], side_inputs, self._run_id)
            tags = [tag for tag in node.outputs if tag is not None]
            if tags:
                bag, tagged = _outputs_by_tag(bag, tags)
                self.tagged_bags.update({(node, tag): tagged_bag for tag, tagged_bag in tagged.items()})
        elif transform_type is _GroupByKeyOnly:
            bag = group_by_key_bag(inputs[0], self._npartitions)
        elif transform_type in beam_dask.TRANSLATIONS:  # Create and Flatten, as Beam translates them
            op = beam_dask.TRANSLATIONS[transform_type](node, bag_kwargs=self._bag_kwargs)
            bag = op.apply(input_bag=inputs if op.__class__ is beam_dask.Flatten else None)
        else:  # what needs no work on dask (a Reshuffle, a composite's own node): its input as it is
            bag = inputs[0] if inputs else None
        self.bags[node] = bag

    def _bag_of(self, pcollection):
        """The bag of a PCollection: its producer's tagged output if it is one, else the producer's main output."""
        return self.tagged_bags.get((pcollection.producer, pcollection.tag), self.bags[pcollection.producer])


class CapcleanDaskRunner(DaskRunner):
    """Beam's DaskRunner with side inputs computed once, every sink computed and DoFns set up once per worker."""

    def run_pipeline(self, pipeline, options):
        import dask.distributed as ddist

        dask_options = options.view_as(DaskOptions).get_all_options(drop_default=True, current_only=True)
        bag_kwargs = DaskOptions._extract_bag_kwargs(dask_options)
        client = ddist.Client(**dask_options)
        npartitions = bag_kwargs.get("npartitions") or len(client.scheduler_info()["workers"])
        pipeline.replace_all(dask_overrides())
        visitor = _BagVisitor(bag_kwargs, npartitions)
        pipeline.visit(visitor)
        sinks = [bag for node, bag in visitor.bags.items()
                 if node not in visitor.consumed and isinstance(bag, db.Bag)]
        futures = client.compute(sinks)
        return DaskRunnerResult(client, futures)
