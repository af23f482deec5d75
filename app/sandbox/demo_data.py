"""Deterministic demo data: campaigns, lists, leads, lead statuses, DNC entries, SMS opt-outs.

Everything is drawn from ``random.Random(seed)``; dates are relative to today so that "older than
five years" stays true whenever the sandbox is started. Leads and DNC/SMS entries overlap on
purpose so an audit has conflicts to find.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import date, datetime, timedelta

from app.sandbox.store import Store, campaign_uid

# (code, name, final, reached, success, dnc, callback, contact, voicemail, workflow, colour)
SYSTEM_STATUSES = (
    ("NEW", "New Lead", "N", "N", "N", "N", "N", "N", "N", "none", "4CAF50"),
    ("CALLBK", "Call Back", "N", "Y", "N", "N", "Y", "Y", "N", "callback", "2196F3"),
    ("DNC", "Do Not Call", "Y", "Y", "N", "Y", "N", "Y", "N", "dnc", "F44336"),
    ("SALE", "Sale Made", "Y", "Y", "Y", "N", "N", "Y", "N", "none", "FFC107"),
    ("NI", "Not Interested", "Y", "Y", "N", "N", "N", "Y", "N", "none", "9E9E9E"),
    ("NA", "No Answer", "N", "N", "N", "N", "N", "N", "N", "none", "BDBDBD"),
    ("B", "Busy", "N", "N", "N", "N", "N", "N", "N", "none", "795548"),
    ("A", "Answering Machine", "N", "N", "N", "N", "N", "N", "Y", "none", "607D8B"),
    ("DROP", "Agent Not Available", "N", "N", "N", "N", "N", "N", "N", "none", "FF5722"),
    ("DC", "Disconnected Number", "Y", "N", "N", "N", "N", "N", "N", "none", "000000"),
    ("XFER", "Call Transferred", "N", "Y", "N", "N", "N", "Y", "N", "none", "3F51B5"),
)
CUSTOM_STATUSES = (
    ("HOTLD", "Hot Lead", "N", "Y", "N", "N", "Y", "Y", "N", "callback", "E91E63"),
    ("APPT", "Appointment Set", "Y", "Y", "Y", "N", "N", "Y", "N", "none", "8BC34A"),
    ("WRONG", "Wrong Number", "Y", "Y", "N", "N", "N", "N", "N", "none", "673AB7"),
    ("DNCREQ", "DNC Requested By Caller", "Y", "Y", "N", "Y", "N", "Y", "N", "dnc", "B71C1C"),
    ("LANG", "Language Barrier", "N", "Y", "N", "N", "Y", "Y", "N", "none", "00BCD4"),
)

# (id, name, active)
CAMPAIGNS = (
    (1001, "Solar Savings Outreach", True),
    (1002, "Medicare Enrollment 2026", True),
    (1003, "Auto Insurance Renewals", True),
    (1004, "Home Security Leads", False),
    (1005, "Charity Drive Autumn", False),
    (1006, "Debt Relief Callbacks", True),
)
LIST_SUFFIXES = ("Inbound Web Leads", "Purchased Data Batch")
LEAD_COUNT = 3000

PURPOSES = ("Marketing", "Debt Collection", "Surveys", "Fundraising")
DNC_REASONS = (
    "Customer request",
    "Verbal request on call",
    "Known litigator",
    "State DNC registry",
    "Wrong number",
    "Deceased",
)
SMS_REASONS = ("Replied STOP", "Replied UNSUBSCRIBE", "Customer request", "Carrier complaint")

_US_AREA_CODES = (
    "201", "202", "203", "205", "206", "212", "213", "214", "215", "216", "301", "303", "305",
    "310", "312", "313", "314", "317", "404", "407", "412", "415", "469", "480", "503", "512",
    "602", "615", "617", "702", "704", "713", "718", "720", "801", "813", "816", "832", "901",
    "917", "919", "949", "972",
)  # fmt: skip
_FIRST_NAMES = (
    "James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David",
    "Elizabeth", "William", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah",
    "Carlos", "Maria", "Wei", "Priya", "Olivia", "Liam", "Noah", "Emma", "Aisha", "Mateo",
)  # fmt: skip
_LAST_NAMES = (
    "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez",
    "Martinez", "Hernandez", "Lopez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Lee",
    "Nguyen", "Patel", "Kim", "O'Brien", "Walker", "Young",
)  # fmt: skip
_US_PLACES = (
    ("Austin", "TX", "78701"), ("Denver", "CO", "80202"), ("Miami", "FL", "33101"),
    ("Seattle", "WA", "98101"), ("Chicago", "IL", "60601"), ("Boston", "MA", "02108"),
    ("Phoenix", "AZ", "85001"), ("Atlanta", "GA", "30301"), ("Nashville", "TN", "37201"),
)  # fmt: skip
_UNPARSEABLE = ("n/a", "555-CALL-NOW", "12345", "0000000000", "ask for Bob", "+1 202")
_LEAD_STATUS_WEIGHTS = (
    ("NEW", 40), ("NA", 15), ("B", 5), ("A", 10), ("CALLBK", 8), ("NI", 8), ("SALE", 4),
    ("DNC", 2), ("DROP", 3), ("HOTLD", 3), ("WRONG", 2),
)  # fmt: skip


def seed_system_statuses(store: Store) -> None:
    """System statuses exist on every account, demo data or not."""
    store.executemany(
        "INSERT OR IGNORE INTO lead_statuses(status, name, final, reached, success, dnc, callback,"
        " contact, voicemail, workflow_disposition_event_option, hex_color, custom_status)"
        " VALUES (?,?,?,?,?,?,?,?,?,?,?,0)",
        SYSTEM_STATUSES,
    )


class _Generator:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.now = datetime.now().replace(microsecond=0)

    def us_number(self) -> str:
        exchange = self.rng.randint(200, 999)
        while exchange % 100 == 11 or exchange == 555:
            exchange = self.rng.randint(200, 999)
        return f"{self.rng.choice(_US_AREA_CODES)}{exchange}{self.rng.randint(0, 9999):04d}"

    def uk_number(self) -> str:
        return f"79{self.rng.randint(0, 99_999_999):08d}"

    def au_number(self) -> str:
        return f"4{self.rng.choice('0123')}{self.rng.randint(0, 9_999_999):07d}"

    def timestamp(self, max_days: int, min_days: int = 0) -> str:
        seconds = self.rng.randint(min_days * 86_400, max_days * 86_400)
        return (self.now - timedelta(seconds=seconds)).strftime("%Y-%m-%d %H:%M:%S")

    def lead_phone(self) -> tuple[str, str]:
        """A lead's primary number and phone code, with the realistic mess of real lists."""
        roll = self.rng.random()
        if roll < 0.85:
            return self.us_number(), "1"
        if roll < 0.91:
            return self.uk_number(), "44"
        if roll < 0.97:
            return self.au_number(), "61"
        if roll < 0.99:
            digits = self.us_number()
            return f"({digits[:3]}) {digits[3:6]}-{digits[6:]}", "1"
        return self.rng.choice(_UNPARSEABLE), self.rng.choice(("1", ""))


