"""The database tables (SQLAlchemy 2 typed models: Mapped, mapped_column).

Every model subclasses ``db.Model`` (whose base is ``ledger.extensions.Base``).
create_app imports this module so that ``flask init-db`` and Flask-Migrate see
every table.
"""

from ledger.extensions import db

__all__ = ["db"]
