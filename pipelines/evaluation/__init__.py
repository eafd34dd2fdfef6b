"""The evaluation commands, one package each (its command module, its run, its page); what they
share: their input captions (caption_input), their output folder (evaluation_io), table cells (table_cells).
Their methods are Beam-free, in transforms/evaluation/."""
