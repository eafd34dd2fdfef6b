"""capclean overlap: train/test overlap and false-negative candidates (Rodriguez et al. 2022)."""
