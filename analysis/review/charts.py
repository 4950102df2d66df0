"""The match page's score chart: each player's running total across the rounds, drawn
on the server as SVG (the statistics' charts, analysis/stats/charts.py, draw one series).

The chart scales with the page like the others (CSS ``svg.chart``); its legend is HTML
beside it (names can be long or Chinese) and the totals are printed in a table, so
nothing is only visual. Colours are told apart without red-green (Okabe–Ito), each line
also has its own dash so that a print in grey keeps them apart.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

WIDTH, HEIGHT = 400, 200
TOP, BOTTOM, LEFT, RIGHT = 12, 24, 44, 12
TEXT_SIZE = 12
AXIS, GRID = "#9e9e9e", "#e0e0e0"
#: one colour and dash per seat, in seat order (site.css gives the legend the same)
COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7")
DASHES = ("", "6 3", "2 3", "8 3 2 3")


def score_chart(lines: Sequence[Sequence[int]], names: Sequence[str], title: str,
                round_label: str) -> SafeString:
    """A line per player over the rounds (point 0 before the first round); ``round_label``
    formats a round's number for the marks' titles ("Round {number}")."""
    values = [v for line in lines for v in line] or [0]
    low, high = min(0, *values), max(0, *values)
    span = (high - low) or 1
    count = max((len(line) for line in lines), default=1)
    step = (WIDTH - LEFT - RIGHT) / max(count - 1, 1)

    def y(v: float) -> float:
        return TOP + (HEIGHT - TOP - BOTTOM) * (high - v) / span

    body = [f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(0):.1f}" y2="{y(0):.1f}" '
            f'stroke="{AXIS}"/>']
    for mark in sorted({low, 0, high}):
        if mark and abs(y(mark) - y(0)) < TEXT_SIZE + 2:
            continue  # would print over the zero line's "0"
        if mark:
            body.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(mark):.1f}" '
                        f'y2="{y(mark):.1f}" stroke="{GRID}"/>')
        body.append(f'<text x="{LEFT - 6}" y="{y(mark) + 4:.1f}" font-size="{TEXT_SIZE}" '
                    f'text-anchor="end">{mark:+d}</text>' if mark else
                    f'<text x="{LEFT - 6}" y="{y(0) + 4:.1f}" font-size="{TEXT_SIZE}" '
                    f'text-anchor="end">0</text>')
    every = max(1, (count - 1 + 9) // 10)  # at most about ten round numbers along the bottom
    for i in range(1, count, every):
        body.append(f'<text x="{LEFT + i * step:.1f}" y="{HEIGHT - 6}" font-size="{TEXT_SIZE}" '
                    f'text-anchor="middle">{i}</text>')
    for seat, line in enumerate(lines):
        body.append(_series(seat, line, names[seat] if seat < len(names) else str(seat),
                            step, y, round_label))
    return mark_safe(  # every text inside went through escape()
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart score-chart" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" role="img" '
        f'aria-label="{escape(title)}"><title>{escape(title)}</title>{"".join(body)}</svg>'
    )


def _series(seat: int, line: Sequence[int], name: str, step: float,
            y: Callable[[float], float], round_label: str) -> str:
    colour, dash = COLOURS[seat % 4], DASHES[seat % 4]
    coords = [(LEFT + i * step, y(v)) for i, v in enumerate(line)]
    points = " ".join(f"{cx:.1f},{cy:.1f}" for cx, cy in coords)
    dashed = f' stroke-dasharray="{dash}"' if dash else ""
    out = [f'<g class="series series-{seat}"><polyline points="{points}" fill="none" '
           f'stroke="{colour}" stroke-width="2"{dashed}/>']
    for i, ((cx, cy), value) in enumerate(zip(coords, line, strict=True)):
        if i == 0:
            continue
        where = round_label.format(number=i)
        out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="2.5" fill="{colour}">'
                   f"<title>{escape(name)}, {escape(where)}: {value:+d}</title></circle>")
    out.append("</g>")
    return "".join(out)
