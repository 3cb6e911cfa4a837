"""The command line's manual made from its own parsers: the man page (``urlsift --manpage``, kept as
docs/urlsift.1) and the bash, zsh and fish completion scripts (``urlsift --completion SHELL``).

Made from the parsers rather than written beside them, so that an option added to the command line
is in the man page and the completions with nothing more to do (tests/cli/test_manual.py checks
that each names every option, and that docs/urlsift.1 is what ``--manpage`` prints now).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator
from typing import NamedTuple

from ._version import __version__

SHELLS = ("bash", "zsh", "fish")
VALIDATE = "validate"
"""The second command's word: ``urlsift validate URL...`` has a parser of its own."""
REPORT = "report"
"""The third's: ``urlsift report PATH... -o FILE`` (issue 33)."""
SUMMARIES = {VALIDATE: "judge URLs instead", REPORT: "an HTML page of the links found"}
"""What each command word does, as a completion menu says it."""
Commands = dict[str, argparse.ArgumentParser]
"""The command words (``SUMMARIES``' keys) and their parsers."""


class _Option(NamedTuple):
    flags: tuple[str, ...]
    help: str
    takes: str | None
    """What follows it: None (a switch), ``FILE``, ``DIR`` or another metavar (no completion)."""
    choices: tuple[str, ...]
    repeats: bool


def _options(parser: argparse.ArgumentParser) -> Iterator[_Option]:
    for action in parser._actions:
        if not action.option_strings or action.help == argparse.SUPPRESS:
            continue
        choices = tuple(str(choice) for choice in action.choices or ())
        takes = None if action.nargs == 0 else str(action.metavar or action.dest.upper())
        yield _Option(
            tuple(action.option_strings),
            _first_clause(action.help or ""),
            takes,
            choices,
            isinstance(action, argparse._AppendAction),
        )


def _first_clause(text: str, most: int = 72) -> str:
    """A help text cut for a completion menu (one short line): up to its first ';', in ``most``
    characters at most."""
    text = re.split(r"; ", " ".join(text.split()).replace("%%", "%"), maxsplit=1)[0].strip()
    if text.count("(") > text.count(")"):  # cut inside brackets: drop the unclosed one
        text = text[: text.rfind("(")].rstrip()
    return text if len(text) <= most else text[: text.rfind(" ", 0, most - 4)] + " ..."


# --- bash -------------------------------------------------------------------------------------


def _bash_cases(parser: argparse.ArgumentParser) -> str:
    cases: list[str] = []
    for option in _options(parser):
        if option.takes is None:
            continue
        pattern = "|".join(option.flags)
        if option.choices:
            reply = f'COMPREPLY=($(compgen -W "{" ".join(option.choices)}" -- "$cur"))'
        elif option.takes == "FILE":
            reply = 'COMPREPLY=($(compgen -f -- "$cur"))'
        elif option.takes == "DIR":
            reply = 'COMPREPLY=($(compgen -d -- "$cur"))'
        else:
            reply = "COMPREPLY=()"  # a number, a size, a list: nothing to offer
        cases.append(f"            {pattern}) {reply}; return ;;")
    return "\n".join(cases)


def _bash_words(parser: argparse.ArgumentParser) -> str:
    return " ".join(flag for option in _options(parser) for flag in option.flags)


def _bash_command(word: str, parser: argparse.ArgumentParser) -> str:
    return f"""    if [[ "${{COMP_WORDS[1]}}" == {word} && $COMP_CWORD -gt 1 ]]; then
        case "$prev" in
{_bash_cases(parser)}
        esac
        if [[ "$cur" == -* ]]; then
            COMPREPLY=($(compgen -W "{_bash_words(parser)}" -- "$cur"))
            return
        fi
        {"return" if word == VALIDATE else 'COMPREPLY=($(compgen -f -- "$cur")); return'}
    fi
"""


