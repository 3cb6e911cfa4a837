"""The grammar's node classes behave as the frozen dataclasses they were (cold4, issue 31).

``_bnf.Node`` gives its subclasses a frozen dataclass's behaviour without ``dataclass`` making each
class (its cost is paid by every start): here each node class is held to a ``dataclass(frozen=True)``
twin with the same fields, on the nodes of the strict grammar itself."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from urlsift.grammar._bnf import Lit, Node, Rule, nodes
from urlsift.grammar.strict import STRICT_RULES

KINDS = sorted(Node.__subclasses__(), key=lambda kind: kind.__name__)
TREE = [node for root in STRICT_RULES for node in nodes(root)]


def _twin(kind: type[Node]) -> type:
    """A frozen dataclass of the same name, fields and defaults."""
    return dataclasses.make_dataclass(
        kind.__name__,
        [
            (name, object, dataclasses.field(default=kind._defaults[name]))
            if name in kind._defaults
            else (name, object)
            for name in kind._fields
        ],
        frozen=True,
    )


def _values(node: Node) -> dict[str, object]:
    return {name: getattr(node, name) for name in node._fields}


def test_the_strict_grammar_has_every_kind_of_node() -> None:
    assert {type(node) for node in TREE} == set(KINDS)


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.__name__)
def test_a_node_is_its_frozen_dataclass_twin(kind: type[Node]) -> None:
    assert kind._fields == tuple(kind.__annotations__)  # every annotated field, in order
    assert kind.__match_args__ == kind._fields
    twin = _twin(kind)
    for node in (node for node in TREE if type(node) is kind):
        same = twin(**_values(node))
        assert repr(node) == repr(same)
        assert hash(node) == hash(same)
        assert node == kind(*_values(node).values()) == copy.deepcopy(node)
        assert node == pickle.loads(pickle.dumps(node))
        assert node != same  # another class, as between two dataclasses
        for name in kind._fields:
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(node, name, None)
            with pytest.raises(dataclasses.FrozenInstanceError):
                delattr(node, name)


def test_a_node_takes_its_fields_as_a_dataclass_does() -> None:
    assert Lit("a", whole=True) == Lit("a", None, None, True) != Lit("a")
    assert Lit("a") != Lit("b")
    assert hash(Lit("a")) == hash(("a", None, None, False))
    assert Rule("r", Lit("a")).group is None  # defaults
    with pytest.raises(TypeError, match="missing argument 'body'"):
        Rule("r")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected or repeated argument 'name'"):
        Rule("r", Lit("a"), name="s")  # type: ignore[misc]
    with pytest.raises(TypeError, match="unexpected or repeated argument 'size'"):
        Lit("a", size=1)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="takes 4 arguments, 5 given"):
        Lit("a", None, None, True, 1)  # type: ignore[call-arg]
    match Rule("r", Lit("a")):
        case Rule(name, Lit(text)):
            assert (name, text) == ("r", "a")
        case _:
            raise AssertionError("no match")
