"""Table schemas (pyarrow) and the expectation suites that check the written output."""
