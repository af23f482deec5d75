"""Black-box pass B16: consent and opt-in columns as CRMs, dialers and SMS platforms export
them, yes/no in French, Spanish and German, and opt-out date headers.

1. "TCPA Consent" / "TCPA Opt-In" (Y/N) was read as a do-not-call flag, the warning telling
   to keep only the "yes" rows: the consumers who gave consent. "PEWC" got no warning.
2. Shopify's "Accepts SMS Marketing" (and its kin) and HubSpot's "Marketing contact status"
   got no consent warning; "Accepts Email Marketing" is email only and must say so.
3. Oui/Non, Sí/No, Ja/Nein, O/N were not read under consent or do-not-call headers.
5. "Last SMS Unsubscribe", "Date de désabonnement", "Date de retrait" were not read as the
   request date.

Each file is staged as a dry run stages it (stage_import), with the watch over its rows.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.message_log_notes import flag_kind
from app.core.removal_job import stage_removal
from app.core.sheet_check import Target
from app.core.sheet_mapping import DateRank, request_date_rank

_KEEP_YES = "Keep only the rows where"


def _stage(
    path: Path, tmp_path: Path, target: Target = Target.DNC, kind: str = "import"
) -> tuple[dict[str, str], list[str]]:
    """The mapping (role → column) and the warnings of staging ``path``."""
    stager = stage_import if kind == "import" else stage_removal
    store, _ = stager(
        JobSettings(path, Scope.global_(), target=target), tmp_path / "jobs", connection=None
    )
    meta = store.meta()
    store.close()
    return dict(meta.get("mapping") or {}), [str(w) for w in meta.get("warnings") or []]


def _csv(tmp_path: Path, lines: list[str], encoding: str = "utf-8") -> Path:
    path = tmp_path / "file.csv"
    path.write_bytes(("\n".join(lines) + "\n").encode(encoding))
    return path


def _two_column(tmp_path: Path, header: str, values: list[str]) -> Path:
    return _csv(tmp_path, [f"Phone,{header}", *(f"303555080{i},{v}" for i, v in enumerate(values))])


def _consent_warning(header: str, said: int, rows: int, example: str) -> str:
    return (
        f"Column B ('{header}') says the consumer opted in, consented or is subscribed on "
        f"{said} of the first {rows} rows (as '{example}'): every row is imported whatever "
        "it says, so those numbers go on the list too."
    )


@pytest.mark.parametrize(
    "header",
    ["TCPA Consent", "TCPA Consent Given", "TCPA Opt-In", "TCPA_Consent", "PEWC",
     "PEWC Obtained", "Express Written Consent"],
)  # fmt: skip
def test_a_tcpa_consent_column_is_read_as_consent_never_as_a_dnc_flag(
    header: str, tmp_path: Path
) -> None:
    path = _two_column(tmp_path, header, ["Y", "N", "Y", "N", "Y"])
    _, warnings = _stage(path, tmp_path)
    assert not [w for w in warnings if _KEEP_YES in w or "yes or no" in w], warnings
    assert [w for w in warnings if w.startswith(f"Column B ('{header}')")] == [
        _consent_warning(header, 3, 5, "Y")
        + " If they did not opt out, delete those rows from the file (rows hidden by a filter "
        "are imported too) and run it again."
    ], warnings


def test_tcpa_in_a_consent_header_is_no_block_flag() -> None:
    assert [flag_kind(h) for h in ("TCPA Consent", "TCPA Opt-In", "TCPA Consent Given")] == [""] * 3
    # A block the header names besides the law's name stays one.
    assert flag_kind("TCPA Litigator") == "block"


@pytest.mark.parametrize(
    ("header", "values", "example"),
    [
        ("Accepts SMS Marketing", ["yes", "no", "yes", "no"], "yes"),
        ("accepts_sms_marketing", ["yes", "no", "yes", "no"], "yes"),
        ("Accepts SMS", ["yes", "no", "yes", "no"], "yes"),
        ("Accepts Marketing", ["yes", "no", "yes", "no"], "yes"),
        ("Marketing contact status", ["Marketing contact", "Non-marketing contact",
                                      "Marketing contact", "Non-marketing contact"],
         "Marketing contact"),
    ],
)  # fmt: skip
def test_an_accepts_marketing_column_gets_the_consent_warning(
    header: str, values: list[str], example: str, tmp_path: Path
) -> None:
    path = _two_column(tmp_path, header, values)
    _, warnings = _stage(path, tmp_path, Target.SMS_OPT_OUT)
    named = [w for w in warnings if w.startswith(f"Column B ('{header}')")]
    assert len(named) == 1, warnings
    assert named[0].startswith(_consent_warning(header, 2, 4, example)), warnings


def test_an_email_marketing_consent_column_says_it_is_email_only(tmp_path: Path) -> None:
    path = _two_column(tmp_path, "Accepts Email Marketing", ["yes", "no", "yes", "no"])
    _, warnings = _stage(path, tmp_path, Target.SMS_OPT_OUT)
    assert [w for w in warnings if "Accepts Email Marketing" in w] == [
        "Column B ('Accepts Email Marketing') says the consumer agreed to email on 2 of the "
        "first 4 rows (as 'yes'), which is no consent to be called or texted; it is not read, "
        "and every row is imported whatever it says."
    ], warnings
    _, removal = _stage(path, tmp_path, Target.SMS_OPT_OUT, kind="removal")
    assert [w for w in removal if "Accepts Email Marketing" in w] == [
        "Column B ('Accepts Email Marketing') says the consumer agreed to email on 2 of the "
        "first 4 rows (as 'yes'), which is no consent to be called or texted; it is not read, "
        "and every row is removed whatever it says."
    ], removal


def test_a_shopify_customers_export_names_its_sms_consent_column(tmp_path: Path) -> None:
    path = _csv(
        tmp_path,
        [
            "Customer ID,First Name,Email,Accepts Email Marketing,Phone,Accepts SMS Marketing",
            "'7012345678900,Mary,mary@shop.com,no,'+12125550112,no",
            "'7012345678901,Karen,karen@shop.com,no,'+17205550147,yes",
            "'7012345678902,Susan,susan@shop.com,no,'+14805550151,yes",
        ],
    )
    mapping, warnings = _stage(path, tmp_path, Target.SMS_OPT_OUT)
    assert mapping["phone"] == "Phone (column E)", mapping
    assert any(
        w.startswith(
            "Column F ('Accepts SMS Marketing') says the consumer opted in, consented or is "
            "subscribed on 2 of the first 3 rows (as 'yes')"
        )
        for w in warnings
    ), warnings


@pytest.mark.parametrize(
    ("header", "yes", "no"),
    [
        ("Consentement SMS", "Oui", "Non"),
        ("Consentimiento SMS", "Sí", "No"),
        ("Consentimiento SMS", "Si", "No"),
        ("SMS-Einwilligung", "Ja", "Nein"),
        ("SMS consent", "O", "N"),
    ],
)
def test_consent_in_french_spanish_and_german_is_read(
    header: str, yes: str, no: str, tmp_path: Path
) -> None:
    path = _two_column(tmp_path, header, [yes, no, yes, no])
    _, warnings = _stage(path, tmp_path, Target.SMS_OPT_OUT)
    named = [w for w in warnings if w.startswith(f"Column B ('{header}')")]
    assert len(named) == 1, warnings
    assert named[0].startswith(_consent_warning(header, 2, 4, yes)), warnings


def test_a_canadian_file_of_oui_non_columns_gets_both_warnings(tmp_path: Path) -> None:
    # files/canada_consent.csv: cp1252, ';', bilingual headers, Oui/Non.
    lines = ["Téléphone / Phone;Nom / Name;Ne pas appeler / Do not call;"
             "Consentement SMS / SMS consent"]  # fmt: skip
    flags = [("Oui", "Non"), ("Non", "Oui"), ("Oui", "Non"), ("Oui", "Non")]
    lines += [f"(514) 555-030{i};Hélène Côté;{dnc};{sms}" for i, (dnc, sms) in enumerate(flags)]
    path = _csv(tmp_path, lines, "cp1252")
    _, warnings = _stage(path, tmp_path)
    assert any(
        w.startswith(
            "Column D ('Consentement SMS / SMS consent') says the consumer opted in, consented "
            "or is subscribed on 1 of the first 4 rows (as 'Oui')"
        )
        for w in warnings
    ), warnings
    assert any(
        w.startswith(
            "Column C ('Ne pas appeler / Do not call') marks each row yes or no: 1 of the 4 rows "
            "does not say yes (row 3)"
        )
        for w in warnings
    ), warnings


@pytest.mark.parametrize(("yes", "no"), [("Ja", "Nein"), ("Sí", "No"), ("O", "N")])
def test_a_do_not_call_flag_of_foreign_yes_no_is_read(yes: str, no: str, tmp_path: Path) -> None:
    path = _two_column(tmp_path, "Do Not Call", [yes, no, yes])
    _, warnings = _stage(path, tmp_path)
    assert any(
        w.startswith(
            "Column B ('Do Not Call') marks each row yes or no: 1 of the 3 rows does not say "
            "yes (row 3)"
        )
        for w in warnings
    ), warnings


@pytest.mark.parametrize(
    "header",
    ["Last SMS Unsubscribe", "Date de désabonnement", "Date de retrait", "Unsubscribe Time",
     "Fecha de baja", "Abmeldedatum"],
)  # fmt: skip
def test_opt_out_date_headers_are_the_request_date(header: str, tmp_path: Path) -> None:
    path = _two_column(tmp_path, header, ["2026-11-02", "2026-11-20", "2026-11-21"])
    mapping, warnings = _stage(path, tmp_path)
    assert mapping.get("request_date") == f"{header} (column B)", (mapping, warnings)


def test_the_day_a_list_added_a_number_is_not_the_request_date(tmp_path: Path) -> None:
    # When a list added the number is not when the consumer asked: left unread, and said so.
    assert request_date_rank("Date Added to DNC", True) is DateRank.OTHER
    path = _two_column(tmp_path, "Date Added to DNC", ["2026-11-02", "2026-11-20"])
    mapping, warnings = _stage(path, tmp_path)
    assert "request_date" not in mapping
    assert any(w.startswith("Column B ('Date Added to DNC') names another date") for w in warnings)


@pytest.mark.parametrize(
    "header", ["Consentement retiré", "Consentimiento revocado", "Einwilligung widerrufen"]
)
def test_consent_withdrawn_is_not_read_as_consent(header: str, tmp_path: Path) -> None:
    # Its "yes" rows withdrew consent: they are the opt-outs, not consumers who agreed.
    path = _two_column(tmp_path, header, ["Oui", "Non", "Oui", "Non"])
    _, warnings = _stage(path, tmp_path, Target.SMS_OPT_OUT)
    assert not [w for w in warnings if "opted in, consented" in w], warnings
