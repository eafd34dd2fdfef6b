"""Direct Assessment of captions (issue 39; Graham, Awad and Smeaton, PLOS ONE 2018): the pure cores of
`capclean da prepare` (degrade.py: the degraded copies; hits.py: the HITs and their hidden checks) and of
`capclean da score`. No Beam, no pipelines/."""