def seed_demo_data(store: Store, seed: int) -> None:
    """Fill an empty database with the demo data set (a few thousand rows, well under a second)."""
    gen = _Generator(seed)
    rng = gen.rng
    seed_system_statuses(store)
    with store.transaction() as conn:
        conn.executemany(
            "INSERT INTO lead_statuses(status, name, final, reached, success, dnc, callback,"
            " contact, voicemail, workflow_disposition_event_option, hex_color, custom_status)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,1)",
            CUSTOM_STATUSES,
        )
        conn.executemany(
            "INSERT INTO campaigns(id, uid, name, status, last_call_date, timezone)"
            " VALUES (?, ?, ?, ?, ?, 'America/New_York')",
            [
                (
                    cid,
                    campaign_uid(cid),
                    name,
                    "Y" if active else "N",
                    (
                        date.today() - timedelta(days=rng.randint(0, 3) if active else 200)
                    ).isoformat(),
                )
                for cid, name, active in CAMPAIGNS
            ],
        )
        lists = [
            (
                2001 + index * len(LIST_SUFFIXES) + offset,
                f"{name} - {suffix}",
                cid,
                1 if active and offset == 0 else rng.choice((0, 1)),
                f"{suffix} for {name}",
                gen.timestamp(30),
            )
            for index, (cid, name, active) in enumerate(CAMPAIGNS)
            for offset, suffix in enumerate(LIST_SUFFIXES)
        ]
        conn.executemany(
            "INSERT INTO lists(id, name, campaign_id, status, description, last_called_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            lists,
        )
        leads = list(_leads(gen, [row[0] for row in lists]))
        conn.executemany(
            "INSERT INTO leads(id, list_id, created_at, modified_at, status, phone_number,"
            " phone_code, alt_phone_1, alt_phone_2, first_name, last_name, email, address1, city,"
            " state, postal_code, country, gender, date_of_birth, carrier_type)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            leads,
        )
        list_campaign = {row[0]: row[2] for row in lists}
        dnc, sms = _opt_outs(gen, leads, list_campaign)
        conn.executemany(
            "INSERT OR IGNORE INTO dnc(phone_number, phone_code, campaign_id, reason, purpose,"
            " insert_date) VALUES (?, ?, ?, ?, ?, ?)",
            dnc,
        )
        conn.executemany(
            "INSERT OR IGNORE INTO sms_opt_out(phone_number, phone_code, campaign_id, reason,"
            " purpose, insert_date) VALUES (?, ?, ?, ?, ?, ?)",
            sms,
        )