def bash(scan: argparse.ArgumentParser, commands: Commands) -> str:
    words = " ".join(commands)
    each = "".join(_bash_command(word, parser) for word, parser in commands.items())
    return f"""# bash completion for urlsift {__version__}: urlsift --completion bash (made from its options)
_urlsift() {{
    local cur="${{COMP_WORDS[COMP_CWORD]}}" prev="${{COMP_WORDS[COMP_CWORD-1]}}"
    COMPREPLY=()
{each}    case "$prev" in
{_bash_cases(scan)}
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "{_bash_words(scan)}" -- "$cur"))
        return
    fi
    if [[ $COMP_CWORD -eq 1 ]]; then
        COMPREPLY=($(compgen -W "{words}" -- "$cur"))
    fi
    COMPREPLY+=($(compgen -f -- "$cur"))
}}
complete -o filenames -F _urlsift urlsift
"""


# --- zsh --------------------------------------------------------------------------------------


def _zsh_text(text: str) -> str:
    """Text inside a single-quoted _arguments spec's [...] or :...: part."""
    return re.sub(r"([\[\]:\\])", r"\\\1", text).replace("'", "'\\''")


def _zsh_specs(parser: argparse.ArgumentParser) -> str:
    specs: list[str] = []
    for option in _options(parser):
        for flag in option.flags:
            repeat = "*" if option.repeats else ""
            described = f"[{_zsh_text(option.help)}]"
            if option.takes is None:
                specs.append(f"'{repeat}{flag}{described}'")
                continue
            if option.choices:
                action = f"({' '.join(option.choices)})"
            elif option.takes == "FILE":
                action = "_files"
            elif option.takes == "DIR":
                action = "_files -/"
            else:
                action = " "
            joined = "=" if flag.startswith("--") else "+"
            specs.append(f"'{repeat}{flag}{joined}{described}:{_zsh_text(option.takes)}:{action}'")
    return " \\\n        ".join(specs)


def _zsh_command(word: str, parser: argparse.ArgumentParser) -> str:
    operand = "'*:URL: '" if word == VALIDATE else "'*:PATH:_files'"
    return f"""    if (( CURRENT > 2 )) && [[ ${{words[2]}} == {word} ]]; then
        shift words
        (( CURRENT-- ))
        _arguments -s -S \\
        {_zsh_specs(parser)} \\
        {operand}
        return
    fi
"""


def zsh(scan: argparse.ArgumentParser, commands: Commands) -> str:
    each = "".join(_zsh_command(word, parser) for word, parser in commands.items())
    # (Inside a single-quoted word: a quote in a summary would end it.)
    menu = " ".join(f'{word}\\:"{SUMMARIES[word]}"'.replace("'", "'\\''") for word in commands)
    return f"""#compdef urlsift
# zsh completion for urlsift {__version__}: urlsift --completion zsh (made from its options)
_urlsift() {{
{each}    if (( CURRENT == 2 )) && [[ $PREFIX != -* ]]; then
        _alternative 'commands:command:(({menu}))' 'files:file:_files'
        return
    fi
    _arguments -s -S \\
        {_zsh_specs(scan)} \\
        '*:PATH:_files'
}}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
    _urlsift "$@"
else
    compdef _urlsift urlsift
fi
"""


# --- fish -------------------------------------------------------------------------------------


