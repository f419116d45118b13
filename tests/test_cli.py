"""The `joke` command lists every subcommand and fails loudly when the one that runs cannot be imported."""

from __future__ import annotations

import argparse

import pytest

from jokeapp import cli
from jokeapp.server.settings import Settings


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


def _serve_settings(argv: list[str]) -> tuple[Settings, argparse.Namespace]:
    from jokeapp.server import cli as serve

    args = cli.build_parser(["serve", *argv]).parse_args(["serve", *argv])
    return serve.settings_from(args), args


def test_serve_takes_each_deployment_flag_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("JOKE_DB", "postgresql://joke@db/joke")
    monkeypatch.setenv("JOKE_REDIS", "redis://cache:6379/2")
    monkeypatch.setenv("JOKE_NODE", "web-3")
    monkeypatch.setenv("JOKE_HOST", "0.0.0.0")
    monkeypatch.setenv("JOKE_PORT", "8003")
    monkeypatch.setenv("JOKE_LOG_LEVEL", "INFO")
    settings, args = _serve_settings([])
    assert (args.host, args.port, args.log_level) == ("0.0.0.0", 8003, "info")
    assert settings.db == "postgresql://joke@db/joke"
    assert settings.redis == "redis://cache:6379/2"
    assert settings.node == "web-3"
    # a flag wins over its variable
    settings, args = _serve_settings(["--port", "9000", "--node", "other", "--log-level", "debug"])
    assert (args.port, args.log_level, settings.node) == (9000, "debug", "other")


def test_every_serve_flag_that_takes_a_value_comes_from_its_variable_and_is_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("JOKE_DB_SCHEMA", "joke_a")
    monkeypatch.setenv("JOKE_REDIS_PREFIX", "site")
    monkeypatch.setenv("JOKE_LEASE_TTL", "7.5")
    monkeypatch.setenv("JOKE_ADVERTISE", "http://10.0.0.7:8001")
    monkeypatch.setenv("JOKE_WS_PING", "0")
    monkeypatch.setenv("JOKE_GC_THRESHOLD", "1000,20,30")
    settings, args = _serve_settings([])
    assert (settings.db_schema, settings.redis_prefix, settings.lease_ttl) == (
        "joke_a",
        "site",
        7.5,
    )
    assert settings.advertise == "http://10.0.0.7:8001"
    assert args.ws_ping == 0.0 and settings.gc.threshold == (1000, 20, 30)  # parsed as the flag
    settings, _ = _serve_settings(["--lease-ttl", "4"])
    assert settings.lease_ttl == 4.0  # the flag wins
    monkeypatch.setenv("JOKE_LEASE_TTL", "soon")
    with pytest.raises(SystemExit):  # the flag's own error: invalid float value: 'soon'
        _serve_settings([])
    monkeypatch.delenv("JOKE_LEASE_TTL")
    monkeypatch.setenv("JOKE_LOG_LEVEL", "loud")
    with pytest.raises(SystemExit):  # not one of its choices, as the flag would be refused
        _serve_settings([])


def test_serve_without_redis_is_one_process_named_after_the_host(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("JOKE_DB", "JOKE_REDIS", "JOKE_NODE", "JOKE_HOST", "JOKE_PORT", "JOKE_LOG_LEVEL"):
        monkeypatch.delenv(name, raising=False)
    settings, args = _serve_settings([])
    assert settings.redis is None and settings.db == "var/joke.sqlite3"
    assert settings.node.endswith("-8000")
    with pytest.raises(SystemExit):
        _serve_settings(["--log-level", "loud"])


def test_serve_takes_the_collector_s_policy() -> None:
    from jokeapp.server.collector import GcPolicy

    settings, _ = _serve_settings([])
    assert settings.gc == GcPolicy()
    settings, _ = _serve_settings(["--gc-threshold", "1000,20,30", "--no-gc-freeze"])
    assert settings.gc == GcPolicy(threshold=(1000, 20, 30), freeze=False)
    settings, _ = _serve_settings(
        ["--gc-young-every", "0.5", "--gc-full-growth", "1", "--gc-heap-every", "2"]
    )
    assert settings.gc == GcPolicy(young_every=0.5, full_growth=1.0, heap_every=2.0)
    for flag, bad in [("--gc-threshold", "1000,20"), ("--gc-threshold", "a,b,c"),
                      ("--gc-threshold", "1000,-1,2"), ("--gc-young-every", "0"),
                      ("--gc-heap-every", "0"), ("--gc-full-growth", "-1")]:  # fmt: skip
        with pytest.raises(SystemExit):
            _serve_settings([flag, bad])
