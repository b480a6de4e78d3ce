"""Helpers of the tests of the pages' "Load a saved match" and "Load a saved table":
a file posted as a browser posts it, and the problems the page puts on the file field."""

from __future__ import annotations

import html
import io
import re

from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

NE = {"Accept-Language": "ne-NP,ne;q=0.9"}


def upload(
    client, data: bytes | None, filename: str = "saved.pdf", url: str = "/matches/import", **kw
):
    """Post the file as a browser does (the body built in memory: the test client would
    spool a large one to a temporary file that a refused request leaves open)."""
    form = {} if data is None else {"file": FileStorage(io.BytesIO(data), filename=filename)}
    boundary, body = encode_multipart({**form, **kw.pop("extra", {})})
    content_type = f"multipart/form-data; boundary={boundary}"
    return client.post(url, data=body, content_type=content_type, **kw)


def file_errors(page: str) -> list[str]:
    found = re.search(r'<ul class="field-errors" id="file-errors">(.*?)</ul>', page, re.S)
    assert found, page[-3000:]
    assert 'aria-invalid="true"' in page and "autofocus" in page
    return [html.unescape(m) for m in re.findall(r"<li>(.*?)</li>", found.group(1))]


def refused_alone(response, sentence: str) -> None:
    """The page sent back (422) with one problem on the file field, ``sentence``'s."""
    assert response.status_code == 422
    errors = file_errors(response.get_data(as_text=True))
    assert len(errors) == 1 and errors[0].startswith(sentence), errors


def load_form(client, page_url: str, action: str) -> str:
    """The page's "Load a saved …" form (from its ``#import``), after checking that it
    posts a file, a PDF or JSON, with its CSRF token, to ``action``."""
    page = client.get(page_url).get_data(as_text=True)
    form = page[page.index('id="import"') :]
    assert f'action="{action}"' in form
    assert 'enctype="multipart/form-data"' in form
    assert re.search(r'<input[^>]*accept="\.pdf,\.json,application/pdf,application/json"', form)
    assert 'type="file"' in form and 'name="file"' in form and 'name="csrf_token"' in form
    return form
