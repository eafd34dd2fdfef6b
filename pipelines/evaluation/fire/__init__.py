"""capclean fire: Correct@K and mAP with extra (FIRE) labels (Rodriguez et al. 2022)."""
