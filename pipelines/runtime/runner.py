"""Running a capclean pipeline (clean, sweep, hardneg) on a Beam runner.

Without --runner the pipeline runs on Beam's FnApiRunner, in this process or,
with --direct_num_workers=N --direct_running_mode=multi_processing, in N SDK
worker processes. `--runner=DaskRunner` runs it on a dask.distributed cluster:
the one at --dask_client_address, or a local cluster of --dask_local_workers
worker processes that lives as long as the run. Any other runner Beam knows
(DataflowRunner, FlinkRunner, SparkRunner, ...) is passed on as it is.
"""
import contextlib
import difflib
import logging
import shlex
import sys

import apache_beam as beam
from apache_beam.options.pipeline_options import PipelineOptions, StandardOptions
from apache_beam.portability import python_urns
from apache_beam.runners.portability.fn_api_runner import FnApiRunner

from pipelines.runtime.progress import progress_lines
from transforms.errors import CapcleanError

log = logging.getLogger("capclean")

DASK_RUNNER_NAMES = ("DaskRunner", "dask")

# dask.distributed's housekeeping in the local cluster's processes, slowed down: by default every
# worker samples its own stack every 10 ms (the dashboard's profile), each process checks its event
# loop every 20 ms and its memory every 100 ms, which cost about a tenth of a core while a
# run waits (2.4 s of CPU in 30 s idle, 0.4 s with these); capclean's runs have no dashboard to feed.
# The workers receive the scheduler's process's dask configuration from their nannies.
QUIET_LOCAL_CLUSTER = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.memory.monitor-interval": "1s",
}


def local_cluster_config() -> dict:
    """The local cluster's dask configuration: QUIET_LOCAL_CLUSTER, and glibc's malloc set in each worker as
    capclean sets it in its own processes (pipelines/runtime/malloc.py), through the environment the nannies
    start the workers with."""
    from pipelines.runtime.malloc import SETTINGS

    return {**QUIET_LOCAL_CLUSTER,
            **{f"distributed.nanny.pre-spawn-environ.{variable}": value for _, variable, value in SETTINGS}}


class LocalDaskOptions(PipelineOptions):
    """capclean's own option for the DaskRunner: the size of the local cluster it starts."""

    @classmethod
    def _add_argparse_args(cls, parser):
        parser.add_argument("--dask_local_workers", type=int, default=2,
                            help="worker processes of the local dask.distributed cluster started when "
                                 "--runner DaskRunner has no --dask_client_address (default 2)")


def is_dask(options: PipelineOptions) -> bool:
    return options.view_as(StandardOptions).runner in DASK_RUNNER_NAMES


def check_beam_flags(beam_args, own_flags=()) -> None:
    """Refuse a runner Beam does not know, and any flag that neither capclean (`own_flags`) nor Beam
    knows, with the nearest known flag: Beam itself would drop it with a warning and run on, so
    `--profle paper` would clean with the default profile."""
    options = PipelineOptions(beam_args)
    runner = options.view_as(StandardOptions).runner
    try:
        if is_dask(options):
            import pipelines.runtime.dask_runner  # noqa: F401  (registers Beam's DaskOptions)
        elif runner:
            from apache_beam.runners.runner import create_runner
            create_runner(runner)  # imports the runner's module, which registers the runner's own options
    except ValueError as error:
        raise CapcleanError(f"--runner {runner}: {error}") from None
    beam_log = logging.getLogger("apache_beam.options.pipeline_options")
    level = beam_log.level
    beam_log.setLevel(logging.ERROR)  # it warns of the flags it drops: they are refused below instead
    try:
        known = options.get_all_options(retain_unknown_options=False)
        unknown = sorted(set(options.get_all_options(retain_unknown_options=True)) - set(known))
    finally:
        beam_log.setLevel(level)
    if unknown:
        flags = [f"--{name}" for name in unknown]
        nearest = difflib.get_close_matches(flags[0], list(own_flags) + [f"--{name}" for name in known], n=1)
        hint = f" (did you mean {nearest[0]}?)" if nearest else ""
        raise CapcleanError(f"unknown option {', '.join(flags)}{hint}; --help lists capclean's options, "
                            "and any other must be a Beam option of the runner")


def make_pipeline(beam_args) -> beam.Pipeline:
    """A pipeline on the runner the Beam options name, or on the in-process FnApiRunner.

    Beam's DirectRunner would first try to download the Prism runner; the
    FnApiRunner it falls back to is what we want, and it honours
    --direct_num_workers and --direct_running_mode. `DaskRunner` is Beam's
    DaskRunner with the defects of its translation mended (pipelines/runtime/dask_runner.py).
    """
    options = PipelineOptions(beam_args)
    if is_dask(options):
        from pipelines.runtime.dask_runner import CapcleanDaskRunner
        return beam.Pipeline(runner=CapcleanDaskRunner(), options=options)
    if options.view_as(StandardOptions).runner:
        return beam.Pipeline(options=options)
    return beam.Pipeline(runner=QuietWorkersFnApiRunner(), options=options)


