"""The pipeline's source: MSR-VTT-format annotation files read into one VideoBatch per video.

What a record becomes, and why one is unusable, is transforms/read.py; this module
only spreads that work over the runner.
"""
import apache_beam as beam

from transforms.annotation_stream import SizeLimits
from transforms.read import (NO_LIMITS, CaptionLimits, assemble_group, read_video_parts, records_in,
                             repeated_sen_ids, sen_ids_by_range, video_order)
from pipelines.cleaning.batch_coder import VideoBatch
from pipelines.runtime.timing import busy_timer


class ReadAnnotationFileFn(beam.DoFn):
    """One annotation file -> ("part", video_id, VideoPart) for each video it names,
    ("sen_ids", range, records) for each range of sen_ids it holds, and ("records", file_index,
    count): how many caption records it holds, usable or not.

    One stream of three kinds, split by filters, rather than tagged outputs, which
    some runners do not separate.
    """

    def __init__(self, limits: CaptionLimits = NO_LIMITS, size_limits: SizeLimits = SizeLimits()):
        self._limits = limits
        self._size_limits = size_limits

    def process(self, indexed_source):
        file_index, source = indexed_source
        with busy_timer("read"):
            parts = read_video_parts(source, file_index, self._limits, self._size_limits)
        for video_id, part in parts.items():
            yield "part", video_id, part
            for sen_id_range, records in sen_ids_by_range(video_id, part):
                yield "sen_ids", sen_id_range, records
        yield "records", file_index, sum(records_in(part) for part in parts.values())


class ReadMsrVtt(beam.PTransform):
    """MSR-VTT-format annotation files -> {"videos": one VideoBatch per video id (sentences of unknown
    videos included), "records_in_files": the one-element count of caption records the files hold}.

    Each file is one element, so files are read in parallel and no worker holds more
    than one. Repeated sen_ids are found by grouping the ids by range. The count is taken in the
    files, apart from the videos, so that the run can check that every record read reaches its end
    (finalize.py): a runner can lose elements without an error.
    """

    def __init__(self, sources, limits: CaptionLimits = NO_LIMITS, size_limits: SizeLimits = SizeLimits()):
        super().__init__()
        self._sources = list(sources)
        self._limits = limits
        self._size_limits = size_limits

    def expand(self, pipeline):
        read = (
            pipeline
            | "AnnotationFiles" >> beam.Create(list(enumerate(self._sources)))
            | "ReadAnnotationFile" >> beam.ParDo(ReadAnnotationFileFn(self._limits, self._size_limits))
        )
        parts = (
            read
            | "VideoParts" >> beam.Filter(lambda item: item[0] == "part")
            | "KeyPartsByVideo" >> beam.Map(lambda item: (item[1], item[2]))
        )
        repeated = (
            read
            | "SenIdRanges" >> beam.Filter(lambda item: item[0] == "sen_ids")
            | "KeyBySenIdRange" >> beam.Map(lambda item: (item[1], item[2]))
            | "GroupBySenIdRange" >> beam.GroupByKey()
            | "RepeatedSenIds" >> beam.FlatMapTuple(
                lambda _, groups: repeated_sen_ids(record for records in groups for record in records))
            | "KeyRepeatsByVideo" >> beam.Map(lambda repeat: (repeat.video_id, repeat))
        )
        videos = (
            (parts, repeated)
            | "PartsAndRepeats" >> beam.Flatten()
            | "GroupByVideo" >> beam.GroupByKey()
            | "AssembleVideos" >> beam.MapTuple(assemble_group).with_output_types(VideoBatch)
        )
        records_in_files = (
            read
            | "RecordCounts" >> beam.Filter(lambda item: item[0] == "records")
            | "RecordCount" >> beam.Map(lambda item: item[2])
            | "RecordsInFiles" >> beam.CombineGlobally(sum)
        )
        return {"videos": videos, "records_in_files": records_in_files}


def first_videos(videos, limit: int):
    """VideoBatch -> (the batches of the first `limit` video ids in natural order (video2 before
    video10), figures) for `--limit`; records without a usable video_id are left out with the other
    videos. `figures`: the one-element PCollections stats.json reports under `limit/`: the limit and
    the number of video ids the input has."""
    ids = (videos
           | "LimitVideoIds" >> beam.Map(lambda batch: batch.video_id)
           | "LimitWithVideoId" >> beam.Filter(bool))
    first = (ids
             | "LimitFirstIds" >> beam.combiners.Top.Of(limit, key=video_order, reverse=True)
             | "LimitAsSet" >> beam.Map(frozenset))
    kept = videos | "LimitKeepFirst" >> beam.Filter(lambda batch, keep: batch.video_id in keep,
                                                    beam.pvalue.AsSingleton(first))
    figures = {"limit/videos": videos.pipeline | "LimitValue" >> beam.Create([limit]),
               "limit/videos_in_input": ids | "LimitCountIds" >> beam.combiners.Count.Globally()}
    return kept, figures
