"""Coded problems: every engine problem has a stable, unique code and the params its code declares,
and stays the English string existing callers read."""

from __future__ import annotations

import ast
import copy
import json
import pickle
import re
from pathlib import Path

import pytest

from games.engine.errors import LOCATION_PARAMS, InvalidRules, Problem
from games.engine.sixtysix import MatchRecordProblem, SixtySixRulesProblem
from games.engine.snap.rules import SnapRulesProblem
from tests.games.engine.problem_codes import EXAMPLES, engine_problem_codes, example_problems

ENGINE = Path(__file__).resolve().parents[3] / "games" / "engine"
# TimingRules.errors() reports the online layer's own numbers, never user input (the brief for this
# change leaves it in plain English); every other InvalidRules is built from coded problems.
UNCODED_ALLOWED = {ENGINE / "snap" / "timing.py"}


def test_the_collector_finds_the_codes_of_every_engine() -> None:
    codes = engine_problem_codes()
    for enum in (SnapRulesProblem, SixtySixRulesProblem, MatchRecordProblem):
        assert set(enum) <= set(codes)


def test_codes_are_unique_across_engines_and_declare_no_location() -> None:
    codes = engine_problem_codes()
    values = [code.value for code in codes]
    assert len(values) == len(set(values)), sorted(v for v in values if values.count(v) > 1)
    for code in codes:
        assert re.fullmatch(r"[a-z0-9]+(_[a-z0-9]+)*", code.value), code
        assert not set(code.param_names) & set(LOCATION_PARAMS), code


def test_every_code_has_an_example_that_the_engines_really_report() -> None:
    reported = {code for code, _problem in example_problems()}
    assert reported == set(engine_problem_codes())


@pytest.mark.parametrize(("code", "make"), EXAMPLES, ids=[f"{c}-{i}" for i, (c, _m) in enumerate(EXAMPLES)])
def test_examples_carry_exactly_their_codes_params(code: object, make: object) -> None:
    for problem in make():  # type: ignore[operator]
        assert isinstance(problem, Problem)
        location = set(problem.params) & set(LOCATION_PARAMS)
        assert set(problem.params) - location == set(problem.code.param_names)


def test_a_problem_is_its_english_text() -> None:
    problem = Problem(
        SnapRulesProblem.DECK_TOO_SMALL, "deck shapes has fewer cards than players", deck="shapes", players=13
    )
    assert problem == "deck shapes has fewer cards than players" and isinstance(problem, str)
    assert (
        "fewer cards" in problem and json.dumps([problem]) == '["deck shapes has fewer cards than players"]'
    )
    assert problem.code is SnapRulesProblem.DECK_TOO_SMALL and problem.params == {
        "deck": "shapes",
        "players": 13,
    }
    assert (
        str(InvalidRules([problem, "a plain one"])) == "deck shapes has fewer cards than players; a plain one"
    )


def test_a_problem_survives_pickle_and_copy() -> None:
    problem = Problem(
        MatchRecordProblem.HAND_NO_BID, "there is no bid under 'snapszer'", profile="snapszer"
    ).in_hand(2)
    for again in (pickle.loads(pickle.dumps(problem)), copy.copy(problem), copy.deepcopy(problem)):
        assert again == "hand 2: there is no bid under 'snapszer'"
        assert again.code is MatchRecordProblem.HAND_NO_BID and again.params == {
            "profile": "snapszer",
            "hand": 2,
        }


@pytest.mark.parametrize(
    "params",
    [{}, {"deck": "shapes"}, {"deck": "shapes", "players": 13, "colour": "red"}],
    ids=["none", "missing", "unknown"],
)
def test_params_other_than_the_codes_are_a_bug(params: dict[str, object]) -> None:
    with pytest.raises(TypeError, match="snap_deck_too_small"):
        Problem(SnapRulesProblem.DECK_TOO_SMALL, "text", **params)


# --- InvalidRules in the engines carries coded problems --------------------------------------------


def _uncoded_invalid_rules(source: str) -> list[int]:
    """Lines that build ``InvalidRules([...])`` from anything but ``Problem(...)`` calls. A name
    (``InvalidRules(errors)``) passes: mypy --strict holds those lists to ``list[Problem]``."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "InvalidRules"
        ):
            continue
        (arg,) = node.args
        if isinstance(arg, ast.List):
            items = arg.elts
        elif isinstance(arg, ast.ListComp):
            items = [arg.elt]
        else:
            items = [] if isinstance(arg, ast.Name) else [arg]
        if not all(
            isinstance(i, ast.Call) and isinstance(i.func, ast.Name) and i.func.id == "Problem" for i in items
        ):
            lines.append(node.lineno)
    return lines


@pytest.mark.parametrize(
    "path",
    [p for p in sorted(ENGINE.rglob("*.py")) if p not in UNCODED_ALLOWED],
    ids=lambda p: str(p.relative_to(ENGINE)),
)
def test_engines_raise_invalid_rules_with_coded_problems(path: Path) -> None:
    assert _uncoded_invalid_rules(path.read_text()) == []


def test_the_check_catches_an_uncoded_problem() -> None:
    source = 'InvalidRules([f"unknown option {name!r}"])\nInvalidRules([str(e) for e in x])\nInvalidRules(errors)\n'
    assert _uncoded_invalid_rules(source) == [1, 2]
