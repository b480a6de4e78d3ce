"""Every WTForms form class of the package is declared in the forms layer
(``ledger.forms``, docs/architecture.md): the pages build, check and save forms, but the
fields a form has are said in one place, below the pages and the PDFs that both read them."""

import importlib
import pkgutil

from wtforms import Form

import ledger


def _form_classes():
    for info in pkgutil.walk_packages(ledger.__path__, "ledger."):
        if info.name.startswith("ledger.pdf.render"):
            continue  # WeasyPrint stays out of the serving process; it declares no form
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, Form):
                if value.__module__ == module.__name__:
                    yield value


def test_every_form_class_is_declared_in_the_forms_layer():
    found = list(_form_classes())
    assert len(found) >= 20  # the walk reaches the forms (CheckForm, MatchHandForm, ...)
    outside = [
        f"{form.__module__}.{form.__qualname__}"
        for form in found
        if not form.__module__.startswith("ledger.forms")
    ]
    assert outside == []
