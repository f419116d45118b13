"""The `joke` command lists every subcommand and fails loudly when the one that runs cannot be imported."""

from __future__ import annotations

import argparse

import pytest

from jokeapp import cli


def _choices(parser: argparse.ArgumentParser) -> dict[str, object]:
    subparsers = parser._subparsers
    assert subparsers is not None
    choices = subparsers._group_actions[0].choices
    assert isinstance(choices, dict)
    return choices


def test_every_subcommand_is_offered() -> None:
    parser = cli.build_parser()
    assert set(_choices(parser)) == set(cli.SUBCOMMANDS)


def test_a_subcommand_that_does_not_import_raises_instead_of_vanishing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    broken = {**cli.SUBCOMMANDS, "ghost": ("jokeapp.no_such_module", "a broken install")}
    monkeypatch.setattr(cli, "SUBCOMMANDS", broken)
    assert "ghost" in _choices(cli.build_parser())
    with pytest.raises(ModuleNotFoundError, match="jokeapp.no_such_module"):
        cli.main(["ghost"])
