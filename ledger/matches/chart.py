"""The geometry of the match chart: each player's cumulative total by hand, as plain SVG.

``build_chart`` turns the engine's cumulative totals into coordinates, ticks, line
styles and labels; ``templates/match/_chart.html`` draws them with plain SVG elements
and presentation attributes only (no CSS, no script), so the same markup works in a
browser under a strict CSP and in WeasyPrint. Players are told apart without colour:
each has a dash pattern, a marker shape (filled or hollow) and a label at the line's
end, and a legend repeats them.

>>> chart = build_chart(["Asha", "Bikash"], [1, 2], [{"Asha": 41, "Bikash": -41},
...                                              {"Asha": 30, "Bikash": -30}])
>>> [s.name for s in chart.series], chart.series[0].total
(['Asha', 'Bikash'], 30)
>>> [t.label for t in chart.x_ticks]
['0', '1', '2']
"""

from __future__ import annotations

import functools
import math
import unicodedata
from collections.abc import Mapping, Sequence

from msgspec import Struct

from ledger.i18n import signed as shown_signed
from ledger.i18n import tr

WIDTH = 360
PLOT_TOP, PLOT_LEFT, PLOT_HEIGHT = 12, 40, 190
LABEL_SPACE = 78  # right of the plot: the names at the lines' ends
#: The least vertical distance between two end labels: a Devanagari name at the chart's
#: 10 units reaches above its line (ि, ी) and below it (ु, ्र), and 12 let two touch.
LABEL_GAP = 14
LEGEND_ROW = 18
LEGEND_TOP_GAP = 34  # below the plot: the x-axis labels and title
MAX_MARKERS = 24  # more hands than this: a marker on every k-th hand only
#: A longer match is drawn through this many of its hands, evenly spread (the last one
#: always): a 360-unit-wide chart shows no more, and the page stays light.
MAX_POINTS = 40
MAX_X_LABELS = 8
END_LABEL_CHARS = 10
LEGEND_CHARS = 16

#: Distinct in black and white: the n-th player gets the n-th of each.
DASHES = ("", "7 3", "2 3", "10 3 2 3", "4 4", "1 4", "12 4", "6 2 2 2 2 2", "3 6", "8 2 1 2")
SHAPES = ("circle", "square", "triangle", "diamond", "cross")
COLOURS = (
    "#1d1f21",
    "#9b1c31",
    "#1a5fb4",
    "#1d6b3a",
    "#7a4b00",
    "#5b2a86",
    "#005f73",
    "#8a3b12",
    "#3d3d3d",
    "#6b0f5a",
)


class Tick(Struct, frozen=True):
    pos: float  # x or y in the SVG's coordinates
    label: str


class Series(Struct, frozen=True):
    name: str
    total: int
    colour: str
    dash: str  # stroke-dasharray ("" for a solid line)
    hollow: bool  # the marker is drawn hollow (white inside)
    points: str  # polyline points "x,y x,y ..."
    markers: tuple[str, ...]  # path data of each marker
    label_y: float  # the end label's baseline (moved apart from the others)
    end_x: float
    end_y: float
    short_name: str  # the end label
    legend_name: str
    legend_line: str  # path of the legend's sample line
    legend_marker: str
    legend_x: float
    legend_y: float

    @property
    def all_markers(self) -> str:
        """Every marker of the line as the data of one path: they are drawn alike, so one
        element draws them all (a page holds fewer nodes, its template fewer loops)."""
        return " ".join(self.markers)


class Chart(Struct, frozen=True):
    width: int
    height: int
    left: float
    top: float
    right: float
    bottom: float
    zero_y: float
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    series: tuple[Series, ...]

    @property
    def description(self) -> str:
        totals = ", ".join(f"{s.name} {shown_signed(s.total)}" for s in self.series)
        return tr("Each player's total after each hand. Totals now: {totals}.", totals=totals)


def nice_step(span: float, most: int = 5) -> int:
    """A whole step of 1, 2 or 5 × 10^k giving at most ``most`` intervals over ``span``."""
    if span <= 0:
        return 1
    raw = span / most
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return max(1, int(factor * power))
    return max(1, int(10 * power))  # pragma: no cover (the loop always returns)