def _leads(gen: _Generator, list_ids: list[int]) -> Iterator[tuple[object, ...]]:
    rng = gen.rng
    statuses = [code for code, _ in _LEAD_STATUS_WEIGHTS]
    weights = [weight for _, weight in _LEAD_STATUS_WEIGHTS]
    for index in range(LEAD_COUNT):
        phone, code = gen.lead_phone()
        first, last = rng.choice(_FIRST_NAMES), rng.choice(_LAST_NAMES)
        city, state, postal = rng.choice(_US_PLACES)
        country = {"44": "GB", "61": "AU"}.get(code, "US")
        created = gen.timestamp(720)
        yield (
            100_001 + index,
            rng.choice(list_ids),
            created,
            created,
            rng.choices(statuses, weights)[0],
            phone,
            code,
            gen.us_number() if code == "1" and rng.random() < 0.2 else "",
            gen.us_number() if code == "1" and rng.random() < 0.05 else "",
            first,
            last,
            f"{first}.{last}{index}@example.com".lower().replace("'", ""),
            f"{rng.randint(1, 9999)} {rng.choice(('Main', 'Oak', 'Pine', 'Maple'))} St",
            city if country == "US" else "",
            state if country == "US" else "",
            postal if country == "US" else "",
            country,
            rng.choice(("M", "F", "Other")),
            f"{rng.randint(1940, 2004)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
            rng.choice(("wireless", "landline", "voip")),
        )


_OptOut = tuple[str, str, int, str, str, str]


def _opt_outs(
    gen: _Generator, leads: list[tuple[object, ...]], list_campaign: dict[int, int]
) -> tuple[list[_OptOut], list[_OptOut]]:
    rng = gen.rng
    campaign_ids = [cid for cid, _, _ in CAMPAIGNS]

    def reason(choices: tuple[str, ...]) -> str:
        return rng.choice(choices) if rng.random() < 0.6 else ""

    def number() -> tuple[str, str]:
        roll = rng.random()
        if roll < 0.9:
            return gen.us_number(), "1"
        return (gen.uk_number(), "44") if roll < 0.95 else (gen.au_number(), "61")

    dnc: list[_OptOut] = []
    # Up to eight years back, so some entries are older than five years.
    for _ in range(450):
        dnc.append((*number(), 0, reason(DNC_REASONS), "", gen.timestamp(2900)))
    for _ in range(40):
        dnc.append((*number(), 0, reason(DNC_REASONS), "", gen.timestamp(2900, 1900)))
    for _ in range(220):
        dnc.append(
            (*number(), rng.choice(campaign_ids), reason(DNC_REASONS), "", gen.timestamp(1500))
        )
    for _ in range(160):
        dnc.append((*number(), -1, reason(DNC_REASONS), rng.choice(PURPOSES), gen.timestamp(1500)))

    sms: list[_OptOut] = []
    for _ in range(200):
        sms.append((*number(), 0, reason(SMS_REASONS), "", gen.timestamp(1200)))
    for _ in range(80):
        sms.append(
            (*number(), rng.choice(campaign_ids), reason(SMS_REASONS), "", gen.timestamp(900))
        )
    for _ in range(60):
        sms.append((*number(), -1, reason(SMS_REASONS), rng.choice(PURPOSES), gen.timestamp(900)))

    # Deliberate overlap with leads whose numbers are clean digits.
    clean = [lead for lead in leads if str(lead[5]).isdigit() and lead[6]]
    for lead in rng.sample(clean, 120):
        phone, code, list_id = str(lead[5]), str(lead[6]), int(str(lead[1]))
        scope_roll = rng.random()
        if scope_roll < 0.5:
            dnc.append((phone, code, 0, reason(DNC_REASONS), "", gen.timestamp(2000)))
        elif scope_roll < 0.8:
            dnc.append(
                (phone, code, list_campaign[list_id], reason(DNC_REASONS), "", gen.timestamp(900))
            )
        else:
            dnc.append((phone, code, -1, "", rng.choice(PURPOSES), gen.timestamp(900)))
    for lead in rng.sample([lead for lead in clean if lead[7]], 20):
        dnc.append((str(lead[7]), "1", 0, reason(DNC_REASONS), "", gen.timestamp(700)))
    for lead in rng.sample(clean, 50):
        scope = rng.choice((0, 0, -1, list_campaign[int(str(lead[1]))]))
        purpose = rng.choice(PURPOSES) if scope == -1 else ""
        sms.append(
            (str(lead[5]), str(lead[6]), scope, reason(SMS_REASONS), purpose, gen.timestamp(600))
        )
    return dnc, sms
