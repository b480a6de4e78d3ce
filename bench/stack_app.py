"""The libraries the ledger stands on, and nothing of its own: a Flask app with the
ledger's extensions (Flask-SQLAlchemy on the ledger's database, Flask-WTF's CSRF,
Flask-Babel, Flask-Limiter) answering ``/healthz``, served by waitress. ``bench.start_bench``
starts it as it starts ``marriage-ledger serve``: what the stack alone costs of a start.

``python bench/stack_app.py PORT`` (the database from ``LEDGER_DATABASE_URL``).
"""

import os
import sys

from flask import Flask
from flask_babel import Babel
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from waitress import serve

app = Flask(__name__)
app.config["SQLALCHEMY_DATABASE_URI"] = os.environ["LEDGER_DATABASE_URL"]
app.config["SECRET_KEY"] = os.environ["LEDGER_SECRET_KEY"]
SQLAlchemy(app)
CSRFProtect(app)
Babel(app)
Limiter(get_remote_address, app=app)
app.add_url_rule("/healthz", "healthz", lambda: "ok")

if __name__ == "__main__":
    serve(app, host="127.0.0.1", port=int(sys.argv[1]))
