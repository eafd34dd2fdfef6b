"""How much the proxies of a `capclean relevance` output agree: Spearman's rho per video.

    nice -n 10 python benchmarks/proxy_agreement.py --relevance DIR [--direction v2t] [--json FILE]

For each pair of proxies in DIR/relevance/ (bow, pos, syn, and met when there), the rank
correlation of the two relevances each video gives every caption (the paper's Fig. 8 finds
every pair at 0.5 or above on MSR-VTT), summarised as mean, median, minimum and the share of
videos at 0.5 or above (transforms/evaluation/agreement.py). --direction t2v does the same per
caption over the videos.
"""
import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipelines.evaluation.ndcg.inputs import proxy_folders, read_gallery, read_relevance  # noqa: E402
from transforms.evaluation.agreement import proxy_agreement  # noqa: E402
from transforms.evaluation.ndcg import queries  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--relevance", required=True, help="a capclean relevance output")
    parser.add_argument("--direction", choices=["v2t", "t2v"], default="v2t", help="per video (v2t) or per caption")
    parser.add_argument("--json", help="also write the summaries to this JSON file")
    args = parser.parse_args(argv)
    started = time.monotonic()
    folders = proxy_folders(args.relevance)
    gallery = read_gallery(folders)
    matrices = {proxy: queries(read_relevance(folder, gallery), args.direction) for proxy, folder in folders.items()}
    summaries = proxy_agreement(matrices)
    for pair, summary in summaries.items():
        print(f"{pair}: " + ", ".join(f"{key} {value:.3f}" if isinstance(value, float) else f"{key} {value}"
                                      for key, value in summary.items()))
    print(f"{len(gallery.video_ids):,} videos x {len(gallery.sen_ids):,} captions, {time.monotonic() - started:.0f} s")
    if args.json:
        Path(args.json).write_text(json.dumps({"relevance": args.relevance, "direction": args.direction,
                                               "pairs": summaries}, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
