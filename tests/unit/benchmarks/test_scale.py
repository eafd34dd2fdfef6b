"""The scale benchmark's pure parts: the scales, the corpus's part of MSR-VTT, the ratios, the process roles."""
from pathlib import Path

import pytest

from benchmarks.bench_scale import parse_scales, scale_ratios
from benchmarks.make_scaled_corpus import copies_and_videos, first_of_each_split
from benchmarks.measure import process_role, summarise_processes


def test_scales_are_sorted_whole_numbers_or_fractions_below_one():
    assert parse_scales("10,1") == [1, 10]
    assert parse_scales("0.2,1") == [0.2, 1]
    assert isinstance(parse_scales("1.0")[0], int)
    with pytest.raises(ValueError):
        parse_scales("1.5")
    with pytest.raises(ValueError):
        parse_scales("0")


def videos(split, numbers):
    return [{"video_id": f"video{n}", "split": split} for n in numbers]


def test_a_fraction_keeps_the_first_part_of_each_split():
    corpus = videos("train", range(0, 10)) + videos("test", range(10, 14))
    kept = first_of_each_split(corpus, 0.5)
    assert [v["video_id"] for v in kept] == ["video0", "video1", "video2", "video3", "video4", "video10", "video11"]
    assert [v["video_id"] for v in first_of_each_split(corpus, 0.01)] == ["video0", "video10"]  # one at least


def test_a_whole_scale_copies_every_video_and_a_fraction_once():
    corpus = videos("train", range(4))
    assert copies_and_videos(corpus, 3) == (3, corpus)
    assert copies_and_videos(corpus, 0.5) == (1, corpus[:2])
    with pytest.raises(ValueError):
        copies_and_videos(corpus, 2.5)


def run(seconds, cpu, captions, peak, worker_peak):
    return {"seconds": seconds, "cpu_seconds": cpu, "captions": captions, "peak_mib": peak,
            "worker_peak_mib": worker_peak}


def test_ratios_compare_per_caption_across_scales_and_engines():
    runs = {(1, "fnapi"): run(100, 200, 1000, 1000, 500), (1, "dask"): run(150, 300, 1000, 1200, 400),
            (10, "fnapi"): run(1100, 2000, 10000, 3000, 600), (10, "dask"): run(1500, 2600, 10000, 1300, 400)}
    ratios = scale_ratios(runs, [1, 10])
    assert ratios["growth"]["fnapi"] == pytest.approx({"wall_per_caption": 1.1, "cpu_per_caption": 1.0,
                                                       "worker_peak": 1.2, "peak": 3.0})
    assert ratios["growth"]["dask"]["cpu_per_caption"] == pytest.approx(2600 / 3000)
    assert ratios["dask_over_fnapi_cpu"] == pytest.approx({1: 1.5, 10: 1.3})


def test_ratios_leave_out_an_engine_not_run_at_both_scales():
    runs = {(1, "fnapi"): run(100, 200, 1000, 1000, 500), (10, "fnapi"): run(1000, 2000, 10000, 2000, 500),
            (1, "dask"): run(150, 300, 1000, 1200, 400)}
    ratios = scale_ratios(runs, [1, 10])
    assert set(ratios["growth"]) == {"fnapi"}
    assert ratios["dask_over_fnapi_cpu"] == pytest.approx({1: 1.5})


def test_process_roles_from_the_command_line():
    assert process_role("/venv/bin/python /venv/bin/capclean clean", is_root=True) == "driver"
    assert process_role("/venv/bin/python -m pipelines.runtime.sdk_worker", is_root=False) == "sdk worker"
    assert process_role("python -c from multiprocessing.spawn import spawn_main; spawn_main(tracker_fd=5)",
                        is_root=False) == "dask worker"
    assert process_role("python -c from multiprocessing.resource_tracker import main;main(4)",
                        is_root=False) == "resource tracker"


def test_processes_summed_by_role_with_the_largest_peak():
    seen = {1: {"role": "driver", "cpu_seconds": 3.0, "peak_bytes": 100 * 2**20},
            2: {"role": "dask worker", "cpu_seconds": 5.0, "peak_bytes": 300 * 2**20},
            3: {"role": "dask worker", "cpu_seconds": 7.0, "peak_bytes": 200 * 2**20}}
    assert summarise_processes(seen) == {
        "driver": {"processes": 1, "cpu_seconds": 3.0, "peak_mib": 100.0, "peak_mib_sum": 100.0},
        "dask worker": {"processes": 2, "cpu_seconds": 12.0, "peak_mib": 300.0, "peak_mib_sum": 500.0}}


def test_outputs_compared_by_file_and_a_changed_commit_named(capsys):
    from benchmarks.bench_scale import compare_outputs

    reference = {"digest": {"captions/part-0.parquet": "a", "stats.json": "s"}, "commit": "c1"}
    same_bytes = {"digest": {"captions/part-0.parquet": "a", "stats.json": "s"}, "commit": "c1"}
    assert compare_outputs({(1, "fnapi"): reference, (1, "dask"): same_bytes}, [1])
    assert "1x dask vs fnapi: 2 files, byte-identical" in capsys.readouterr().out

    other_commit = {"digest": {"captions/part-0.parquet": "b", "stats.json": "s"}, "commit": "c2"}
    assert not compare_outputs({(1, "fnapi"): reference, (1, "dask"): other_commit}, [1])
    printed = capsys.readouterr().out
    assert "DIFFERENT: captions/part-0.parquet" in printed and "stats.json" not in printed.split("DIFFERENT")[1]
    assert "different commits, c1 and c2" in printed


def test_the_scratch_folder_is_removed_unless_kept(tmp_path, capsys):
    from benchmarks.bench_scale import scratch_folder

    with scratch_folder(str(tmp_path), keep=False) as scratch:
        (Path(scratch) / "out").mkdir()
    assert not Path(scratch).exists()
    assert capsys.readouterr().out == ""

    with scratch_folder(str(tmp_path), keep=True) as kept:
        (Path(kept) / "out").mkdir()
    assert (Path(kept) / "out").is_dir() and Path(kept).parent == tmp_path
    assert f"kept in {kept}" in capsys.readouterr().out


def test_the_runs_load_this_checkout_first(monkeypatch):
    import os

    from benchmarks.bench_scale import REPO, checkout_env

    monkeypatch.setenv("PYTHONPATH", f"/elsewhere{os.pathsep}")
    assert checkout_env()["PYTHONPATH"].split(os.pathsep) == [str(REPO), "/elsewhere"]
    monkeypatch.delenv("PYTHONPATH")
    assert checkout_env()["PYTHONPATH"] == str(REPO)
