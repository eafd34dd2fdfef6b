"""capclean baseline: the text-only baseline's similarity matrix on a protocol (1k-A, full-test, custom)."""
