"""Small server-rendered SVG charts for the statistics pages.

Each function returns inline SVG (safe markup, every label escaped) with a ``<title>``
per mark; the page also prints the same numbers as a table, so nothing is only visual.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

WIDTH = 560
ROW = 22
LABEL = 150
POSITIVE, NEGATIVE, NEUTRAL = "#2e7d32", "#c62828", "#546e7a"


def _svg(height: int, body: list[str], title: str) -> SafeString:
    return mark_safe(  # every text inside went through escape()
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}" role="img" aria-label="{escape(title)}">'
        f"<title>{escape(title)}</title>{''.join(body)}</svg>"
    )


def bars(items: Sequence[tuple[str, float]], title: str, percent: bool = False) -> SafeString:
    """Horizontal bars from 0, one per (label, value); negative values go left."""
    if not items:
        return _svg(ROW, ['<text x="4" y="15" font-size="12">—</text>'], title)
    low = min(0.0, *(v for _, v in items))
    high = max(0.0, *(v for _, v in items)) or 1.0
    span = (high - low) or 1.0
    plot = WIDTH - LABEL - 60
    zero = LABEL + plot * (-low / span)
    body = []
    for i, (label, value) in enumerate(items):
        y = i * ROW
        x0, x1 = sorted((zero, zero + plot * value / span))
        text = f"{value:.0%}" if percent else f"{value:g}"
        color = NEGATIVE if value < 0 else POSITIVE if value > 0 else NEUTRAL
        body.append(
            f'<text x="{LABEL - 6}" y="{y + 15}" font-size="12" text-anchor="end">'
            f"{escape(label)}</text>"
            f'<rect x="{x0:.1f}" y="{y + 4}" width="{max(x1 - x0, 1):.1f}" height="{ROW - 8}" '
            f'fill="{color}"><title>{escape(label)}: {escape(text)}</title></rect>'
            f'<text x="{x1 + 4:.1f}" y="{y + 15}" font-size="11">{escape(text)}</text>'
        )
    return _svg(ROW * len(items), body, title)


def waterfall(parts: Sequence[tuple[str, int]], total_label: str, title: str) -> SafeString:
    """Each part as a step from the running total, then the total bar (the net)."""
    running = [0]
    for _, value in parts:
        running.append(running[-1] + value)
    low, high = min(running), max(running)
    span = (high - low) or 1
    plot = WIDTH - LABEL - 60

    def x(v: float) -> float:
        return LABEL + plot * (v - low) / span

    body = []
    steps = [
        *((label, running[i], running[i + 1]) for i, (label, _) in enumerate(parts)),
        (total_label, 0, running[-1]),
    ]
    for i, (label, start, end) in enumerate(steps):
        y = i * ROW
        x0, x1 = sorted((x(start), x(end)))
        color = NEUTRAL if i == len(parts) else NEGATIVE if end < start else POSITIVE
        amount = end - start
        body.append(
            f'<text x="{LABEL - 6}" y="{y + 15}" font-size="12" text-anchor="end">'
            f"{escape(label)}</text>"
            f'<rect x="{x0:.1f}" y="{y + 4}" width="{max(x1 - x0, 1):.1f}" height="{ROW - 8}" '
            f'fill="{color}"><title>{escape(label)}: {amount:+d}</title></rect>'
            f'<text x="{x1 + 4:.1f}" y="{y + 15}" font-size="11">{amount:+d}</text>'
        )
    return _svg(ROW * len(steps), body, title)


def line(points: Sequence[tuple[str, float]], title: str) -> SafeString:
    """A polyline over the periods (labels along the bottom, first and last only)."""
    height, pad = 140, 24
    if not points:
        return _svg(ROW, ['<text x="4" y="15" font-size="12">—</text>'], title)
    values = [v for _, v in points]
    low, high = min(0.0, *values), max(0.0, *values)
    span = (high - low) or 1.0
    step = (WIDTH - 2 * pad) / max(len(points) - 1, 1)

    def y(v: float) -> float:
        return pad + (height - 2 * pad) * (high - v) / span

    coords = [(pad + i * step, y(v)) for i, v in enumerate(values)]
    path = " ".join(f"{cx:.1f},{cy:.1f}" for cx, cy in coords)
    body = [
        f'<line x1="{pad}" x2="{WIDTH - pad}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="#bbb"/>',
        f'<polyline points="{path}" fill="none" stroke="{NEUTRAL}" stroke-width="2"/>',
    ]
    for (cx, cy), (label, value) in zip(coords, points, strict=True):
        body.append(
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="3" fill="{NEUTRAL}">'
            f"<title>{escape(label)}: {value:g}</title></circle>"
        )
    body.append(f'<text x="{pad}" y="{height - 4}" font-size="11">{escape(points[0][0])}</text>')
    body.append(
        f'<text x="{WIDTH - pad}" y="{height - 4}" font-size="11" text-anchor="end">'
        f"{escape(points[-1][0])}</text>"
    )
    return _svg(height, body, title)
