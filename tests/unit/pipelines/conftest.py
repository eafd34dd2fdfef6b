"""Fixtures of the pipelines/ tests."""
import json

import pytest

from pipelines.cli import main


class SmallMsrvtt:
    """One small MSR-VTT-format input, in two files like MSR-VTT's and with videos of all three splits."""

    # video number -> (split, category); the numbers lie in the paper profile's split ranges.
    VIDEOS = {1: ("train", 3), 2: ("train", 9), 6513: ("validate", 0), 6600: ("validate", 14),
              7010: ("test", 10), 7500: ("test", 9)}

    CAPTIONS_BY_VIDEO = {
        1: ["a man is playing a guitar", "a man is playing a guitar on stage",  # near-duplicates: one goes
            "a man (offscreen) plays the vedio game"],                          # cleaned by steps I and II
        2: ["a woman & her dog walk in the park", "two dogs run on a beach"],
        6513: ["a chef cooks pasta in a kitchen", "someone is cooking", "..."],  # "..." ends up empty: removed
        6600: ["a car drives down a road", "a red car is racing"],
        7010: ["people dance at a party", "a crowd is dancing to music"],
        7500: ["a cat sleeps on a sofa", "a kitten is sleeping", "a cat naps in the sun"],
    }

    @classmethod
    def video_record(cls, number):
        split, category = cls.VIDEOS[number]
        # The extra fields of MSR-VTT's records, which the msrvtt-json export must keep as they were.
        return {"category": category, "url": f"https://example.org/{number}", "video_id": f"video{number}",
                "start time": 1.5, "end time": 11.5, "split": split, "id": number}

    @classmethod
    def write(cls, folder):
        """Two MSR-VTT-format files (train and validate; test), as the real dataset comes; returns the folder."""
        folder.mkdir(parents=True, exist_ok=True)
        sen_ids = iter(range(1000))
        files = {"a_train_val_videodatainfo.json": [1, 2, 6513, 6600], "b_test_videodatainfo.json": [7010, 7500]}
        for index, (name, numbers) in enumerate(files.items()):
            sentences = [{"caption": caption, "video_id": f"video{number}", "sen_id": next(sen_ids)}
                         for number in numbers for caption in cls.CAPTIONS_BY_VIDEO[number]]
            info = {"contributor": "capclean tests", "version": f"file {index}"}
            document = {"info": info, "videos": [cls.video_record(number) for number in numbers],
                        "sentences": sentences}
            (folder / name).write_text(json.dumps(document))
        return folder


@pytest.fixture(scope="session")
def small_msrvtt():
    """SmallMsrvtt: .write(folder), .video_record(number), .VIDEOS, .CAPTIONS_BY_VIDEO."""
    return SmallMsrvtt


@pytest.fixture(scope="module")
def small_msrvtt_run(tmp_path_factory, small_msrvtt):
    """(input folder, output folder) of one paper-profile run of the small MSR-VTT input, cleaned by the
    command line; one run per test module."""
    base = tmp_path_factory.mktemp("small-msrvtt")
    source, output = small_msrvtt.write(base / "in"), base / "out"
    assert main(["clean", "--input", str(source), "--output", str(output), "--profile", "paper"]) == 0
    return source, output
