"""The `joke` command lists every subcommand and fails loudly when the one that runs cannot be imported."""

from __future__ import annotations

import pytest

from jokeapp import cli


def test_every_subcommand_is_offered() -> None:
    parser = cli.build_parser()
    choices = parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert set(choices) == set(cli.SUBCOMMANDS)


def test_a_subcommand_that_does_not_import_raises_instead_of_vanishing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    broken = {**cli.SUBCOMMANDS, "ghost": ("jokeapp.no_such_module", "a broken install")}
    monkeypatch.setattr(cli, "SUBCOMMANDS", broken)
    assert "ghost" in cli.build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    with pytest.raises(ModuleNotFoundError, match="jokeapp.no_such_module"):
        cli.main(["ghost"])
