"""The table's page names each element once: its forms (tonight's match, a new season, a
payment...) share one page, and a label tapped must move to its own field, not to a
namesake in another form (issue found playing: "Name of the new season" took the
phone to the name of tonight's match)."""

from __future__ import annotations

import re
from collections import Counter

from table_pages_support import create_table


def test_no_id_is_used_twice_on_the_table_page(client):
    page = client.get(create_table(client)).get_data(as_text=True)
    ids = Counter(re.findall(r'\sid="([^"]+)"', page))
    assert [name for name, times in ids.items() if times > 1] == []
    assert 'for="season-name"' in page  # the new season's label, on its own field
