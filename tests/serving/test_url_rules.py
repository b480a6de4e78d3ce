"""The routes' URL builders are made at each route's first ``url_for``, not as the app
is built (``ledger.serving.url_rules``): two thirds of ``create_app``'s time otherwise."""

from flask import url_for
from werkzeug.routing import Rule

from ledger import create_app


def test_a_route_s_url_builder_is_made_at_its_first_url_for(tmp_path, monkeypatch):
    made = []
    make = Rule._compile_builder

    def counted(rule, append_unknown=True):
        made.append((rule.endpoint, append_unknown))
        return make(rule, append_unknown)

    monkeypatch.setattr(Rule, "_compile_builder", counted)
    app = create_app({"INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "k", "TESTING": True})
    assert len(list(app.url_map.iter_rules())) > 100
    assert made == []

    with app.test_request_context():
        assert url_for("rules.index") == "/rules"
        assert url_for("rules.index", profile="x") == "/rules?profile=x"
        assert url_for("rules.index") == "/rules"
    assert made == [("rules.index", True)]  # once; url_for never asks for the other
