"""Charts of archive statistics, drawn with matplotlib (PNG or SVG by the file's suffix)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def plot_points(points: list[dict[str, Any]], path: Path) -> None:
    """A bar chart of how many deals the winner won with 0-9, 10-19, ... points."""
    import matplotlib
    matplotlib.use("Agg")  # no display: write files only
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4))
    ax.bar([p["points_from"] for p in points], [p["deals"] for p in points], width=9, align="edge")
    ax.set_xlabel("winner's total (points, in bins of 10)")
    ax.set_ylabel("deals")
    ax.set_title("Distribution of deal points")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
