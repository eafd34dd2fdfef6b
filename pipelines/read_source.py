"""The pipeline's source: MSR-VTT-format annotation files read into one VideoBatch per video.

What a record becomes, and why one is unusable, is transforms/read.py; this module
only spreads that work over the runner.
"""
import apache_beam as beam

from transforms.read import (NO_LIMITS, CaptionLimits, assemble_group, load_annotations, repeated_sen_ids,
                             sen_ids_by_range, split_into_video_parts)


class ReadAnnotationFileFn(beam.DoFn):
    """One annotation file -> ("part", video_id, VideoPart) for each video it names, and
    ("sen_ids", range, records) for each range of sen_ids it holds.

    One stream of two kinds, split by filters, rather than tagged outputs, which
    some runners do not separate.
    """

    def __init__(self, limits: CaptionLimits = NO_LIMITS):
        self._limits = limits

    def process(self, indexed_source):
        file_index, source = indexed_source
        for video_id, part in split_into_video_parts(load_annotations(source), file_index, self._limits).items():
            yield "part", video_id, part
            for sen_id_range, records in sen_ids_by_range(video_id, part):
                yield "sen_ids", sen_id_range, records


class ReadMsrVtt(beam.PTransform):
    """MSR-VTT-format annotation files -> one VideoBatch per video id (sentences of unknown videos included).

    Each file is one element, so files are read in parallel and no worker holds more
    than one. Repeated sen_ids are found by grouping the ids by range.
    """

    def __init__(self, sources, limits: CaptionLimits = NO_LIMITS):
        super().__init__()
        self._sources = list(sources)
        self._limits = limits

    def expand(self, pipeline):
        read = (
            pipeline
            | "AnnotationFiles" >> beam.Create(list(enumerate(self._sources)))
            | "ReadAnnotationFile" >> beam.ParDo(ReadAnnotationFileFn(self._limits))
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
        return (
            (parts, repeated)
            | "PartsAndRepeats" >> beam.Flatten()
            | "GroupByVideo" >> beam.GroupByKey()
            | "AssembleVideos" >> beam.MapTuple(assemble_group)
        )
