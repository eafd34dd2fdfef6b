"""The evaluation layer: pure functions the evaluation commands (hard negatives/PoSRank,
semantic relevance/nDCG, benchmark validity/FIRE, Direct Assessment) share. Nothing here
reads files or runs Beam; each function takes plain Python or numpy values and returns a number
or an array, so a figure on a docs page can be traced to one definition and one test.
"""
