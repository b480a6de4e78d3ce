"""The readiness check's heads of the migrations (``ledger.migrating.migration_heads``,
read from the scripts' text so that serving needs no Alembic) are Alembic's own."""

from pathlib import Path

from alembic.script import ScriptDirectory

from ledger import data_folder
from ledger.migrating import migration_heads

SCRIPT = """\"\"\"{message}\"\"\"
from alembic import op
import sqlalchemy as sa

revision{annotation} = {revision!r}
down_revision{annotation} = {down!r}
branch_labels = None
depends_on = None


def upgrade():
    op.execute("SELECT 1")


def downgrade():
    pass
"""


def _alembic_heads(folder: str | Path) -> set[str]:
    return set(ScriptDirectory(str(folder)).get_heads())


def _migrations(tmp_path: Path, chain: dict[str, object]) -> Path:
    """A migrations folder whose scripts have these revisions (each its down revision)."""
    folder = tmp_path / "migrations"
    (folder / "versions").mkdir(parents=True)
    (folder / "script.py.mako").write_text("")
    for number, (revision, down) in enumerate(chain.items()):
        text = SCRIPT.format(
            message=f"step {number}",
            annotation=": str | None" if number % 2 else "",  # both styles of Alembic's
            revision=revision,
            down=down,
        )
        (folder / "versions" / f"{revision}_step.py").write_text(text)
    return folder


def test_the_heads_of_the_ledger_s_migrations_are_alembic_s():
    folder = data_folder("migrations")
    assert migration_heads(folder) == _alembic_heads(folder)
    assert len(migration_heads(folder)) == 1


def test_two_branches_are_two_heads_and_a_merge_makes_them_one(tmp_path):
    branched = _migrations(tmp_path, {"a1": None, "b1": "a1", "b2": "a1"})
    assert migration_heads(branched) == _alembic_heads(branched) == {"b1", "b2"}

    (tmp_path / "merged").mkdir()
    merged = _migrations(
        tmp_path / "merged", {"a1": None, "b1": "a1", "b2": "a1", "m": ("b1", "b2")}
    )
    assert migration_heads(merged) == _alembic_heads(merged) == {"m"}
