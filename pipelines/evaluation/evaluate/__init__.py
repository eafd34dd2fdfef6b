"""capclean evaluate: R@K, MdR and MnR of a retrieval model's similarity matrix on a protocol (1k-A, full-test,
custom)."""
