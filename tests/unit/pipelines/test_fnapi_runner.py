"""capclean's mends of Beam's FnApiRunner (pipelines/runtime/runner.py)."""
import time

import apache_beam as beam
from apache_beam.runners.portability.fn_api_runner import worker_handlers
from apache_beam.runners.worker import data_plane

from pipelines.runtime.runner import make_pipeline, send_worker_inputs_unflushed

CHUNK = b"x" * 100_000


def bytes_a_worker_receives(chunks: int, seconds_between_writes: float, seconds_per_send: float) -> int:
    """Write `chunks` chunks into the stream the runner's data server gives for a bundle's input, as
    Beam's runner does, while each hand-over to the send queue takes `seconds_per_send` (a full queue)."""
    connection = data_plane.BeamFnDataServicer(worker_handlers.DATA_BUFFER_TIME_LIMIT_MS).get_conn_by_worker_id("w")
    sent = []

    def slow_enqueue(element):
        time.sleep(seconds_per_send)
        sent.append(element)

    connection._enqueue_to_send = slow_enqueue
    stream = connection.output_stream("bundle_1", "read")
    for _ in range(chunks):
        stream.write(CHUNK)
        time.sleep(seconds_between_writes)
    stream.close()
    assert sent[-1].is_last
    return sum(len(element.data) for element in sent)


def test_a_stage_input_reaches_the_worker_whole_while_the_send_queue_is_slow(monkeypatch):
    # Beam's own setting (a flush every second from another thread) loses the chunks written during a
    # slow hand-over; the writes here span more than a second, so that such a flush would come.
    monkeypatch.setattr(worker_handlers, "DATA_BUFFER_TIME_LIMIT_MS", 1000)  # Beam's own setting
    send_worker_inputs_unflushed()
    assert bytes_a_worker_receives(chunks=14, seconds_between_writes=0.1, seconds_per_send=0.5) == 14 * len(CHUNK)


def test_every_run_on_the_fnapi_runner_sends_worker_inputs_unflushed(monkeypatch):
    monkeypatch.setattr(worker_handlers, "DATA_BUFFER_TIME_LIMIT_MS", 1000)  # Beam's own setting
    with make_pipeline([]) as pipeline:
        pipeline | beam.Create([1, 2])
    assert worker_handlers.DATA_BUFFER_TIME_LIMIT_MS == 0


def test_a_worker_that_connects_after_a_failure_is_told_to_end():
    # The failing run closes every worker's connection; a worker that had not connected yet finds,
    # once it does, what was queued for it and then the end, not a wait for ever.
    from apache_beam.portability.api import beam_fn_api_pb2
    from apache_beam.runners.portability.fn_api_runner import worker_handlers

    from pipelines.runtime.runner import stop_late_workers_too

    stop_late_workers_too()
    stop_late_workers_too()  # once per process, however many runs
    connection = worker_handlers.ControlConnection()
    connection.push(beam_fn_api_pb2.InstructionRequest(instruction_id="bundle_1"))
    connection.close()
    assert connection.get_req().instruction_id == "bundle_1"
    assert connection._push_queue.get_nowait() is worker_handlers.BeamFnControlServicer._DONE_MARKER


class FinishedStage:
    """A bundle processor the worker keeps for reuse after its stage's last bundle."""

    def __init__(self):
        self.shut_down = False

    def shutdown(self):
        self.shut_down = True


def test_a_worker_drops_a_finished_stage_within_seconds(monkeypatch):
    """capclean's SDK worker has Beam drop a stage's DoFns (and what they built) seconds after its last
    bundle, not a minute after: with Beam's 60 s the stage below is still kept when the test looks."""
    from apache_beam.runners.worker import sdk_worker

    from pipelines.runtime.sdk_worker import FINISHED_STAGE_SECONDS, drop_finished_stages_soon

    monkeypatch.setattr(sdk_worker, "DEFAULT_BUNDLE_PROCESSOR_CACHE_SHUTDOWN_THRESHOLD_S",
                        sdk_worker.DEFAULT_BUNDLE_PROCESSOR_CACHE_SHUTDOWN_THRESHOLD_S)
    drop_finished_stages_soon(sdk_worker)
    cache = sdk_worker.BundleProcessorCache(frozenset(), None, None, {})
    try:
        stage = FinishedStage()
        cache.last_access_times["recheck1"] = time.time()
        cache.cached_bundle_processors["recheck1"].append(stage)
        deadline = time.time() + 2 * FINISHED_STAGE_SECONDS + 2
        while not stage.shut_down and time.time() < deadline:
            time.sleep(0.2)
        assert stage.shut_down
    finally:
        cache.shutdown()
