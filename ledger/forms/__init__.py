"""The pages' forms: WTForms classes and their translation to and from the engine's JSON."""


def stripped(value: object) -> object:
    """A WTForms filter: typed text without the spaces around it (other values as they are)."""
    return value.strip() if isinstance(value, str) else value
