"""`make bench` (``python -m jokeapp.bench``): every section's tool takes the arguments it is
given. Issue 11 found the load section called with arguments its tool refused (exit 2), so
BENCHMARKS.md's table came from no command at all; this parses each command as the tool
would, without measuring anything."""

from __future__ import annotations

import argparse
import importlib
import subprocess
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


def test_an_engine_run_reports_the_engines_it_ran_and_its_four_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import json

    from jokeapp import compiled
    from jokeapp.bench import engines

    assert engines.main(["--run", "1", "--marble-games", "2", "--dalmuti-games", "2"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["engines"] == compiled.STATE
    names = [name for name, _, _ in found["figures"]]
    assert names == [f.name for f in engines.marble(1, 1) + engines.dalmuti(1, 1)]
    assert all(value > 0 for _, _, value in found["figures"])


def test_the_engine_section_never_labels_pure_engines_compiled(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from jokeapp.bench import engines

    # no build in this directory: a child asked for the compiled engines cannot run them
    monkeypatch.setenv("JOKEAPP_ENGINES_DIR", str(tmp_path))
    assert engines.compiled_build() is not None
    with pytest.raises(subprocess.CalledProcessError):
        engines.interleaved(1, 1, 1, ("compiled",))
    lines = bench.engine_section(1, 1, 1)
    assert any("The compiled engines were not measured: no build in" in line for line in lines)
    assert not any(line.startswith("| compiled engines:") for line in lines)
    assert (
        sum(line.startswith("| marble: ") or line.startswith("| dalmuti: ") for line in lines) == 4
    )


def test_a_kept_section_names_the_machine_that_measured_it_not_this_one(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from jokeapp.bench.machine import describe

    path = tmp_path / "BENCHMARKS.md"
    path.write_text(
        "# Benchmarks\n\nWritten long ago.\n\nMachine: an old box, 2 cores.\n\n"
        "## Start-up (CPU of a command before it works)\n\nMeasured then.\n\n| a | b |\n"
    )
    assert bench.main(["--write", str(path), "--only", "engines", "--quick"]) == 0
    capsys.readouterr()
    text = path.read_text()
    startup = text[text.index("## Start-up") :]
    engines = text[text.index("## Engines") : text.index("## Start-up")]
    assert startup.splitlines()[:5] == [
        "## Start-up (CPU of a command before it works)",
        "",
        "Machine: an old box, 2 cores.",
        "",
        "Measured then.",
    ]
    assert f"Machine: {describe()}." in engines.splitlines()
    # written again, nothing changes but the engines' figures: every section has its machine
    assert bench.main(["--write", str(path), "--only", "engines", "--quick"]) == 0
    assert path.read_text().count("Machine: an old box, 2 cores.") == 1
