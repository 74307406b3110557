"""The README's Python example runs as written, and its YAML examples load."""

import re
from pathlib import Path

README = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")


def test_python_example_runs() -> None:
    code = re.search(r"```python\n(.*?)```", README, re.S).group(1)
    namespace: dict = {}
    exec(compile(code, "README.md", "exec"), namespace)
    game = namespace["game"]
    assert game.is_over and sum(game.result.payments) == 0


def test_variant_example_validates(tmp_path: Path) -> None:
    from interpreter.language.loader import check_ruleset, load_ruleset

    text = re.search(r"```yaml\n(# rulesets/my-village.yaml\n.*?)```", README, re.S).group(1)
    file = tmp_path / "my-village.yaml"
    file.write_text(text, encoding="utf-8")
    assert check_ruleset(str(file)) == []
    solo = load_ruleset(str(file)).contracts["solo"]
    assert (solo.factor_won, solo.factor_lost) == (2, 2)


def test_starts_with_the_two_commands() -> None:
    first_block = re.search(r"```sh\n(.*?)```", README, re.S).group(1).strip().splitlines()
    assert first_block == [
        "pip install . && tarock play breitnau --seed 7",
        'pip install ".[test]" && python -m pytest -q',
    ]
