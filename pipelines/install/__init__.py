"""Installing what capclean reads from the system: WordNet for NLTK (make install runs it)."""
