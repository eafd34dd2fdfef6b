"""Videos cross the pipeline's stages packed (pipelines/runtime/packing.py, pipelines/cleaning/batch_coder.py)."""
import pickle

import pytest

from pipelines.cleaning.batch_coder import VideoBatchCoder
from pipelines.runtime.packing import pack, unpack
from pipelines.cli import main
from transforms.batch import Caption, VideoBatch
from transforms.lineage import EditRow


def a_video() -> VideoBatch:
    captions = [Caption(sen_id, f"a man is playing a guitar on stage number {sen_id}") for sen_id in range(20)]
    edits = [EditRow(3, "video7", "normalize", "special_characters", "a man @ stage", "a man stage")]
    return VideoBatch("video7", "train", 12, captions, input_records=21, edits=edits)


def test_pack_gives_back_what_it_was_given_in_fewer_bytes():
    rows = a_video().captions
    packed = pack(rows)
    assert unpack(packed) == rows
    assert len(packed) < len(pickle.dumps(rows, protocol=pickle.HIGHEST_PROTOCOL)) / 2


def test_the_coder_gives_back_an_equal_video():
    coder = VideoBatchCoder()
    video = a_video()
    decoded = coder.decode(coder.encode(video))
    assert decoded == video and decoded is not video
    assert decoded.input_records == 21 and decoded.edits[0].before == "a man @ stage"


def refuse_pickling(self, protocol):
    raise AssertionError(f"a VideoBatch ({self.video_id}) was pickled as an object, not packed by VideoBatchCoder")


@pytest.mark.parametrize("profile", ["default", "paper"])
def test_every_video_crosses_every_stage_of_a_cleaning_packed(tmp_path, monkeypatch, tiny_dataset, files_digest,
                                                              profile):
    """Beam picks the coder by element type: a transform that outputs videos without saying so would hand them
    to its fallback, pickle, which this run refuses. The output is the one the same run writes unpatched."""
    source = tiny_dataset(tmp_path / "in")
    assert main(["clean", "--input", str(source), "--output", str(tmp_path / "plain"), "--profile", profile]) == 0
    monkeypatch.setattr(VideoBatch, "__reduce_ex__", refuse_pickling)
    with pytest.raises(AssertionError, match="pickled as an object"):
        pickle.dumps(a_video())
    assert main(["clean", "--input", str(source), "--output", str(tmp_path / "packed"), "--profile", profile]) == 0
    assert files_digest(tmp_path / "packed") == files_digest(tmp_path / "plain")
