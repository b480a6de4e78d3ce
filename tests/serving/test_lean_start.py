"""The serving process never loads the PDF libraries: a child process lays PDFs out
(``ledger.pdf.child``) and pypdf is imported only to read an imported PDF, so a server
starts without them (a second of imports and tens of MB it would keep for nothing).
Pillow and zxing-cpp wait for the first wallet QR image read (``ledger.tables.qr_image``)."""

from __future__ import annotations

import json
import subprocess
import sys

SERVING = """
import json, sys
from ledger import create_app
import ledger.cli, ledger.serving.server
app = create_app({
    "INSTANCE_PATH": sys.argv[1],
    "SECRET_KEY": "lean",
    "SQLALCHEMY_DATABASE_URI": "sqlite:///" + sys.argv[1] + "/lean.sqlite3",
})
from ledger.extensions import db
with app.app_context():
    db.create_all()
client = app.test_client()
answers = [client.get(path).status_code for path in ("/", "/healthz", "/check", "/rules")]
held_back = ("weasyprint", "pypdf", "PIL", "zxingcpp")
loaded = sorted(m for m in sys.modules if m.split(".")[0] in held_back)
print(json.dumps({"answers": answers, "loaded": loaded}))
"""


def test_serving_the_app_imports_no_pdf_or_image_library(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", SERVING, str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["answers"] == [200, 200, 200, 200]
    assert seen["loaded"] == []
