"""capclean posrank: PoSRank of a model's scores on capclean hardneg's negatives (Chen et al. 2024)."""
