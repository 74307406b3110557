"""The ruleset language: from YAML text to an immutable, checked `Ruleset`.

Owns the YAML source with positions (`source`), finding files, `extends`, readings and options
(`loader`), the JSON Schema check (`validation`), the semantic checks and compilation
(`compiler`), the compiled model the engine reads (`model`) and the expression language
(`dsl/`). Imports nothing of the engine: a ruleset is data, whoever plays it.
"""
