"""Black-box pass N4 #12: German, Spanish and French notes headers were not read as reasons."""

from __future__ import annotations

import pytest

from app.core.sheet_mapping import Role, header_role, propose_mapping


@pytest.mark.parametrize(
    "header",
    [
        "Bemerkung", "Grund", "Motivo", "Kommentar", "Anmerkung", "Comentario",
        "Observaciones", "Raison", "Motif", "Remarque", "Commentaire", "Motivo de baja",
        "Grund der Sperre",
    ],
)  # fmt: skip
def test_a_notes_header_in_another_language_is_the_reason(header: str) -> None:
    assert header_role(header) is Role.REASON
    rows = [(2, ["3035552031", "Kunde will keine Anrufe"])]
    assert propose_mapping(["Telefon", header], rows).reason == 1
