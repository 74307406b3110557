"""The one exception the DSL raises while reading an expression."""

from __future__ import annotations


class DslError(Exception):
    """A problem in the text of an expression, found before it is ever evaluated.

    `column` is 1-based and counts characters from the start of the expression
    text; for text without line breaks that is the ordinary column.
    """

    def __init__(self, message: str, column: int) -> None:
        # Passing both to Exception keeps the error picklable (args round-trip).
        super().__init__(message, column)
        self.message = message
        self.column = column

    def __str__(self) -> str:
        return f"column {self.column}: {self.message}"
