"""The statistics pages' SVG charts: every mark and label inside the chart's own box."""

from __future__ import annotations

import re

from analysis.stats import charts

PARTS = [("Own wins", 212), ("Paid for others' wins", -216), ("Kongs", 15),
         ("Ready check", 0), ("Flower pig (hua zhu)", 48)]


def _box(svg: str) -> tuple[float, float]:
    width, height = re.search(r'viewBox="0 0 (\d+) (\d+)"', svg).groups()  # type: ignore[union-attr]
    return float(width), float(height)


def _extent(svg: str) -> tuple[float, float]:
    """The leftmost x and the rightmost x any bar reaches (value texts need VALUE_ROOM)."""
    rects = [(float(x), float(w)) for x, w in re.findall(r'<rect x="([-\d.]+)" y="[-\d.]+" '
                                                          r'width="([-\d.]+)"', svg)]
    texts = [float(x) for x in re.findall(r'<text x="([-\d.]+)"', svg)]
    return min([x for x, _ in rects] + texts), max(x + w for x, w in rects)


def test_the_waterfall_keeps_every_bar_and_label_inside_its_view_box() -> None:
    svg = str(charts.waterfall(PARTS, "Net", "Net by source"))
    width, height = _box(svg)
    left, right = _extent(svg)
    assert left >= 0 and right <= width - charts.VALUE_ROOM
    assert height == charts.ROW * (len(PARTS) + 1)


def test_the_waterfall_ends_on_the_net_and_signs_each_step() -> None:
    svg = str(charts.waterfall(PARTS, "Net", "Net by source"))
    net = sum(v for _, v in PARTS)
    assert f"Net: {charts.signed(net)}</title>" in svg
    assert "Ready check: 0</title>" in svg and "+0" not in svg
    assert "Paid for others&#x27; wins: -216</title>" in svg


def test_the_charts_scale_with_the_page_rather_than_keep_a_fixed_width() -> None:
    for svg in (charts.waterfall(PARTS, "Net", "t"), charts.bars([("a", 0.5)], "t", True),
                charts.line([("2026-01-05", 3), ("2026-01-12", -2)], "t")):
        assert 'class="chart"' in svg and 'viewBox="0 0 ' in svg


def test_bars_label_every_item_with_its_value_as_text() -> None:
    items = [("All sequences (ping hu)", 0.964), ("Pure dragon seven pairs (qing long qi dui)",
                                                  0.009)]
    svg = str(charts.bars(items, "Patterns", percent=True))
    assert ">96%<" in svg and ">1%<" in svg
    assert all(f">{name}</text>" in svg for name, _ in items)
    left, right = _extent(svg)
    assert left >= 0 and right <= _box(svg)[0]


def test_the_line_chart_labels_zero_and_its_ends() -> None:
    svg = str(charts.line([("2026-01-05", 38.0), ("2026-01-12", -15.0)], "Net per period"))
    assert ">0</text>" in svg and ">38</text>" in svg and ">-15</text>" in svg
    assert ">2026-01-05</text>" in svg and ">2026-01-12</text>" in svg


def test_an_empty_chart_shows_a_dash() -> None:
    assert ">—</text>" in charts.bars([], "Patterns") and ">—</text>" in charts.line([], "t")
