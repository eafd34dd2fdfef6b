"""The Beam runtime: the runner and its flags (runner), the DaskRunner, the SDK worker process, progress
lines, logs, busy-time counters, and worker errors turned back into one line."""
