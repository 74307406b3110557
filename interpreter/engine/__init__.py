"""The engine: one deal of a compiled ruleset, as a state machine driven by actions.

Owns the game state (`game`), actions as players send them (`actions`), the auction, the
exchange, the trick play and its tables, counting and settlement, game records and sessions of
several deals. Reads only the compiled `Ruleset` of `interpreter.language`, never the YAML.
"""
