"""capclean ndcg: nDCG and mAP against the graded relevance of capclean relevance (Wray et al. 2021)."""
