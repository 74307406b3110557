"""Tools for the people who record and compare variants: what a ruleset means (`semantic`),
rule-by-rule differences (`diff`), a feature table (`matrix`) and rules pages (`docgen`).

Reads rulesets through `interpreter.language`; uses the engine only to compute payment tables.
"""
