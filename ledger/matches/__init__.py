"""The match service the API and the pages share: models, the one transaction, input
checks, the one-pass view, export and import. Callers use the service's functions from
here (``matches.add_hand(...)``)."""

from ledger.matches.reading import PROFILE_LENGTH
from ledger.matches.service import (
    PUBLIC_ID_MAX,
    HandConflict,
    add_hand,
    check_edit_key,
    create_match,
    delete_hand,
    export_csv,
    export_json,
    get_hand,
    get_match,
    hand_history,
    import_match,
    is_public_id,
    match_view,
    preview_hand,
    replace_hand,
)

__all__ = [
    "PROFILE_LENGTH",
    "PUBLIC_ID_MAX",
    "HandConflict",
    "add_hand",
    "check_edit_key",
    "create_match",
    "delete_hand",
    "export_csv",
    "export_json",
    "get_hand",
    "get_match",
    "hand_history",
    "import_match",
    "is_public_id",
    "match_view",
    "preview_hand",
    "replace_hand",
]
