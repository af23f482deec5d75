"""Core's sentences reworded for the window: the command-line options they name become the
boxes and lists the wizards offer.

Core words its warnings and row messages for the command line ("import it again with that
country's: --phone-code 49 for Germany, …"), and the job's report and the CLI keep that
wording. The import wizard's check page and the job pages show the same sentences, where no
such flag exists (black-box B11 #5): :func:`for_window` names what the window offers instead,
the page it is on included. An option the window has no equivalent for (``--report``,
``--overwrite``, a removal's phone column, …) stays as written, and a parenthesis core already
words for the command line ("(or name it with --sheet 'X' on the command line)") is left
alone.

The import wizard and the bulk removal dialog offer different boxes: ``removal`` says which
window the text is shown in.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from app.core.staging_notes import NO_COLUMN

# The pages' titles, as the wizards set them (a test holds them to the pages).
FILE_PAGE: Final = "Choose the file"
MAPPING_PAGE: Final = "Match the columns"
TARGET_PAGE: Final = "Where the numbers go"
REMOVAL_SOURCE_PAGE: Final = "Numbers to remove from the DNC list"
REMOVAL_OPTIONS_PAGE: Final = "Scope, leads and reason"
# The removal dialog's boxes, as labelled there.
HIDDEN_BOX: Final = "Also remove rows that are hidden or filtered out"
PER_ROW_BOX: Final = "Take each row's scope from the file's Scope or Campaign column"
LEAD_STATUS_BOX: Final = "Set the status of the leads with these numbers to…"
REMOVAL_CODE_BOX: Final = "Country code for numbers without one"

# An option's value as core writes it: repr() of a header (either quote), column:C, #3, NAME.
_VALUE: Final = r"""(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|column:[A-Z]+|#\d+|NAME)"""
_CODES: Final = r"\d+(?:(?:, | or )\d+)*"
# A parenthesis core words for the command line on purpose, beside the window's wording.
_CLI_ASIDE: Final = re.compile(r"\([^()]*\bon the command line\)")


@dataclass(frozen=True)
class _Window:
    """What one window offers, in the words its pages use."""

    removal: bool
    # The job has started (its run and result pages): there is no going back to a page, so
    # a choice is made in a new import of the file (a removal is started again either way).
    started: bool = False

    @property
    def anew(self) -> str:
        """How a person gets to the import's pages again."""
        return "start a new import of this file" if self.started else "go back"

    def on(self, page: str) -> str:
        return f"on the '{page}' page"

    @property
    def code_box(self) -> str:
        if self.removal:
            return f"the '{REMOVAL_CODE_BOX}' box {self.on(REMOVAL_SOURCE_PAGE)}"
        return f"the Country code box {self.on(MAPPING_PAGE)}"

    @property
    def sheet_list(self) -> str:
        page = REMOVAL_SOURCE_PAGE if self.removal else FILE_PAGE
        return f"the Sheet list {self.on(page)}"

    @property
    def scope_list(self) -> str:
        page = REMOVAL_OPTIONS_PAGE if self.removal else TARGET_PAGE
        return f"the Scope list {self.on(page)}"

    @property
    def again(self) -> str:
        if self.removal:
            return "start the removal again with"
        return f"{self.anew} with" if self.started else "go back and import it with"


def _value(text: str) -> str:
    """An option's value as the window names it: 'Phone', column C."""
    if text.startswith("column:"):
        return f"column {text.removeprefix('column:')}"
    if text.startswith("#"):
        return f"column {text[1:]}"
    return text


def _rules(w: _Window) -> list[tuple[str, str | Callable[[re.Match[str]], str]]]:
    """(pattern, replacement) in the order they apply: a longer wording before its parts."""
    told: list[bool] = []  # the code box was named once: later codes say only the code

    def codes(match: re.Match[str]) -> str:
        # "(--phone-code 1)" is one parenthesis: "(country code 1 in the Country code box …)".
        listed = match[1] or match[2]
        many = "," in listed or " or " in listed
        said = f"country code{'s' if many else ''} {listed}"
        first = not told
        told.append(True)
        if match[1]:
            return f"({said} in {w.code_box})" if first else f"({said})"
        return f"{said} ({w.code_box})" if first else said

    def ignore(match: re.Match[str]) -> str:
        return (
            f"the column list that reads {_value(match[1])} set to '{NO_COLUMN}' "
            f"{w.on(MAPPING_PAGE)}"
        )

    def phone_column(match: re.Match[str]) -> str:
        return f"{_value(match[1])} as the Phone number column {w.on(MAPPING_PAGE)}"

    scope_page = REMOVAL_OPTIONS_PAGE if w.removal else TARGET_PAGE
    purpose_scope = (
        rf"scope 'A purpose' with Purpose '\1' (the Scope list and Purpose box "
        f"{w.on(scope_page)})"
    )
    # The options this window has a box for: "again with" is reworded only before one of
    # them, so that an option kept as written is not run again "in the window".
    flags = ["phone-code", "sheet", "scope"] + (
        ["include-hidden", "per-row-scope", "lead-status"]
        if w.removal
        else ["ignore-column", "phone-column", "reason", "purpose"]
    )
    choose = "start the removal again choosing" if w.removal else f"{w.anew} and choose"
    handled = rf"(?=(?:that country's: )?--(?:{'|'.join(flags)})\b)"

    def commands(match: re.Match[str]) -> str:
        names = re.findall(r"--sheet (.+?)(?=; then dnc-desk |$)", match[0])
        each = "each in turn" if len(names) > 1 else "it"
        return f"{choose} {each} in {w.sheet_list} ({', '.join(names)})."

    rules: list[tuple[str, str | Callable[[re.Match[str]], str]]] = [
        # "To import them too, run dnc-desk import FILE --into dnc … --sheet 'B'; then …",
        # last in staging's warning on other sheets laid out as the one read: whole commands,
        # whose options the wizard already holds but the sheet.
        (r"run dnc-desk import .*--sheet .*$", commands),
        # "run the file again with --ignore-column 'State' --phone-code 1": two choices.
        (rf"(--ignore-column {_VALUE}) (--phone-code \d)", r"\1 and \2"),
        # "To import it, run the file again with --sheet NAME (as --sheet 'B')."
        (
            rf"run the file again with --sheet NAME( for each)? \(as --sheet ({_VALUE})\)",
            lambda m: f"{choose} {'each in turn' if m[1] else 'it'} in {w.sheet_list} ({m[2]})",
        ),
        (f"(?:import|remove|run the file) (?:it )?again with {handled}", w.again + " "),
        (
            rf"\b(?:a|the) run again with {handled}",
            "a removal again with " if w.removal else "importing again with ",
        ),
        (
            f"run the file again once for each: {handled}",
            "start the removal again once with each: "
            if w.removal
            else f"{w.anew} once with each: "
            if w.started
            else "go back and import it once with each: ",
        ),
        # One pattern for both forms: the box is named at the first code in the text.
        (rf"\(--phone-code ({_CODES})\)|--phone-code ({_CODES})", codes),
        (r"\bone --phone-code\b", f"one country code ({w.code_box})"),
        (r"--phone-code\b", w.code_box),
        (r"\(--resume\)", "(Resume, on the Jobs tab)"),
        (
            r"--sheet NAME for each \(as --sheet (" + _VALUE + r")\)",
            rf"each sheet in turn in {w.sheet_list} (as \1)",
        ),
        (
            r"--sheet NAME \(as --sheet (" + _VALUE + r")\)",
            rf"the sheet chosen in {w.sheet_list} (as \1)",
        ),
        (r"with --sheet \(", f"in {w.sheet_list} ("),
        (rf"--sheet ({_VALUE})", rf"sheet \1 ({w.sheet_list})"),
        (
            r"--scope purpose\b(?!:)",
            f"the scope 'A purpose' with the Purpose box empty ({w.scope_list})",
        ),
        # A purpose of several words is quoted whole (--scope 'purpose:Spring Sale').
        (r"the purpose scope \(--scope 'purpose:([^']*)'\)", f"the purpose {purpose_scope}"),
        (r"the purpose scope \(--scope '?purpose:([^'\s)]*)'?\)", f"the purpose {purpose_scope}"),
        (r"--scope 'purpose:([^']*)'", f"the {purpose_scope}"),
        (r"--scope '?purpose:([^'\s)]*)'?", f"the {purpose_scope}"),
        (r"--scope (global|campaign:[^\s,;)]+)", rf"scope \1 ({w.scope_list})"),
        (r"--scope\b", w.scope_list),
    ]
    if w.removal:
        return [
            *rules,
            (
                r"run the removal again including hidden rows \(--include-hidden\)",
                f"start the removal again with '{HIDDEN_BOX}' ticked {w.on(REMOVAL_SOURCE_PAGE)}",
            ),
            (r"--include-hidden\b", f"'{HIDDEN_BOX}', {w.on(REMOVAL_SOURCE_PAGE)}"),
            (
                r"--per-row-scope takes",
                f"ticking '{PER_ROW_BOX}' {w.on(REMOVAL_OPTIONS_PAGE)} takes",
            ),
            (r"--per-row-scope\b", f"'{PER_ROW_BOX}' {w.on(REMOVAL_OPTIONS_PAGE)}"),
            (r"--lead-status\b", f"'{LEAD_STATUS_BOX}' {w.on(REMOVAL_OPTIONS_PAGE)}"),
        ]
    return [
        *rules,
        (rf"--ignore-column ({_VALUE})", ignore),
        (r"--ignore-column\b", f"'{NO_COLUMN}' in the column list reading it {w.on(MAPPING_PAGE)}"),
        (
            r"--phone-column \(a header name, or a column as column:C or #3\)",
            f"the Phone number list {w.on(MAPPING_PAGE)}",
        ),
        (rf"--phone-column ({_VALUE})", phone_column),
        (r"--phone-column\b", f"the Phone number list {w.on(MAPPING_PAGE)}"),
        (r"--reason\b", f"the Reason box {w.on(MAPPING_PAGE)}"),
        (r"--purpose\b", f"the Purpose box {w.on(MAPPING_PAGE)}"),
    ]


def for_window(text: str, *, removal: bool = False, started: bool = False) -> str:
    """``text`` (a warning, a row's message, a staging error) with the command-line options it
    names reworded as the window offers them: ``--phone-code 49`` -> "country code 49 (the
    Country code box on the 'Match the columns' page)", "import it again with" -> "go back and
    import it with", ``--sheet 'B'`` -> the file page's Sheet list, and so on. ``removal``:
    shown by the bulk removal dialog, whose pages offer other boxes than the import wizard's.
    ``started``: shown once the job has started (its run and result pages), where there is no
    going back: a choice is then made in a new import of the file. Plain text in, plain text
    out."""
    if "--" not in text and " again with" not in text:
        return text
    window = _Window(removal, started)
    rules = [(re.compile(p), r) for p, r in _rules(window)]
    out: list[str] = []
    at = 0
    for aside in [*_CLI_ASIDE.finditer(text), None]:
        end = aside.start() if aside is not None else len(text)
        piece = text[at:end]
        for pattern, replacement in rules:
            piece = pattern.sub(replacement, piece)
        out.append(piece)
        if aside is not None:
            out.append(aside[0])
            at = aside.end()
    return "".join(out)
