"""JSON Schema validation turned into placed, readable problems (all of them at once)."""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError

from interpreter.errors import Problem, did_you_mean, unique_problems
from interpreter.language.paths import schema_file
from interpreter.language.source import Document


@cache
def _validator(name: str) -> jsonschema.Draft202012Validator:
    schema = json.loads(schema_file(name).read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def schema_problems(
    doc: Document, schema: str = "ruleset.schema.json", *, derived_from: Document | None = None
) -> list[Problem]:
    """Every place where `doc` does not fit the schema.

    `derived_from`: a document that `doc` was made from by patches (readings, options, a number
    of players) and whose own problems the caller has: then only the top-level sections that the
    patches replaced are checked again (the others are the very same values)."""
    validator = _validator(schema)
    problems = []
    for error in _changed_errors(validator, doc, derived_from) or validator.iter_errors(doc.data):
        problems.extend(_explain(error, doc))
    return unique_problems(problems)


def _changed_errors(
    validator: jsonschema.Draft202012Validator, doc: Document, derived_from: Document | None
) -> list[ValidationError] | None:
    """The errors of the sections of `doc` that differ from `derived_from`, or None when the
    whole document must be checked (no such document, or the sections themselves differ)."""
    if derived_from is None or not isinstance(doc.data, dict) or not isinstance(derived_from.data, dict):
        return None
    if doc.data.keys() != derived_from.data.keys():
        return None  # the top level's own rules (required and unknown keys) may judge differently
    properties = validator.schema.get("properties", {})
    errors: list[ValidationError] = []
    for key, value in doc.data.items():
        if value is derived_from.data[key]:
            continue
        if key not in properties:
            return None
        for error in validator.evolve(schema=properties[key]).iter_errors(value):
            error.relative_path.appendleft(key)
            errors.append(error)
    return errors


def _explain(error: ValidationError, doc: Document) -> list[Problem]:
    path = tuple(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = list(error.schema.get("properties", {}))
        extra = [k for k in error.instance if k not in allowed and not _matches_pattern(error.schema, k)]
        problems = []
        for key in extra:
            hint = did_you_mean(str(key), allowed, otherwise=f"; known here: {', '.join(allowed)}" if allowed else "")
            problems.append(doc.problem(path + (key,), f"unknown key '{key}'{hint}", at_key=True))
        if problems:
            return problems
    if error.validator == "required":
        return [doc.problem(path, f"missing {error.message.split(' is a required')[0]}")]
    if error.validator == "enum":
        hint = did_you_mean(str(error.instance), [str(v) for v in error.validator_value])
        choices = ", ".join(str(v) for v in error.validator_value)
        return [doc.problem(path, f"'{error.instance}' is not one of: {choices}{hint}")]
    if error.validator == "oneOf" and all(
        isinstance(b, dict) and set(b) == {"required"} for b in error.validator_value
    ):
        # Alternatives of which exactly one key must be given (a record's `deal` or `seed`).
        keys = [b["required"][0] for b in error.validator_value]
        given = [k for k in keys if isinstance(error.instance, dict) and k in error.instance]
        words = " or ".join(f"`{k}`" for k in keys)
        if given:
            return [doc.problem(path, f"give either {words}, not both")]
        return [doc.problem(path, f"needs {words}")]
    if error.validator in ("oneOf", "anyOf") and error.context:
        # Report the alternative that got furthest, not the generic "not valid under any".
        best = max(error.context, key=lambda e: (len(e.absolute_path), -len(e.message)))
        if len(best.absolute_path) > len(error.absolute_path):
            return _explain(best, doc)
        return [doc.problem(path, _one_of_message(error))]
    if error.validator == "type":
        return [doc.problem(path, f"expected {_type_words(error.validator_value)}, got {_describe(error.instance)}")]
    if error.validator == "pattern" and isinstance(error.instance, str):
        if error.absolute_schema_path and "propertyNames" in error.absolute_schema_path:
            return [
                doc.problem(
                    path + (error.instance,),
                    f"'{error.instance}' is not a valid key here ({_pattern_words(error.validator_value)})",
                    at_key=True,
                )
            ]
        return [
            doc.problem(path, f"'{error.instance}' is not a valid name here ({_pattern_words(error.validator_value)})")
        ]
    if error.validator == "propertyNames":
        return [doc.problem(path, f"bad key: {error.message}")]
    return [doc.problem(path, error.message)]


def _matches_pattern(schema: dict[str, Any], key: str) -> bool:
    return any(re.search(p, key) for p in schema.get("patternProperties", {}))


def _one_of_message(error: ValidationError) -> str:
    descriptions = [s.get("description", "") for s in error.validator_value if isinstance(s, dict)]
    expected = "; or ".join(d for d in descriptions if d)
    return f"{_describe(error.instance)} does not fit here; expected {expected or 'another form'}"


def _type_words(types: Any) -> str:
    words = {
        "object": "a mapping",
        "array": "a list",
        "string": "text",
        "integer": "a whole number",
        "boolean": "true or false",
        "number": "a number",
        "null": "nothing",
    }
    if isinstance(types, list):
        return " or ".join(words.get(str(t), str(t)) for t in types)
    return words.get(str(types), str(types))


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return f"'{str(value).lower()}'"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    return f"'{value}'"


def _pattern_words(pattern: str) -> str:
    return {
        "^[a-z][a-z0-9_]*$": "lower-case letters, digits and _",
        "^[A-Z][A-Z0-9]*$": "a card id such as T22, HK or C10",
        "^[0-9]+$": "a number of players",
        "^[A-Z]$": "one capital letter",
    }.get(pattern, f"must match {pattern}")
