"""ledger.matches, the service layer the API and the pages share."""

import hashlib

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from werkzeug.exceptions import NotFound

from ledger import matches
from ledger.engine import Invalid
from ledger.extensions import db
from ledger.matches.models import Hand, HandVersion, Match, MatchPlayer

PLAYERS = ["Asha", "Bikash", "Chandra", "Dipa", "Esha"]


def hand_data(winner="Asha", **extra):
    return {
        "finish": "sequences",
        "winner": winner,
        "players": [
            {"name": "Asha", "seen": "sequences", "maal": 10},
            {"name": "Bikash", "seen": "sequences", "maal": 5},
            {"name": "Chandra", "seen": "unseen", "maal": 8},
        ],
        **extra,
    }


@pytest.fixture
def ctx(app):
    with app.app_context():
        yield


@pytest.fixture
def match(ctx):
    created, _key = matches.create_match("Tihar", PLAYERS, "sparkai", None, "Bikash")
    return created


def rows(model) -> int:
    return db.session.scalar(select(func.count()).select_from(model))


def test_the_edit_key_is_stored_only_as_a_hash(ctx):
    match, key = matches.create_match("m", ["A", "B"], "sparkai")
    assert match.edit_key_hash == hashlib.sha256(key.encode()).hexdigest()
    assert key not in (match.edit_key_hash, match.public_id)
    assert matches.check_edit_key(match, key)
    for wrong in ("", None, key + "x", key.upper(), 42, match.edit_key_hash):
        assert not matches.check_edit_key(match, wrong)


def test_public_ids_are_unguessable_and_distinct(ctx):
    ids = {matches.create_match("m", ["A", "B"], "sparkai")[0].public_id for _ in range(20)}
    assert len(ids) == 20
    assert all(len(i) == 22 for i in ids)


def test_get_match_404s(ctx, match):
    assert matches.get_match(match.public_id) is match
    for missing in ("nope", "", "x" * 500):
        with pytest.raises(NotFound):
            matches.get_match(missing)


def test_add_hand_uses_the_next_dealer_and_sits_out_the_rest(match):
    first = matches.add_hand(match, hand_data())
    assert (first.number, first.dealer, first.version) == (1, "Bikash", 1)
    second = matches.add_hand(match, hand_data("Bikash"), dealer="esha")
    assert second.dealer == "Esha"
    view = matches.match_view(match)
    assert view.next_dealer == "Asha"  # after Esha, round the table
    assert [h.sitting_out for h in view.hands] == [("Dipa", "Esha")] * 2
    assert view.hand(1).input == first.input
    assert sum(view.totals.values()) == 0


def test_invalid_input_raises_invalid_and_stores_nothing(match):
    before = (rows(Hand), match.version, match.last_hand_number)
    with pytest.raises(Invalid) as caught:
        matches.add_hand(match, hand_data("Chandra"), dealer="Zed")
    assert {e.field for e in caught.value.errors} == {"winner", "dealer"}
    assert (rows(Hand), match.version, match.last_hand_number) == before


def test_preview_settles_without_storing(match):
    hand, result, dealer = matches.preview_hand(match, hand_data())
    assert dealer == "Bikash"
    assert result.nets()["Asha"] > 0
    assert hand.winner == "Asha"
    assert rows(Hand) == 0


def test_replace_keeps_history_and_refuses_a_stale_version(match):
    matches.add_hand(match, hand_data())
    edited = matches.replace_hand(match, 1, hand_data("Bikash"), expected_version=1)
    assert edited["version"] == 2  # the API's answer: the hand as the change left it
    with pytest.raises(matches.HandConflict) as caught:
        matches.replace_hand(match, 1, hand_data("Asha"), expected_version=1)
    assert caught.value.code == 409
    assert caught.value.current_version == 2
    history = matches.hand_history(match, 1)
    assert [(h.version, h.action, h.input["winner"]) for h in history] == [(1, "edit", "Asha")]
    assert matches.match_view(match).hand(1).winner == "Bikash"