def marker_path(shape: str, x: float, y: float, r: float = 3.2) -> str:
    """SVG path data of a marker centred on (x, y). Each shape's corners are written in
    one format string: a page draws some eighty markers."""
    if shape == "circle":
        return f"M{x - r:.1f},{y:.1f}{_circle_arcs(r)}"
    if shape == "square":
        s = r * 0.9
        a, b, c, d = x - s, x + s, y - s, y + s
        return f"M{a:.1f},{c:.1f}L{b:.1f},{c:.1f}L{b:.1f},{d:.1f}L{a:.1f},{d:.1f}Z"
    if shape == "triangle":
        low = y + r * 0.8
        return f"M{x:.1f},{y - r * 1.1:.1f}L{x + r:.1f},{low:.1f}L{x - r:.1f},{low:.1f}Z"
    if shape == "diamond":
        a, b, c, d = x - r, x + r, y - r * 1.2, y + r * 1.2
        return f"M{x:.1f},{c:.1f}L{b:.1f},{y:.1f}L{x:.1f},{d:.1f}L{a:.1f},{y:.1f}Z"
    # a cross: two strokes
    west, east = f"{x - r:.1f}", f"{x + r:.1f}"
    return f"M{west},{y - r:.1f}L{east},{y + r:.1f}M{west},{y + r:.1f}L{east},{y - r:.1f}"


@functools.cache
def _circle_arcs(r: float) -> str:
    """A circle marker's two arcs, the same for every marker of its size."""
    return f"a{r},{r} 0 1,0 {2 * r},0a{r},{r} 0 1,0 {-2 * r},0Z"


def spread(wanted: Sequence[float], gap: float, low: float, high: float) -> list[float]:
    """Positions near ``wanted``, at least ``gap`` apart, kept within [low, high] if they fit.

    Labels that would touch form a run, ``gap`` apart, placed where its labels want to be
    on average; a run that then reaches the one before joins it, until none touch (a run
    moved on its own could land on its neighbour: eight names at a phone's chart ends).

    >>> spread([50, 52, 100], 12, 0, 200)
    [45.0, 57.0, 100.0]
    """
    order = sorted(range(len(wanted)), key=lambda i: wanted[i])
    # Each run: (its first label's index in ``order``, how many, the sum of what each
    # label wants less its offset in the run: their mean is the run's best start).
    runs: list[tuple[int, int, float]] = []

    def start(run: tuple[int, int, float]) -> float:
        _, count, total = run
        return float(max(low, min(total / count, high - (count - 1) * gap)))

    for rank, i in enumerate(order):
        run = (rank, 1, float(wanted[i]))
        while runs and start(runs[-1]) + runs[-1][1] * gap > start(run):
            first, count, total = runs.pop()
            run = (first, count + run[1], total + run[2] - count * gap * run[1])
        runs.append(run)
    out = [0.0] * len(order)
    for run in runs:
        first, count, _ = run
        top = round(start(run), 1)  # rounded once: the labels stay exactly ``gap`` apart
        for k in range(count):
            out[order[first + k]] = round(top + k * gap, 1)
    return out


#: The Devanagari virama: a consonant before it joins the next one (न + ् + द is न्द).
VIRAMA = "\u094d"


def short_name(name: str, most: int) -> str:
    """``name`` in at most ``most`` characters, cut with "…" where a letter ends: never
    between a letter and its vowel sign or mark, nor inside a conjunct (a Devanagari name
    cut at "चन्" would end in a half letter).

    >>> short_name("Chandrakanta", 10), short_name("चन्द्रबहादुर", 4), short_name("गीता", 4)
    ('Chandraka…', 'च…', 'गीता')
    """
    if len(name) <= most:
        return name
    cut = most - 1
    while cut > 1 and (unicodedata.category(name[cut])[0] == "M" or name[cut - 1] == VIRAMA):
        cut -= 1
    return name[:cut] + "…"


