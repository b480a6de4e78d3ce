"""The match page's parts that follow only the house rules and the language (the rules'
summary, the printed game's words) are rendered once and kept (issue 41): a new hand
draws them no more, and each language has its own."""

from __future__ import annotations

from flask import template_rendered
from match_pages_support import WORKED, add_hand, create_match

from ledger.web import matches


def test_a_new_hand_draws_the_rules_and_the_words_no_more(app, client, monkeypatch):
    url = create_match(client)
    add_hand(client, url, WORKED)
    macros: list[str] = []
    templates: list[str] = []
    take = matches.get_template_attribute

    def counted(template, name):
        macros.append(name)
        return take(template, name)

    monkeypatch.setattr(matches, "get_template_attribute", counted)

    def rendered(sender, template, context, **extra):
        templates.append(template.name)

    template_rendered.connect(rendered, app)  # held weakly: alive while the test runs
    first = client.get(url).text
    assert macros == ["rules_summary"] and "partials/game_words.html" in templates
    macros.clear()
    templates.clear()
    add_hand(client, url, WORKED)
    again = client.get(url).text
    assert macros == [] and "partials/game_words.html" not in templates
    for part in ('<dl class="rules-summary">', 'id="game-words-title"'):
        assert first.count(part) == again.count(part) == 1
    client.get("/lang/ne")
    nepali = client.get(url).text
    assert macros == ["rules_summary"] and "शब्द" in nepali.split('id="game-words-title"')[1][:80]