class QuietWorkersFnApiRunner(FnApiRunner):
    """Beam's FnApiRunner whose worker processes (--direct_running_mode=multi_processing) are
    pipelines/runtime/sdk_worker.py: Beam's worker with capclean's logging, not twenty lines each at INFO."""

    def run_via_runner_api(self, pipeline_proto, options):
        command = f"{shlex.quote(sys.executable)} -m pipelines.runtime.sdk_worker"
        for environment in pipeline_proto.components.environments.values():
            if environment.urn == python_urns.SUBPROCESS_SDK:
                environment.payload = command.encode("utf-8")
        stop_late_workers_too()
        send_worker_inputs_unflushed()
        return super().run_via_runner_api(pipeline_proto, options)


def send_worker_inputs_unflushed() -> None:
    """Mend a race in Beam's data plane that loses a stage's input elements without an error.

    With worker processes, the FnApiRunner writes each stage's input for a worker into an output
    stream that a background thread also flushes every second (worker_handlers.DATA_BUFFER_TIME_LIMIT_MS,
    Beam 2.77). A flush hands the stream's bytes to the send queue and then clears the stream, and
    nothing stops the runner from writing in between: the queue holds 100 MB, so on a large input
    the hand-over waits, and the chunks the runner writes meanwhile are cleared unsent. The worker
    never sees those elements (at 10x MSR-VTT, 1% to 17% of the videos in four of seven runs;
    docs/benchmarks.md). With the limit at 0 the stream is sent only when the runner closes it.
    Set before each run: Beam reads it when it starts its data server."""
    from apache_beam.runners.portability.fn_api_runner import worker_handlers

    worker_handlers.DATA_BUFFER_TIME_LIMIT_MS = 0


def stop_late_workers_too() -> None:
    """Mend Beam's closing of a worker that has not connected yet, once per process.

    When a bundle fails, the FnApiRunner closes every worker's control connection and waits for
    each worker process to exit. It tells a worker to end only if the worker has connected: a
    worker still starting (slow under load) connects afterwards, runs what was queued for it and
    then waits for an instruction that never comes, and the command waits for it forever (one
    failing two-worker run in about 17 hung so). Here the end is queued for such a worker too:
    it reads it after what was queued before, and exits."""
    from apache_beam.runners.portability.fn_api_runner import worker_handlers

    connection = worker_handlers.ControlConnection
    if getattr(connection.close, "stops_late_workers", False):
        return
    close = connection.close
    servicer = worker_handlers.BeamFnControlServicer

    def close_and_stop_a_late_worker(self):
        with connection._lock:
            if self._state == servicer.UNSTARTED_STATE:
                self._push_queue.put(servicer._DONE_MARKER)
        close(self)

    close_and_stop_a_late_worker.stops_late_workers = True
    connection.close = close_and_stop_a_late_worker


@contextlib.contextmanager
def runner_resources(beam_args):
    """The Beam arguments to run with: for the DaskRunner without a scheduler address, a local
    cluster of worker processes is started here and its address added; it is closed afterwards."""
    options = PipelineOptions(beam_args)
    if not is_dask(options) or any(arg.startswith("--dask_client_address") for arg in beam_args):
        yield list(beam_args)
        return
    import dask
    from dask.distributed import LocalCluster

    workers = options.view_as(LocalDaskOptions).dask_local_workers
    logging.getLogger("distributed").setLevel(logging.WARNING)  # the cluster's start and stop, line by line
    with dask.config.set(local_cluster_config()), \
            LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                         silence_logs=logging.WARNING, dashboard_address=":0") as cluster:
        yield list(beam_args) + [f"--dask_client_address={cluster.scheduler_address}"]


def run_and_wait(pipeline: beam.Pipeline):
    """Run the pipeline and wait for it; close the DaskRunner's client, which Beam leaves open.
    Returns the finished pipeline's result (its metrics time the stages for the run manifest)."""
    result = pipeline.run()
    try:
        result.wait_until_finish()
    finally:
        client = getattr(result, "client", None)
        if client is not None:
            client.close()
    return result


def build_and_run(beam_args, build):
    """A pipeline on the runner the Beam options name, `build(pipeline)` to add the transforms, run to the end;
    returns the pipeline's result."""
    with runner_resources(beam_args) as runner_args, progress_lines():
        pipeline = make_pipeline(runner_args)
        build(pipeline)
        return run_and_wait(pipeline)
