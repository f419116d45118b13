"""`make bench` (``python -m jokeapp.bench``): every section's tool takes the arguments it is
given. Issue 11 found the load section called with arguments its tool refused (exit 2), so
BENCHMARKS.md's table came from no command at all; this parses each command as the tool
would, without measuring anything."""

from __future__ import annotations

import argparse
import importlib
from typing import Any

import pytest

from jokeapp.bench import __main__ as bench


class Parsed(Exception):
    """Raised where a tool would start measuring: its arguments were accepted."""


@pytest.mark.parametrize("quick", [False, True])
def test_every_tool_takes_the_arguments_make_bench_gives_it(
    quick: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = argparse.ArgumentParser.parse_args

    def parse_only(self: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> Any:
        raise Parsed(original(self, *args, **kwargs))

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parse_only)
    options = argparse.Namespace(quick=quick, load_rooms=[10, 100], skip_match=["marble:a,b"])
    commands = bench.tool_commands(options)
    assert set(commands) | {"engines"} == set(bench.SECTIONS)  # every section is measured
    for name, (module, extra) in commands.items():
        tool = importlib.import_module(f"jokeapp.bench.{module}")
        try:
            tool.main(["--section", *extra])
        except Parsed:
            continue
        except SystemExit as refused:
            pytest.fail(f"{name}: jokeapp.bench.{module} refused {extra} (exit {refused.code})")
        pytest.fail(f"{name}: jokeapp.bench.{module} never parsed its arguments")


def test_the_start_up_section_names_each_command_with_its_cpu() -> None:
    from jokeapp.bench import startup

    figures = startup.measure(1)
    assert [name for name, _ in figures] == [name for name, _ in startup.COMMANDS]
    assert all(len(ms) == 1 and ms[0] > 0 for _, ms in figures)  # a real process's CPU
    lines = startup.section(1, figures)
    assert lines[0].startswith(bench.HEADINGS["startup"])
    assert "`python -m jokeapp.bench.startup --runs 1`" in lines[2]
    assert sum(line.startswith("| `joke ") for line in lines) == len(startup.COMMANDS)
