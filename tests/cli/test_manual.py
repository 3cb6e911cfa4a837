"""The man page and the shell completions are made from the parsers (issue 30, item 9): each names
every option of ``urlsift`` and of ``urlsift validate``, so an option added later cannot be left out
of them; docs/urlsift.1 is what ``urlsift --manpage`` prints now; the scripts are valid in their
shells and complete what they say."""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from urlsift import cli, manual

ROOT = Path(__file__).resolve().parents[2]
MANPAGE = ROOT / "docs" / "urlsift.1"
GUIDE = ROOT / "docs" / "guide.md"


def _run(*arguments: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "urlsift", *arguments], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _actions(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [action for action in parser._actions if action.option_strings]


PARSERS = {
    "urlsift": cli._scan_parser(),
    "urlsift validate": cli._validate_parser(),
    "urlsift report": cli._report_parser(),
}
FLAGS = {
    name: [flag for action in _actions(parser) for flag in action.option_strings]
    for name, parser in PARSERS.items()
}


def test_the_parsers_have_the_options_the_checks_look_for() -> None:
    assert {"--format", "--completion", "--manpage", "-j", "-0"} <= set(FLAGS["urlsift"])
    assert "--profile" in FLAGS["urlsift validate"]
    assert {"--from", "--dataset", "--top", "-o", "--jobs", "--parts"} <= set(FLAGS["urlsift report"])


@pytest.mark.parametrize("shell", manual.SHELLS)
def test_a_completion_names_every_option_and_choice(shell: str) -> None:
    script = _run("--completion", shell)
    for parser in PARSERS.values():
        for action in _actions(parser):
            for flag in action.option_strings:
                said = f"-l {flag[2:]}" if shell == "fish" and flag.startswith("--") else flag
                said = f"-s {flag[1:]}" if shell == "fish" and not flag.startswith("--") else said
                assert said in script, (shell, flag)
            for choice in action.choices or ():
                assert str(choice) in script, (shell, action.dest, choice)


def test_the_man_page_names_every_option_and_is_current() -> None:
    page = _run("--manpage")
    for parser in PARSERS.values():
        for action in _actions(parser):
            for flag in action.option_strings:
                assert f"\\fB{flag.replace('-', chr(92) + '-')}\\fR" in page, flag
    assert MANPAGE.read_text(encoding="utf-8") == page, "run: urlsift --manpage > docs/urlsift.1"


def test_help_ends_with_examples_and_cites_no_decision() -> None:
    for arguments in (["--help"], ["validate", "--help"], ["report", "--help"]):
        said = _run(*arguments)
        assert "\nexamples:\n  urlsift " in said
        assert "(D" not in said  # a decision's number means nothing to a user
        assert " D30" not in said
    said = _run("--help")
    for kind in ("WARC", "zstd", "JSON lines", "public-inbox"):
        assert kind in said


@pytest.mark.skipif(shutil.which("groff") is None, reason="groff is not installed")
def test_the_man_page_renders_without_a_warning() -> None:
    done = subprocess.run(
        ["groff", "-man", "-Tutf8", "-ww", "-z", str(MANPAGE)], capture_output=True, text=True, check=False
    )
    assert (done.returncode, done.stderr) == (0, "")


def _bash_complete(words: list[str]) -> list[str]:
    """What the bash script offers with the cursor at the end of the last word."""
    script = _run("--completion", "bash")
    line = " ".join(f"'{word}'" for word in words)
    ask = f'COMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; _urlsift; printf "%s\\n" "${{COMPREPLY[@]}}"'
    program = f"{script}\n{ask}"
    done = subprocess.run(["bash", "-c", program], capture_output=True, text=True, check=True, cwd=ROOT)
    return done.stdout.split()


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_the_bash_completion_completes_options_choices_and_the_command() -> None:
    assert _bash_complete(["urlsift", "--form"]) == ["--format"]
    assert _bash_complete(["urlsift", "--format", ""]) == ["text", "jsonl", "csv", "parquet"]
    assert _bash_complete(["urlsift", "validate", "--profile", "b"]) == ["both"]
    assert _bash_complete(["urlsift", "report", "--fr"]) == ["--from"]
    assert _bash_complete(["urlsift", "report", "--parts", "h"]) == ["headers"]
    assert "corpora" in _bash_complete(["urlsift", "report", "corp"])
    assert "report" in _bash_complete(["urlsift", "rep"])
    assert "validate" in _bash_complete(["urlsift", "val"])
    assert "corpora" in _bash_complete(["urlsift", "corp"])  # files too


@pytest.mark.parametrize("shell", manual.SHELLS)
def test_a_completion_script_is_valid_in_its_shell(shell: str, tmp_path: Path) -> None:
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed")
    script = tmp_path / f"urlsift.{shell}"
    script.write_text(_run("--completion", shell))
    done = subprocess.run([shell, "-n", str(script)], capture_output=True, text=True, check=False)
    assert (done.returncode, done.stderr) == (0, "")


def test_the_guide_has_a_row_for_every_option() -> None:
    """docs/guide.md's table of options: a new option is one row there (issue 30, item 9)."""
    text = GUIDE.read_text(encoding="utf-8")
    table = text[text.index("| option | |") :]
    table = table[: table.index("\n\n")]
    cells = [row.split(" | ")[0] for row in table.splitlines()[2:]]
    named = {flag for cell in cells for flag in re.findall(r"(?<![\w-])(-{1,2}\w[\w-]*)", cell)}
    missing = {flag for flags in FLAGS.values() for flag in flags} - named
    assert not missing, f"docs/guide.md's table of options has no row for {sorted(missing)}"
