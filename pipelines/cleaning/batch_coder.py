"""How a video travels between the pipeline's stages: pickled, then compressed.

The FnApiRunner holds every stage's output in its driver, and copies a stage's input several times on
the way to a worker (into one stream per worker, then into the message that carries it). At 10 times
MSR-VTT the videos alone are about 380 MiB pickled, so those copies set the driver's peak. Compressed
with zstd at level 1 they take a third of that, for about as much CPU as Beam's own pickling saves by
being skipped (docs/benchmarks.md). Nothing a step sees changes: it gets the same VideoBatch back.

Beam chooses a PCollection's coder from its element type, so every transform that outputs videos
declares it (`.with_output_types(VideoBatch)`); `tests/unit/pipelines/test_batch_coder.py` fails a
cleaning run if a video crosses a stage any other way.
"""
import pickle
from dataclasses import fields

import apache_beam as beam
import pyarrow as pa

from transforms.batch import VideoBatch

# Level 1: most of zstd's gain at a small part of its cost; a higher level saves little on these texts.
_ZSTD_LEVEL = 1
_SIZE_BYTES = 8  # the uncompressed size, which pyarrow's decompress needs, goes first


def pack(value) -> bytes:
    """`value` pickled and compressed (zstd), for a stage boundary."""
    payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    compressed = pa.Codec("zstd", compression_level=_ZSTD_LEVEL).compress(payload, asbytes=True)
    return len(payload).to_bytes(_SIZE_BYTES, "little") + compressed


def unpack(data: bytes):
    """The value `pack` was given."""
    size = int.from_bytes(data[:_SIZE_BYTES], "little")
    payload = pa.Codec("zstd").decompress(data[_SIZE_BYTES:], decompressed_size=size, asbytes=True)
    return pickle.loads(payload)


_FIELD_NAMES = tuple(field.name for field in fields(VideoBatch))


class VideoBatchCoder(beam.coders.Coder):
    """A VideoBatch as its fields' values, packed. The batch object itself is never pickled, so that a
    test can tell this coder from Beam's fallback (pickle) by making VideoBatch refuse to be pickled."""

    def encode(self, batch: VideoBatch) -> bytes:
        return pack(tuple(getattr(batch, name) for name in _FIELD_NAMES))

    def decode(self, data: bytes) -> VideoBatch:
        return VideoBatch(*unpack(data))

    def is_deterministic(self) -> bool:
        # Videos are never keys, so their bytes need not be the same from run to run.
        return False


beam.coders.registry.register_coder(VideoBatch, VideoBatchCoder)
