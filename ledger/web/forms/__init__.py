"""The pages' forms: WTForms classes and their translation to and from the engine's JSON."""
