"""What a page draws, counted: the calls of a function and the templates rendered, for
tests that show a kept part is drawn no more (as ``sql_counting`` counts queries)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask, template_rendered


def recorded_calls(monkeypatch, owner: object, name: str, note: Callable[..., Any]) -> list[Any]:
    """``owner.name`` replaced by itself, noting ``note(*args)`` of each call: the notes."""
    notes: list[Any] = []
    real = getattr(owner, name)

    def recorded(*args: Any) -> Any:
        notes.append(note(*args))
        return real(*args)

    monkeypatch.setattr(owner, name, recorded)
    return notes


@contextmanager
def rendered_templates(app: Flask) -> Iterator[list[str]]:
    """The names of the templates ``app`` renders inside the block, in order."""
    names: list[str] = []

    def rendered(sender: Flask, template: Any, context: Any, **extra: Any) -> None:
        names.append(template.name)

    with template_rendered.connected_to(rendered, app):
        yield names
