"""capclean relevance: graded relevance of every (video, caption) pair (Wray et al. 2021)."""
