"""How a sheet label is spread over the gaps between rows of short pieces."""

from cardgen.impose.labels import spread_label


def width(text: str) -> float:
    return float(len(text))  # one mm a character


def test_a_label_that_fits_goes_whole_in_the_tallest_gap():
    gaps = [(0.0, 20.0), (22.0, 62.0), (64.0, 84.0)]
    assert spread_label("Game · Cards · 1/2", width, gaps, 4.0) == [("Game · Cards · 1/2", (22.0, 62.0))]


def test_a_long_label_is_split_at_separators_and_spaces_from_the_top_down_keeping_the_separators_dot():
    gaps = [(0.0, 20.0), (22.0, 42.0), (44.0, 64.0), (66.0, 86.0)]
    lines = spread_label("Horus · Kingdom Stones · 1/1 · Letter · 100%", width, gaps, 4.0)
    assert lines == [("Horus · Kingdom", (0.0, 20.0)), ("Stones · 1/1 ·", (22.0, 42.0)),
                     ("Letter · 100%", (44.0, 64.0))]
    assert all(width(t) <= b - a - 4.0 for t, (a, b) in lines)


def test_what_does_not_fit_the_gaps_goes_in_the_last_one_to_be_shortened():
    gaps = [(0.0, 12.0), (14.0, 26.0)]
    lines = spread_label("Alpha · Beta · Gamma · Delta", width, gaps, 4.0)
    assert lines == [("Alpha ·", (0.0, 12.0)), ("Beta · Gamma · Delta", (14.0, 26.0))]


def test_a_dot_that_would_not_fit_at_a_line_end_starts_the_next_line():
    gaps = [(0.0, 9.0), (14.0, 30.0)]  # "Alpha" fits a 5 mm line, "Alpha ·" does not
    assert spread_label("Alpha · Betagamma", width, gaps, 4.0) == [("Alpha", (0.0, 9.0)), ("· Betagamma", (14.0, 30.0))]


def test_one_gap_takes_the_whole_label():
    assert spread_label("A long label · that cannot fit", width, [(0.0, 10.0)], 4.0) == \
        [("A long label · that cannot fit", (0.0, 10.0))]
