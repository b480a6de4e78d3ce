"""Configuration: LEDGER_* from the environment, the instance folder outside the
repository, instance/config.py, and settings that cannot work refused at start."""

import os
import sys
import threading
from importlib.metadata import version

import pytest
from click.testing import CliRunner

import ledger
from ledger import create_app
from ledger.cli import main
from ledger.serving import server
from ledger.settings import instance_secret_key


@pytest.fixture
def environment(monkeypatch, tmp_path):
    """No LEDGER_* variable but an instance folder of the test's own."""
    for name in list(os.environ):
        if name.startswith("LEDGER_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("LEDGER_INSTANCE_PATH", str(tmp_path / "instance"))
    return monkeypatch


def test_the_instance_folder_comes_from_the_environment(environment, tmp_path):
    app = create_app()
    assert app.instance_path == str(tmp_path / "instance")
    assert app.config["SQLALCHEMY_DATABASE_URI"] == (
        f"sqlite:///{tmp_path / 'instance' / 'ledger.sqlite3'}"
    )
    assert (tmp_path / "instance" / "secret_key").exists()


def test_a_relative_instance_folder_is_made_absolute(environment, tmp_path):
    environment.chdir(tmp_path)
    environment.setenv("LEDGER_INSTANCE_PATH", "here")
    assert create_app().instance_path == str(tmp_path / "here")


def test_a_home_folder_instance_path_is_the_users_home(environment, tmp_path):
    """``~/ledger`` quoted in a unit file reaches the app unexpanded: it is the home
    folder's, not a folder named ``~`` in the working directory."""
    environment.chdir(tmp_path)
    environment.setenv("HOME", str(tmp_path / "home"))
    environment.setenv("LEDGER_INSTANCE_PATH", "~/ledger")
    assert create_app().instance_path == str(tmp_path / "home" / "ledger")
    assert not (tmp_path / "~").exists()


def test_ledger_variables_become_settings(environment):
    environment.setenv("LEDGER_DATABASE_URL", "sqlite:////tmp/elsewhere.sqlite3")
    environment.setenv("LEDGER_SECRET_KEY", "12345")  # looks like JSON, stays text
    environment.setenv("LEDGER_PUBLIC_URL", "https://ledger.example.org/")
    environment.setenv("LEDGER_PROXY_COUNT", "2")
    environment.setenv("LEDGER_MAX_CONTENT_LENGTH", "1000")  # any Flask setting
    app = create_app()
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "sqlite:////tmp/elsewhere.sqlite3"
    assert app.config["SECRET_KEY"] == "12345"
    assert app.config["PUBLIC_URL"] == "https://ledger.example.org"
    assert app.config["PROXY_COUNT"] == 2
    assert app.config["MAX_CONTENT_LENGTH"] == 1000


def test_the_environment_overrides_instance_config(environment, tmp_path):
    folder = tmp_path / "instance"
    folder.mkdir()
    (folder / "config.py").write_text(
        'SECRET_KEY = "from-the-file"\nPUBLIC_URL = "http://10.1.1.1:5000"\n'
    )
    app = create_app()
    assert (app.config["SECRET_KEY"], app.config["PUBLIC_URL"]) == (
        "from-the-file",
        "http://10.1.1.1:5000",
    )
    environment.setenv("LEDGER_SECRET_KEY", "from-the-environment")
    assert create_app().config["SECRET_KEY"] == "from-the-environment"


def test_postgresql_connections_are_tested_before_use(environment):
    environment.setenv("LEDGER_DATABASE_URL", "postgresql+psycopg://u@db.invalid/ledger")
    options = create_app().config["SQLALCHEMY_ENGINE_OPTIONS"]
    assert options["pool_pre_ping"] is True


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        ("LEDGER_PUBLIC_URL", "192.168.1.20:5000", "LEDGER_PUBLIC_URL must be an address"),
        ("LEDGER_PUBLIC_URL", "ftp://ledger.example.org", "LEDGER_PUBLIC_URL must be"),
        ("LEDGER_PUBLIC_URL", "https://x.example.org/?a=1", "must not have a query"),
        ("LEDGER_PROXY_COUNT", "-1", "LEDGER_PROXY_COUNT must be a whole number"),
        ("LEDGER_PROXY_COUNT", "one", "LEDGER_PROXY_COUNT must be a whole number"),
        ("LEDGER_PROXY_COUNT", "true", "LEDGER_PROXY_COUNT must be a whole number"),
        # a password's @, : and / not percent-encoded: the URL said so, not "int() ... 'w'"
        (
            "LEDGER_DATABASE_URL",
            "postgresql+psycopg://ledger:p@ss:w/rd@db.example.org/ledger",
            "LEDGER_DATABASE_URL is not a database URL",
        ),
        ("LEDGER_DATABASE_URL", "not a url", "write any @, :, / or % in the user's name"),
        # as some hosts write it: a traceback ending in NoSuchModuleError before
        (
            "LEDGER_DATABASE_URL",
            "postgres://ledger:x@db.example.org/ledger",
            "names no kind of database the ledger knows",
        ),
        # read only once a request needed them: every page a 500, the limit off (logged
        # at each request), the PDFs in a child process all the same ("off" is true)
        ("LEDGER_STATIC_RECHECK_SECONDS", "x", "LEDGER_STATIC_RECHECK_SECONDS must be a number"),
        ("LEDGER_UNDO_SECONDS", "2.5", "LEDGER_UNDO_SECONDS must be a whole number, at least 0"),
        ("LEDGER_RATELIMIT_PDF", "lots", 'LEDGER_RATELIMIT_PDF must be limits such as "10 per'),
        ("LEDGER_RATELIMIT_EDIT_KEY", "20", "LEDGER_RATELIMIT_EDIT_KEY must be limits"),
        ("LEDGER_PDF_CHILD_PROCESS", "off", "LEDGER_PDF_CHILD_PROCESS must be true or false"),
        # a host and port without a scheme: a traceback ending in ConfigurationError before
        (
            "LEDGER_RATELIMIT_STORAGE_URI",
            "127.0.0.1:6379",
            "LEDGER_RATELIMIT_STORAGE_URI cannot be used: it must be memory://",
        ),
    ],
)
def test_a_setting_that_cannot_work_stops_the_commands_with_a_sentence(
    environment, name, value, says
):
    environment.setenv(name, value)
    with pytest.raises(ValueError, match=says):
        create_app()
    for command in (["init-db"], ["serve", "--port", "1"]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 1
        assert says in result.output and "Traceback" not in result.output
        assert "w/rd" not in result.output  # no piece of a password


def test_shared_rate_limits_without_the_redis_extra_stop_the_commands_with_a_sentence(
    environment,
):
    """The docs' LEDGER_RATELIMIT_STORAGE_URI=redis://... on an install without
    ``[redis]``: init-db and serve said "ConfigurationError: 'redis' prerequisite not
    available" under a traceback. The URI, which may hold a password, is not repeated."""
    environment.setitem(sys.modules, "redis", None)  # not installed
    environment.setenv("LEDGER_RATELIMIT_STORAGE_URI", "redis://:s3cret@127.0.0.1:6379")
    for command in (["init-db"], ["serve", "--port", "1"]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 1, result.output
        assert "pip install 'marriage-ledger[redis]'" in result.output
        assert "Traceback" not in result.output and "s3cret" not in result.output


def test_an_instance_folder_that_cannot_be_made_stops_the_commands_with_a_sentence(
    environment, tmp_path
):
    """The package installed as root and ``init-db`` run as the serving user, as
    docs/deployment.md advises, could not make ``<prefix>/var/ledger-instance``: a
    PermissionError under a traceback. (A file in the way stands in for the permission:
    root may write anywhere.)"""
    (tmp_path / "var").write_text("")
    folder = tmp_path / "var" / "ledger-instance"
    environment.setenv("LEDGER_INSTANCE_PATH", str(folder))
    for command in (["init-db"], ["serve", "--port", "1"]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 1, result.output
        assert f"Error: The instance folder {folder} cannot be made: Not a directory. " in (
            result.output
        )
        assert "LEDGER_INSTANCE_PATH" in result.output and "Traceback" not in result.output


def test_processes_sharing_an_instance_folder_agree_on_one_secret_key(tmp_path):
    keys: list[str] = []
    barrier = threading.Barrier(8)

    def start():
        barrier.wait()
        keys.append(instance_secret_key(str(tmp_path)))

    threads = [threading.Thread(target=start) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(keys) == 8 and len(set(keys)) == 1
    assert (tmp_path / "secret_key").read_text().strip() == keys[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["secret_key"]  # no drafts left


def test_init_db_reports_where_the_database_is(environment, tmp_path, empty_database_url):
    environment.setenv("LEDGER_DATABASE_URL", empty_database_url)
    result = CliRunner().invoke(main, ["init-db"])
    assert result.exit_code == 0, result.output
    assert "Initialised the database:" in result.output
    assert empty_database_url.split("@")[-1] in result.output


def test_a_database_that_cannot_be_reached_stops_init_db_with_a_sentence(environment):
    """A wrong password or a server down: one line naming the database (its password
    hidden) and the driver's reason, not a hundred-line traceback."""
    environment.setenv("LEDGER_DATABASE_URL", "postgresql+psycopg://ledger:s3cret@127.0.0.1:1/x")
    result = CliRunner().invoke(main, ["init-db"])
    assert result.exit_code == 1, result.output
    assert "Cannot use the database at postgresql+psycopg://ledger:***@127.0.0.1:1/x: " in (
        result.output
    )
    assert "Check LEDGER_DATABASE_URL" in result.output and "s3cret" not in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("command", [["serve", "--host", "127.0.0.1"], ["backup", "copy.sqlite3"]])
def test_a_command_builds_the_app_once(environment, tmp_path, monkeypatch, command):
    """Not a second time for Flask's command group, whose app these commands never use."""
    built = []

    def counted(*args, **kwargs):
        built.append(True)
        return create_app(*args, **kwargs)

    monkeypatch.setattr(ledger, "create_app", counted)
    monkeypatch.setattr(server, "serve", lambda *args, **kwargs: None)
    environment.setenv("LEDGER_DATABASE_URL", f"sqlite:///{tmp_path}/one.sqlite3")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, command)
    assert built == [True], result.output


def test_the_help_names_what_an_installed_package_can_act_on():
    """``marriage-ledger --help`` ended "See docs/deployment.md", a file an installed
    wheel does not carry: it says where each command's help is and the settings."""
    shown = CliRunner().invoke(main, ["--help"], terminal_width=200)
    assert shown.exit_code == 0, shown.output
    words = " ".join(shown.output.split())
    assert "marriage-ledger COMMAND --help" in words
    for name in ("INSTANCE_PATH", "DATABASE_URL", "SECRET_KEY", "PUBLIC_URL", "PROXY_COUNT"):
        assert f"LEDGER_{name} (" in words
    assert "docs/deployment.md of the ledger's source repository" in words


def test_version_names_the_build_a_wheel_was_made_from(monkeypatch, tmp_path):
    """Every build is 0.1.0: ``--version`` adds the commit setup.py wrote into the
    package, so that a host can tell the build it upgraded to from the old one (the
    wheel itself: ``test_wheel.py``). A checkout was built by no one."""
    from ledger import build_info

    number = version("marriage-ledger")
    shown = CliRunner().invoke(main, ["--version"])
    assert (shown.exit_code, shown.output) == (0, f"marriage-ledger {number} (commit unknown)\n")
    written = tmp_path / "BUILD_COMMIT"
    written.write_text("2df2f08e59fc\n", encoding="ascii")
    monkeypatch.setattr(build_info, "COMMIT_FILE", written)
    shown = CliRunner().invoke(main, ["--version"])
    assert shown.output == f"marriage-ledger {number} (commit 2df2f08e59fc)\n"
