"""Progress: each step's counts added up over the DoFn instances (workers), one line per step with
the totals and the time left, no carriage return without a terminal."""
from types import SimpleNamespace

import pipelines.runtime.progress
from pipelines.runtime.progress import LogProgressFn, ProgressPrinter, read_counts


def batch(captions):
    return SimpleNamespace(captions=[None] * captions)


def test_each_instance_writes_its_counts_and_the_command_adds_them_up(tmp_path, monkeypatch):
    monkeypatch.setattr(pipelines.runtime.progress, "WRITE_SECONDS", 0.0)  # every video, not once a second
    first, second = LogProgressFn("spelling", str(tmp_path)), LogProgressFn("spelling", str(tmp_path))
    for fn, captions in ((first, [3, 2]), (second, [4])):
        fn.setup()
        fn.start_bundle()
        for count in captions:
            assert list(fn.process(batch(count))) == [batch(count)]
    first.finish_bundle()
    counts = read_counts(str(tmp_path))["spelling"]
    assert (counts["videos"], counts["captions"], counts["bundles_started"], counts["bundles_ended"]) == (3, 9, 2, 1)
    assert counts["first"] is not None


def test_a_worker_that_cannot_write_counts_and_passes_on(tmp_path):
    fn = LogProgressFn("read", str(tmp_path / "elsewhere"))  # a folder on another machine
    fn.setup()
    fn.start_bundle()
    assert list(fn.process(batch(2))) == [batch(2)]
    fn.finish_bundle()
    assert not (tmp_path / "elsewhere").exists()


def figures(videos, captions, started=2, ended=0, first=0.0):
    return {"videos": videos, "captions": captions, "bundles_started": started, "bundles_ended": ended,
            "first": first}


def test_one_line_per_step_with_totals_and_the_time_left_and_no_carriage_return(caplog):
    clock = [0.0]
    printer = ProgressPrinter(["read", "normalize", "spelling", "dedup"], terminal=False, now=lambda: clock[0])
    caplog.set_level("INFO", logger="capclean.progress")
    updates = [
        (5, {"read": figures(400, 8000)}),
        (10, {"read": figures(1000, 20000, ended=2), "normalize": figures(1000, 20000, ended=2)}),
        (20, {"spelling": figures(100, 2000, first=10), "dedup": figures(90, 1700, first=10)}),
        (40, {"spelling": figures(300, 6000, first=10), "dedup": figures(250, 4800, first=10)}),  # 30 s: a line
        (60, {"spelling": figures(500, 10000, first=10), "dedup": figures(490, 9100, first=10)}),  # none till 2 min
        (70, {"spelling": figures(1000, 20000, ended=2, first=10), "dedup": figures(1000, 18000, ended=1, first=10)}),
        (75, {"spelling": figures(1000, 20000, ended=2, first=10), "dedup": figures(1000, 18000, ended=2, first=10)}),
    ]
    base = {}
    for clock[0], counts in updates:
        base.update(counts)
        printer.update(dict(base), total=1000 if clock[0] >= 10 else None)  # the global count, once read
    assert [record.getMessage() for record in caplog.records] == [
        "read: 1000 videos, 20000 captions, 10 s",
        "normalize: 1000 of 1000 videos, 20000 captions, 10 s",
        "spelling, dedup: 250 of 1000 videos (25%), 30 s; about 90 s left",
        "spelling: 1000 of 1000 videos, 20000 captions, 60 s",
        "dedup: 1000 of 1000 videos, 18000 captions, 65 s",
    ]


def test_on_a_terminal_the_status_is_redrawn_in_place(capsys):
    clock = [0.0]
    printer = ProgressPrinter(["read", "normalize"], terminal=True, now=lambda: clock[0])
    printer.update({"read": figures(10, 20, ended=2)}, total=10)
    clock[0] = 4.0
    printer.update({"read": figures(10, 20, ended=2), "normalize": figures(5, 10, first=0.0)}, total=10)
    printer.update({"read": figures(10, 20, ended=2), "normalize": figures(10, 20, ended=2)}, total=10, ended=True)
    err = capsys.readouterr().err  # with the log lines, if a handler writes them to stderr
    assert err.count("\r") == 2
    assert "\r\033[Knormalize: 5 of 10 videos (50%), 4 s; about 4 s left\r\033[K" in err


def test_a_step_is_not_done_while_a_worker_has_not_begun_its_share(caplog):
    """Two workers: the first ends its bundle of three videos before the second begins its own. Without
    the global count the first worker's three would pass for all of them."""
    printer = ProgressPrinter(["read", "normalize"], terminal=False, now=lambda: 1.0)
    caplog.set_level("INFO", logger="capclean.progress")
    one_worker = {"read": figures(3, 6, started=1, ended=1), "normalize": figures(3, 6, started=1, ended=1)}
    printer.update(one_worker)
    assert not caplog.records
    printer.update(one_worker, total=6)
    assert not caplog.records
    both = {"read": figures(6, 12, started=2, ended=2), "normalize": figures(6, 12, started=2, ended=2)}
    printer.update(both, total=6)
    assert [record.getMessage() for record in caplog.records] == ["read: 6 videos, 12 captions, 1 s",
                                                                 "normalize: 6 of 6 videos, 12 captions, 1 s"]


def test_the_reader_writes_the_total_and_the_command_reads_it(tmp_path):
    import apache_beam as beam
    from pipelines.runtime.progress import LogProgress, read_total

    assert read_total(str(tmp_path)) is None
    with beam.Pipeline() as pipeline:
        _ = pipeline | beam.Create([batch(1), batch(2), batch(3)]) | LogProgress("read", str(tmp_path), True)
    assert read_total(str(tmp_path)) == 3
    assert read_counts(str(tmp_path))["read"]["videos"] == 3  # total.json is not a step's file