def _fish_text(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _fish_lines(parser: argparse.ArgumentParser, condition: str) -> Iterator[str]:
    for option in _options(parser):
        words = [f"complete -c urlsift -n {_fish_text(condition)}"]
        for flag in option.flags:
            words.append(f"-l {flag[2:]}" if flag.startswith("--") else f"-s {flag[1:]}")
        if option.choices:
            words.append(f"-x -a {_fish_text(' '.join(option.choices))}")
        elif option.takes == "FILE":
            words.append("-r -F")
        elif option.takes == "DIR":
            words.append("-x -a '(__fish_complete_directories)'")
        elif option.takes is not None:
            words.append("-x")
        words.append(f"-d {_fish_text(option.help)}")
        yield " ".join(words)


def fish(scan: argparse.ArgumentParser, commands: Commands) -> str:
    scanning = f"not __fish_seen_subcommand_from {' '.join(commands)}"
    lines = [
        f"# fish completion for urlsift {__version__}: urlsift --completion fish (made from its options)",
        *(
            f"complete -c urlsift -n {_fish_text('__fish_use_subcommand')} -a {word} "
            f"-d {_fish_text(SUMMARIES[word])}"
            for word in commands
        ),
        *_fish_lines(scan, scanning),
    ]
    for word, parser in commands.items():
        lines.extend(_fish_lines(parser, f"__fish_seen_subcommand_from {word}"))
    return "\n".join(lines) + "\n"


def completion(shell: str, scan: argparse.ArgumentParser, commands: Commands) -> str:
    """The completion script of ``shell`` (one of SHELLS) for every command."""
    return {"bash": bash, "zsh": zsh, "fish": fish}[shell](scan, commands)


# --- the man page -----------------------------------------------------------------------------


def _roff(text: str) -> str:
    """Text as roff reads it literally: backslashes and hyphens escaped, no line opening a request."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\n".join("\\&" + line if line.startswith((".", "'")) else line for line in text.splitlines())


def _paragraphs(text: str) -> Iterator[str]:
    """The help texts' paragraphs, and an epilog's block of examples as tagged paragraphs."""
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = block.splitlines()
        if lines and all(line.startswith(" ") for line in lines[1:]) and lines[0].endswith(":"):
            for line in lines[1:]:  # a command at two spaces, what it does under it at more
                if line.startswith("   "):
                    yield _roff(line.strip())
                else:
                    yield ".TP\n.B " + _roff(line.strip())
        else:
            yield ".PP\n" + _roff(" ".join(block.split()))


def _roff_options(
    parser: argparse.ArgumentParser, said: frozenset[argparse.Action] = frozenset()
) -> Iterator[str]:
    """The options of ``parser``, group by group, less those ``said`` already (a command's that it
    shares with the scan: its description names them)."""
    for group in parser._action_groups:
        actions = [
            action
            for action in group._group_actions
            if action.help != argparse.SUPPRESS and action not in said
        ]
        if not actions:
            continue
        yield ".SS " + _roff(group.title or "")
        for action in actions:
            if action.option_strings:
                value = "" if action.nargs == 0 else " " + _metavar(action)
                names = ", ".join(f"\\fB{_roff(flag)}\\fR{value}" for flag in action.option_strings)
            else:
                names = _metavar(action)
            help_text = (action.help or "").replace("%(default)s", str(action.default)).replace("%%", "%")
            yield f".TP\n{names}\n{_roff(' '.join(help_text.split()))}"


def _metavar(action: argparse.Action) -> str:
    if action.choices and action.metavar is None:
        return "\\fI" + "|".join(_roff(str(choice)) for choice in action.choices) + "\\fR"
    return "\\fI" + _roff(str(action.metavar or action.dest.upper())) + "\\fR"


def manpage(scan: argparse.ArgumentParser, commands: Commands) -> str:
    """The man page, urlsift(1), in roff's man macros."""
    synopsis = {VALIDATE: "\\fIURL\\fR...", REPORT: "[\\fIPATH\\fR]... \\fB\\-o\\fR \\fIFILE\\fR"}
    sections: list[str] = []
    for word, parser in commands.items():
        shared = frozenset(scan._actions)
        sections += [
            f".SH {word.upper()}",
            *_paragraphs(parser.description or ""),
            *_roff_options(parser, shared),
        ]
    parts = [
        f'.TH URLSIFT 1 "" "urlsift {__version__}" "User Commands"',
        ".SH NAME",
        "urlsift \\- find the URLs of text, mail and news archives, and validate them",
        ".SH SYNOPSIS",
        ".B urlsift\n[\\fIOPTION\\fR]... [\\fIPATH\\fR]...",
        *(f".br\n.B urlsift {word}\n[\\fIOPTION\\fR]... {synopsis[word]}" for word in commands),
        ".SH DESCRIPTION",
        *_paragraphs(scan.description or ""),
        ".SH OPTIONS",
        *_roff_options(scan),
        *sections,
        ".SH EXAMPLES",
        *(line for parser in commands.values() for line in _paragraphs(parser.epilog or "")),
        *(_paragraphs(scan.epilog) if scan.epilog else ()),
        ".SH SEE ALSO",
        ".BR grep (1),\n.BR rg (1).\nThe user guide: docs/ in the source, the README's links.",
    ]
    return "\n".join(parts) + "\n"
