"""capclean hardneg: single-word hard negatives of a split's captions (Chen et al. 2024)."""
