"""A value packed for a stage boundary: pickled, then compressed with zstd.

The FnApiRunner holds what crosses between stages in its driver, and copies a stage's input on its
way to each worker, so the bytes a value takes there weigh on the driver's peak. Captions and
their lineage compress about three times (docs/benchmarks.md, "Videos packed").
"""
import pickle

import pyarrow as pa

# Level 1, the level measured in docs/benchmarks.md ("Videos packed"): as small as zlib on these texts, in half its time.
_ZSTD_LEVEL = 1
_SIZE_BYTES = 8  # the unpacked size goes first: pyarrow's one-shot decompress needs it


def pack(value) -> bytes:
    """`value` pickled and compressed."""
    payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    compressed = pa.Codec("zstd", compression_level=_ZSTD_LEVEL).compress(payload, asbytes=True)
    return len(payload).to_bytes(_SIZE_BYTES, "little") + compressed


def unpack(data: bytes):
    """The value `pack` was given."""
    size = int.from_bytes(data[:_SIZE_BYTES], "little")
    return pickle.loads(pa.Codec("zstd").decompress(data[_SIZE_BYTES:], decompressed_size=size, asbytes=True))