def test_a_save_that_lost_the_race_is_a_conflict_and_stores_nothing(app, match):
    matches.add_hand(match, hand_data())
    loaded = matches.get_match(match.public_id)
    assert loaded.hands[0].version == 1
    # Another scorekeeper saves version 2 between our read and our write.
    with db.engine.begin() as other:
        other.execute(update(Hand).where(Hand.number == 1).values(version=2))
    with pytest.raises(matches.HandConflict) as caught:
        matches.replace_hand(loaded, 1, hand_data("Bikash"), expected_version=1)
    assert caught.value.current_version == 2
    assert rows(HandVersion) == 0
    assert db.session.scalar(select(Hand.result["winner"].as_string())) == "Asha"


def test_delete_keeps_a_record_and_numbers_are_never_reused(match):
    for winner in ("Asha", "Bikash", "Asha"):
        matches.add_hand(match, hand_data(winner))
    matches.delete_hand(match, 3)
    matches.delete_hand(match, 2)
    assert matches.add_hand(match, hand_data()).number == 4
    assert [h.number for h in matches.match_view(match).hands] == [1, 4]
    assert [h.action for h in matches.hand_history(match, 2)] == ["delete"]
    with pytest.raises(NotFound):
        matches.delete_hand(match, 2)


def test_deleting_a_match_cascades_in_the_database(match):
    matches.add_hand(match, hand_data())
    matches.replace_hand(match, 1, hand_data("Bikash"))
    assert (rows(MatchPlayer), rows(Hand), rows(HandVersion)) == (5, 1, 1)
    db.session.delete(match)
    db.session.commit()
    assert (rows(Match), rows(MatchPlayer), rows(Hand), rows(HandVersion)) == (0, 0, 0, 0)


def test_player_names_are_unique_ignoring_case_in_the_database(match):
    db.session.add(MatchPlayer(match_id=match.id, seat=9, name="ASHA", name_key="asha"))
    with pytest.raises(IntegrityError):
        db.session.commit()
    db.session.rollback()


def test_export_and_import_round_trip(match):
    matches.add_hand(match, hand_data())
    matches.add_hand(match, hand_data("Bikash"))
    matches.replace_hand(match, 2, hand_data("Asha"))
    matches.delete_hand(match, 1)
    copy, key = matches.import_match(matches.export_json(match))
    original, imported = matches.match_view(match), matches.match_view(copy)
    assert copy.public_id != match.public_id
    assert matches.check_edit_key(copy, key)
    assert imported.totals == original.totals
    assert imported.next_hand_number == original.next_hand_number == 3
    assert [(h.number, h.version, h.dealer, h.input, h.result) for h in imported.hands] == [
        (h.number, h.version, h.dealer, h.input, h.result) for h in original.hands
    ]
    assert len(matches.hand_history(copy, 1)) == len(matches.hand_history(match, 1)) == 1


def test_a_failed_commit_is_raised_not_swallowed(match, monkeypatch):
    def fail():
        raise IntegrityError("INSERT", {}, Exception("boom"))

    monkeypatch.setattr(db.session, "commit", fail)
    with pytest.raises(IntegrityError):
        matches.add_hand(match, hand_data())
    monkeypatch.undo()
    assert rows(Hand) == 0


def test_a_same_key_race_the_check_missed_is_caught_by_the_unique_key(match, monkeypatch):
    """Two requests with one key at the same instant: should the second not see the
    first's hand before it writes (another database's isolation), the unique key refuses
    its row and it answers as a replay."""
    from ledger.matches import service

    first = matches.submit_hand(match, hand_data(), key="same")
    real = service._hand_with_key
    looks = []

    def blind_twice(m, k):  # the look before the write and the one inside it see nothing
        looks.append(k)
        return None if len(looks) <= 2 else real(m, k)

    monkeypatch.setattr(service, "_hand_with_key", blind_twice)
    second = matches.submit_hand(match, hand_data(), key="same")
    assert second.replayed and second.number == first.number == 1
    assert second.answer == first.answer
    assert len(looks) == 3  # the replay found the first hand after the refused write
    assert rows(Hand) == 1
    assert match.last_hand_number == 1  # the number taken for the refused row was rolled back
