"""The evaluation layer: what the evaluation commands (hard negatives and PoSRank, semantic
relevance and nDCG, benchmark validity and FIRE, Direct Assessment) share.

`metrics` holds the ranking metrics, pure functions of plain Python or numpy values, so a
figure on a docs page can be traced to one definition and one test. `lexicon` reads WordNet
(installed by `make install`) and re-inflects words.
"""
