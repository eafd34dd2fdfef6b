"""`capclean da prepare` (prepare/) and `capclean da score` (score/): Direct Assessment of captions (issue 39;
docs/commands/da-prepare.md, da-score.md). Their methods are in transforms/da/."""
