"""Tools for the people who record and compare variants: what a ruleset means (`semantic`: the
compiled ruleset as a tree, with where each rule is written beside it), rule-by-rule differences
(`diff`), a feature table (`matrix`), rules pages and summaries (`docgen`) and pictures of the
family (`trees`, SVG through the optional matplotlib).

Reads rulesets through `interpreter.language` (the compiled `Ruleset` and its provenance); the
engine is not needed: payment tables are computed by the ruleset's own compiled formulas.
"""
