"""Small server-rendered SVG charts for the statistics pages.

Each function returns inline SVG (safe markup, every label escaped) with a ``<title>``
per mark; the page also prints the same numbers as a table, so nothing is only visual.

The charts scale with the page (CSS ``svg.chart``: full width up to a bound), so they are
drawn narrow enough to keep their text readable on a phone (390 px): each bar's label sits
on its own line above the bar, which leaves the whole width to long or Chinese labels
instead of clipping them in a fixed label column.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

WIDTH = 400
ROW = 38  # a label line, the bar under it, a gap
BAR = 12
VALUE_ROOM = 56  # right of the plot, for the value printed after the longest bar
LABEL_SIZE, VALUE_SIZE = 14, 12
POSITIVE, NEGATIVE, NEUTRAL, AXIS = "#2e7d32", "#c62828", "#546e7a", "#9e9e9e"


def _svg(height: int, body: list[str], title: str) -> SafeString:
    return mark_safe(  # every text inside went through escape()
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}" role="img" aria-label="{escape(title)}">'
        f"<title>{escape(title)}</title>{''.join(body)}</svg>"
    )


def signed(amount: int) -> str:
    """Money with its sign, +12 or -3 (0 unsigned)."""
    return f"{amount:+d}" if amount else "0"


def _empty(title: str) -> SafeString:
    return _svg(ROW, [f'<text x="0" y="{LABEL_SIZE + 2}" font-size="{LABEL_SIZE}">—</text>'], title)


def _scale(low: float, high: float) -> Callable[[float], float]:
    """Value → x over the plot (0 … WIDTH - VALUE_ROOM), ``low`` and ``high`` at its ends."""
    span = (high - low) or 1.0
    plot = WIDTH - VALUE_ROOM
    return lambda v: plot * (v - low) / span


def _row(i: int, label: str, start: float, end: float, color: str, text: str) -> str:
    """One labelled bar from x ``start`` to x ``end``, its value printed after it."""
    y = i * ROW
    x0, x1 = sorted((start, end))
    return (
        f'<text x="0" y="{y + LABEL_SIZE}" font-size="{LABEL_SIZE}">{escape(label)}</text>'
        f'<rect x="{x0:.1f}" y="{y + 20}" width="{max(x1 - x0, 1):.1f}" height="{BAR}" '
        f'fill="{color}"><title>{escape(label)}: {escape(text)}</title></rect>'
        f'<text x="{x1 + 4:.1f}" y="{y + 20 + BAR - 2}" font-size="{VALUE_SIZE}">'
        f"{escape(text)}</text>"
    )


def _axis(x: float, height: int) -> str:
    return f'<line x1="{x:.1f}" x2="{x:.1f}" y1="16" y2="{height}" stroke="{AXIS}"/>'


def bars(items: Sequence[tuple[str, float]], title: str, percent: bool = False) -> SafeString:
    """Horizontal bars from 0, one per (label, value); negative values go left."""
    if not items:
        return _empty(title)
    x = _scale(min(0.0, *(v for _, v in items)), max(0.0, *(v for _, v in items)) or 1.0)
    body = [_axis(x(0), ROW * len(items))]
    for i, (label, value) in enumerate(items):
        color = NEGATIVE if value < 0 else POSITIVE if value > 0 else NEUTRAL
        text = f"{value:.0%}" if percent else f"{value:g}"
        body.append(_row(i, label, x(0), x(value), color, text))
    return _svg(ROW * len(items), body, title)


def waterfall(parts: Sequence[tuple[str, int]], total_label: str, title: str) -> SafeString:
    """Each part as a step from the running total, then the total bar (the net); a dashed
    line carries each running total down to the next step."""
    running = [0]
    for _, value in parts:
        running.append(running[-1] + value)
    x = _scale(min(running), max(running))
    steps = [
        *((label, running[i], running[i + 1]) for i, (label, _) in enumerate(parts)),
        (total_label, 0, running[-1]),
    ]
    height = ROW * len(steps)
    body = [_axis(x(0), height)]
    for i, (label, start, end) in enumerate(steps):
        color = NEUTRAL if i == len(parts) else NEGATIVE if end < start else POSITIVE
        body.append(_row(i, label, x(start), x(end), color, signed(end - start)))
        if i < len(parts):
            body.append(
                f'<line x1="{x(end):.1f}" x2="{x(end):.1f}" y1="{i * ROW + 20 + BAR}" '
                f'y2="{(i + 1) * ROW + 20}" stroke="{AXIS}" stroke-dasharray="2 2"/>'
            )
    return _svg(height, body, title)


def line(points: Sequence[tuple[str, float]], title: str) -> SafeString:
    """A polyline over the periods: the zero line, the highest and lowest values along the
    left, the first and last period along the bottom."""
    height, top, bottom, left, right = 170, 12, 24, 44, 12
    if not points:
        return _empty(title)
    values = [v for _, v in points]
    low, high = min(0.0, *values), max(0.0, *values)
    span = (high - low) or 1.0
    step = (WIDTH - left - right) / max(len(points) - 1, 1)

    def y(v: float) -> float:
        return top + (height - top - bottom) * (high - v) / span

    coords = [(left + i * step, y(v)) for i, v in enumerate(values)]
    path = " ".join(f"{cx:.1f},{cy:.1f}" for cx, cy in coords)
    body = [
        f'<line x1="{left}" x2="{WIDTH - right}" y1="{y(0):.1f}" y2="{y(0):.1f}" '
        f'stroke="{AXIS}"/>',
        f'<polyline points="{path}" fill="none" stroke="{NEUTRAL}" stroke-width="2"/>',
    ]
    # a bound too near the zero line would print over its "0"
    marks = [0.0, *(m for m in {low, high} - {0.0} if abs(y(m) - y(0)) >= VALUE_SIZE + 2)]
    for mark in marks:
        body.append(
            f'<text x="{left - 6}" y="{y(mark) + 4:.1f}" font-size="{VALUE_SIZE}" '
            f'text-anchor="end">{mark:g}</text>'
        )
    for (cx, cy), (label, value) in zip(coords, points, strict=True):
        body.append(
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="3" fill="{NEUTRAL}">'
            f"<title>{escape(label)}: {value:g}</title></circle>"
        )
    body.append(
        f'<text x="{left}" y="{height - 6}" font-size="{VALUE_SIZE}">{escape(points[0][0])}</text>'
    )
    body.append(
        f'<text x="{WIDTH - right}" y="{height - 6}" font-size="{VALUE_SIZE}" '
        f'text-anchor="end">{escape(points[-1][0])}</text>'
    )
    return _svg(height, body, title)
