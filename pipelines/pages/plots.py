"""Matplotlib plots inside a page: drawn with no display, embedded as PNG data: URIs, so the page loads nothing.

A module that plots takes `plt` from here rather than importing pyplot itself: the backend must be
chosen before pyplot is first imported, and this is the one place that does it.
"""
import base64
import io

import matplotlib

matplotlib.use("Agg")  # no display: render straight to PNG bytes

import matplotlib.pyplot as plt  # noqa: E402  (must come after matplotlib.use)

from pipelines.pages.html import esc  # noqa: E402

__all__ = ["embed_figure", "plt"]


def embed_figure(fig, alt: str) -> str:
    """The figure as an <img> holding its PNG; the figure is closed."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f"<img class='plot' alt='{esc(alt)}' src='data:image/png;base64,{data}'>"