def running_chart(
    players: Sequence[str], running: Sequence[tuple[int, Sequence[int]]]
) -> Chart | None:
    """The chart of a match's totals after each hand (``MatchView.running``: in seat
    order); None before the first hand.

    >>> running = [(n, (n, -n)) for n in range(1, 101)]
    >>> [t.label for t in running_chart(["Asha", "Bikash"], running).x_ticks][-2:]
    ['88', '100']
    >>> len(running_chart(["Asha", "Bikash"], running).series[0].points.split())
    35
    """
    if not running:
        return None
    step = math.ceil(len(running) / MAX_POINTS)
    picked = list(running[len(running) - 1 :: -step])[::-1]
    return build_chart(
        players,
        [n for n, _ in picked],
        [dict(zip(players, totals, strict=True)) for _, totals in picked],
    )


def build_chart(
    players: Sequence[str],
    hand_numbers: Sequence[int],
    cumulative: Sequence[Mapping[str, int]],
) -> Chart:
    """The chart of ``cumulative[i][player]`` (the total after the i-th hand, numbered
    ``hand_numbers[i]``), starting from 0 before the first hand."""
    columns = [dict.fromkeys(players, 0), *cumulative]
    values = [c[p] for c in columns for p in players]
    low, high = min(0, *values), max(0, *values)
    step = nice_step(high - low)
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step
    if high == low:
        high = low + step

    left, top = PLOT_LEFT, PLOT_TOP
    right, bottom = WIDTH - LABEL_SPACE, PLOT_TOP + PLOT_HEIGHT
    count = len(columns) - 1

    def x_of(i: int) -> float:
        return round(left + (right - left) * (i / count if count else 0), 1)

    def y_of(v: float) -> float:
        return round(bottom - (bottom - top) * (v - low) / (high - low), 1)

    every = max(1, math.ceil(count / (MAX_X_LABELS - 1))) if count else 1
    x_ticks = tuple(
        Tick(x_of(i), "0" if i == 0 else str(hand_numbers[i - 1]))
        for i in range(len(columns))
        if i % every == 0 or i == count
    )
    if len(x_ticks) >= 2 and x_ticks[-1].pos - x_ticks[-2].pos < 14:
        x_ticks = x_ticks[:-2] + x_ticks[-1:]  # the last hand's label wins
    y_ticks = tuple(Tick(y_of(v), shown_signed(v)) for v in range(low, high + step, step))

    marker_every = max(1, math.ceil(count / MAX_MARKERS))
    ends = [y_of(columns[-1][p]) for p in players]
    label_ys = spread([y + 4 for y in ends], LABEL_GAP, top + 4, bottom + 4)
    legend_top = bottom + LEGEND_TOP_GAP
    # The same for every player: each column's x (written once) and the marked columns.
    xs = [x_of(i) for i in range(len(columns))]
    xs_written = [f"{x}," for x in xs]
    marked = [i for i in range(1, len(columns)) if i % marker_every == 0 or i == count]
    series = []
    for n, name in enumerate(players):
        shape = SHAPES[n % len(SHAPES)]
        ys = [y_of(c[name]) for c in columns]
        points = " ".join([f"{x}{y}" for x, y in zip(xs_written, ys, strict=True)])
        markers = tuple(marker_path(shape, xs[i], ys[i]) for i in marked)
        col, row = n % 2, n // 2
        lx = left - 30 + col * (WIDTH - left + 30) / 2
        ly = legend_top + row * LEGEND_ROW
        series.append(
            Series(
                name=name,
                total=columns[-1][name],
                colour=COLOURS[n % len(COLOURS)],
                dash=DASHES[n % len(DASHES)],
                hollow=bool((n // len(SHAPES)) % 2),
                points=points,
                markers=markers,
                label_y=label_ys[n],
                end_x=xs[-1],
                end_y=ys[-1],
                short_name=short_name(name, END_LABEL_CHARS),
                legend_name=short_name(name, LEGEND_CHARS),
                legend_line=f"M{lx:.1f},{ly:.1f}h28",
                legend_marker=marker_path(shape, lx + 14, ly),
                legend_x=round(lx + 34, 1),
                legend_y=round(ly + 4, 1),
            )
        )
    rows = math.ceil(len(players) / 2)
    height = int(legend_top + rows * LEGEND_ROW)
    return Chart(
        width=WIDTH,
        height=height,
        left=left,
        top=top,
        right=right,
        bottom=bottom,
        zero_y=y_of(0),
        x_ticks=x_ticks,
        y_ticks=y_ticks,
        series=tuple(series),
    )
