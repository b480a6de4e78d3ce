"""The pages people use: blueprints, forms, the chart, words and template filters.

``create_app`` registers the blueprints; the JSON API lives in ``ledger.api``."""
