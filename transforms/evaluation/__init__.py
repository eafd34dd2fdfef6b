"""The evaluation layer: pure functions the evaluation commands share."""
