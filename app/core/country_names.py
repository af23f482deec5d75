"""English names of every region ``phonenumbers`` gives a calling code, as a "Country" column
writes them, keyed by ISO 3166-1 alpha-2 region (black-box pass I2: "Jamaica", "Bahamas",
"Trinidad and Tobago", "Ireland", "Philippines" were refused as no country code, so a valid
row of a Caribbean list was invalid).

:data:`ISO_NAMES` was generated once from Debian's iso-codes
(``/usr/share/iso-codes/json/iso_3166-1.json``, 4.x): for each region ``phonenumbers``
dials (``country_code_for_region`` is not 0), its ``name``, ``common_name`` and
``official_name``, each also without a bracketed part ("Sint Maarten (Dutch part)" also as
"Sint Maarten"), and its ``alpha_3``. It is static so the app never reads ``/usr/share`` at
run time. :data:`SHORT_NAMES` is written by hand: the short and older forms lists use that
ISO does not ("St Kitts", "Republic of Ireland", "USVI", "Russia", "Ivory Coast").

Left out on purpose, because a "Country" column holds them for something else: "Georgia"
(the US state far more often than the country; a US state must never become a country: the
names of :data:`US_STATES` give "1") and "ALA" (Åland's alpha-3, and "Ala." is Alabama).
:mod:`app.core.phones` maps each region to its calling code with ``phonenumbers``, so every
NANP territory gives "1". :func:`name_with_lost_letters` finds the name a value means whose
accented letters a file's encoding could not hold ("M?xico").
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Final

ISO_NAMES: Final[dict[str, tuple[str, ...]]] = {
    "AD": ("Andorra", "Principality of Andorra", "AND"),
    "AE": ("United Arab Emirates", "ARE"),
    "AF": ("Afghanistan", "Islamic Republic of Afghanistan", "AFG"),
    "AG": ("Antigua and Barbuda", "ATG"),
    "AI": ("Anguilla", "AIA"),
    "AL": ("Albania", "Republic of Albania", "ALB"),
    "AM": ("Armenia", "Republic of Armenia", "ARM"),
    "AO": ("Angola", "Republic of Angola", "AGO"),
    "AR": ("Argentina", "Argentine Republic", "ARG"),
    "AS": ("American Samoa", "ASM"),
    "AT": ("Austria", "Republic of Austria", "AUT"),
    "AU": ("Australia", "AUS"),
    "AW": ("Aruba", "ABW"),
    "AX": ("Åland Islands",),
    "AZ": ("Azerbaijan", "Republic of Azerbaijan", "AZE"),
    "BA": ("Bosnia and Herzegovina", "Republic of Bosnia and Herzegovina", "BIH"),
    "BB": ("Barbados", "BRB"),
    "BD": ("Bangladesh", "People's Republic of Bangladesh", "BGD"),
    "BE": ("Belgium", "Kingdom of Belgium", "BEL"),
    "BF": ("Burkina Faso", "BFA"),
    "BG": ("Bulgaria", "Republic of Bulgaria", "BGR"),
    "BH": ("Bahrain", "Kingdom of Bahrain", "BHR"),
    "BI": ("Burundi", "Republic of Burundi", "BDI"),
    "BJ": ("Benin", "Republic of Benin", "BEN"),
    "BL": ("Saint Barthélemy", "BLM"),
    "BM": ("Bermuda", "BMU"),
    "BN": ("Brunei Darussalam", "BRN"),
    "BO": ("Bolivia, Plurinational State of", "Bolivia", "Plurinational State of Bolivia", "BOL"),
    "BQ": ("Bonaire, Sint Eustatius and Saba", "BES"),
    "BR": ("Brazil", "Federative Republic of Brazil", "BRA"),
    "BS": ("Bahamas", "Commonwealth of the Bahamas", "BHS"),
    "BT": ("Bhutan", "Kingdom of Bhutan", "BTN"),
    "BW": ("Botswana", "Republic of Botswana", "BWA"),
    "BY": ("Belarus", "Republic of Belarus", "BLR"),
    "BZ": ("Belize", "BLZ"),
    "CA": ("Canada", "CAN"),
    "CC": ("Cocos (Keeling) Islands", "Cocos Islands", "CCK"),
    "CD": ("Congo, The Democratic Republic of the", "COD"),
    "CF": ("Central African Republic", "CAF"),
    "CG": ("Congo", "Republic of the Congo", "COG"),
    "CH": ("Switzerland", "Swiss Confederation", "CHE"),
    "CI": ("Côte d'Ivoire", "Republic of Côte d'Ivoire", "CIV"),
    "CK": ("Cook Islands", "COK"),
    "CL": ("Chile", "Republic of Chile", "CHL"),
    "CM": ("Cameroon", "Republic of Cameroon", "CMR"),
    "CN": ("China", "People's Republic of China", "CHN"),
    "CO": ("Colombia", "Republic of Colombia", "COL"),
    "CR": ("Costa Rica", "Republic of Costa Rica", "CRI"),
    "CU": ("Cuba", "Republic of Cuba", "CUB"),
    "CV": ("Cabo Verde", "Republic of Cabo Verde", "CPV"),
    "CW": ("Curaçao", "CUW"),
    "CX": ("Christmas Island", "CXR"),
    "CY": ("Cyprus", "Republic of Cyprus", "CYP"),
    "CZ": ("Czechia", "Czech Republic", "CZE"),
    "DE": ("Germany", "Federal Republic of Germany", "DEU"),
    "DJ": ("Djibouti", "Republic of Djibouti", "DJI"),
    "DK": ("Denmark", "Kingdom of Denmark", "DNK"),
    "DM": ("Dominica", "Commonwealth of Dominica", "DMA"),
    "DO": ("Dominican Republic", "DOM"),
    "DZ": ("Algeria", "People's Democratic Republic of Algeria", "DZA"),
    "EC": ("Ecuador", "Republic of Ecuador", "ECU"),
    "EE": ("Estonia", "Republic of Estonia", "EST"),
    "EG": ("Egypt", "Arab Republic of Egypt", "EGY"),
    "EH": ("Western Sahara", "ESH"),
    "ER": ("Eritrea", "the State of Eritrea", "ERI"),
    "ES": ("Spain", "Kingdom of Spain", "ESP"),
    "ET": ("Ethiopia", "Federal Democratic Republic of Ethiopia", "ETH"),
    "FI": ("Finland", "Republic of Finland", "FIN"),
    "FJ": ("Fiji", "Republic of Fiji", "FJI"),
    "FK": ("Falkland Islands (Malvinas)", "Falkland Islands", "FLK"),
    "FM": ("Micronesia, Federated States of", "Federated States of Micronesia", "FSM"),
    "FO": ("Faroe Islands", "FRO"),
    "FR": ("France", "French Republic", "FRA"),
    "GA": ("Gabon", "Gabonese Republic", "GAB"),
    "GB": ("United Kingdom", "United Kingdom of Great Britain and Northern Ireland", "GBR"),
    "GD": ("Grenada", "GRD"),
    "GE": ("GEO",),
    "GF": ("French Guiana", "GUF"),
    "GG": ("Guernsey", "GGY"),
    "GH": ("Ghana", "Republic of Ghana", "GHA"),
    "GI": ("Gibraltar", "GIB"),
    "GL": ("Greenland", "GRL"),
    "GM": ("Gambia", "Republic of the Gambia", "GMB"),
    "GN": ("Guinea", "Republic of Guinea", "GIN"),
    "GP": ("Guadeloupe", "GLP"),
    "GQ": ("Equatorial Guinea", "Republic of Equatorial Guinea", "GNQ"),
    "GR": ("Greece", "Hellenic Republic", "GRC"),
    "GT": ("Guatemala", "Republic of Guatemala", "GTM"),
    "GU": ("Guam", "GUM"),
    "GW": ("Guinea-Bissau", "Republic of Guinea-Bissau", "GNB"),
    "GY": ("Guyana", "Republic of Guyana", "GUY"),
    "HK": ("Hong Kong", "Hong Kong Special Administrative Region of China", "HKG"),
    "HN": ("Honduras", "Republic of Honduras", "HND"),
    "HR": ("Croatia", "Republic of Croatia", "HRV"),
    "HT": ("Haiti", "Republic of Haiti", "HTI"),
    "HU": ("Hungary", "HUN"),
    "ID": ("Indonesia", "Republic of Indonesia", "IDN"),
    "IE": ("Ireland", "IRL"),
    "IL": ("Israel", "State of Israel", "ISR"),
    "IM": ("Isle of Man", "IMN"),
    "IN": ("India", "Republic of India", "IND"),
    "IO": ("British Indian Ocean Territory", "IOT"),
    "IQ": ("Iraq", "Republic of Iraq", "IRQ"),
    "IR": ("Iran, Islamic Republic of", "Iran", "Islamic Republic of Iran", "IRN"),
    "IS": ("Iceland", "Republic of Iceland", "ISL"),
    "IT": ("Italy", "Italian Republic", "ITA"),
    "JE": ("Jersey", "JEY"),
    "JM": ("Jamaica", "JAM"),
    "JO": ("Jordan", "Hashemite Kingdom of Jordan", "JOR"),
    "JP": ("Japan", "JPN"),
    "KE": ("Kenya", "Republic of Kenya", "KEN"),
    "KG": ("Kyrgyzstan", "Kyrgyz Republic", "KGZ"),
    "KH": ("Cambodia", "Kingdom of Cambodia", "KHM"),
    "KI": ("Kiribati", "Republic of Kiribati", "KIR"),
    "KM": ("Comoros", "Union of the Comoros", "COM"),
    "KN": ("Saint Kitts and Nevis", "KNA"),
    "KP": (
        "Korea, Democratic People's Republic of",
        "North Korea",
        "Democratic People's Republic of Korea",
        "PRK",
    ),
    "KR": ("Korea, Republic of", "South Korea", "KOR"),
    "KW": ("Kuwait", "State of Kuwait", "KWT"),
    "KY": ("Cayman Islands", "CYM"),
    "KZ": ("Kazakhstan", "Republic of Kazakhstan", "KAZ"),
    "LA": ("Lao People's Democratic Republic", "Laos", "LAO"),
    "LB": ("Lebanon", "Lebanese Republic", "LBN"),
    "LC": ("Saint Lucia", "LCA"),
    "LI": ("Liechtenstein", "Principality of Liechtenstein", "LIE"),
    "LK": ("Sri Lanka", "Democratic Socialist Republic of Sri Lanka", "LKA"),
    "LR": ("Liberia", "Republic of Liberia", "LBR"),
    "LS": ("Lesotho", "Kingdom of Lesotho", "LSO"),
    "LT": ("Lithuania", "Republic of Lithuania", "LTU"),
    "LU": ("Luxembourg", "Grand Duchy of Luxembourg", "LUX"),
    "LV": ("Latvia", "Republic of Latvia", "LVA"),
    "LY": ("Libya", "LBY"),
    "MA": ("Morocco", "Kingdom of Morocco", "MAR"),
    "MC": ("Monaco", "Principality of Monaco", "MCO"),
    "MD": ("Moldova, Republic of", "Moldova", "Republic of Moldova", "MDA"),
    "ME": ("Montenegro", "MNE"),
    "MF": ("Saint Martin (French part)", "Saint Martin", "MAF"),
    "MG": ("Madagascar", "Republic of Madagascar", "MDG"),
    "MH": ("Marshall Islands", "Republic of the Marshall Islands", "MHL"),
    "MK": ("North Macedonia", "Republic of North Macedonia", "MKD"),
    "ML": ("Mali", "Republic of Mali", "MLI"),
    "MM": ("Myanmar", "Republic of Myanmar", "MMR"),
    "MN": ("Mongolia", "MNG"),
    "MO": ("Macao", "Macao Special Administrative Region of China", "MAC"),
    "MP": ("Northern Mariana Islands", "Commonwealth of the Northern Mariana Islands", "MNP"),
    "MQ": ("Martinique", "MTQ"),
    "MR": ("Mauritania", "Islamic Republic of Mauritania", "MRT"),
    "MS": ("Montserrat", "MSR"),
    "MT": ("Malta", "Republic of Malta", "MLT"),
    "MU": ("Mauritius", "Republic of Mauritius", "MUS"),
    "MV": ("Maldives", "Republic of Maldives", "MDV"),
    "MW": ("Malawi", "Republic of Malawi", "MWI"),
    "MX": ("Mexico", "United Mexican States", "MEX"),
    "MY": ("Malaysia", "MYS"),
    "MZ": ("Mozambique", "Republic of Mozambique", "MOZ"),
    "NA": ("Namibia", "Republic of Namibia", "NAM"),
    "NC": ("New Caledonia", "NCL"),
    "NE": ("Niger", "Republic of the Niger", "NER"),
    "NF": ("Norfolk Island", "NFK"),
    "NG": ("Nigeria", "Federal Republic of Nigeria", "NGA"),
    "NI": ("Nicaragua", "Republic of Nicaragua", "NIC"),
    "NL": ("Netherlands", "Kingdom of the Netherlands", "NLD"),
    "NO": ("Norway", "Kingdom of Norway", "NOR"),
    "NP": ("Nepal", "Federal Democratic Republic of Nepal", "NPL"),
    "NR": ("Nauru", "Republic of Nauru", "NRU"),
    "NU": ("Niue", "NIU"),
    "NZ": ("New Zealand", "NZL"),
    "OM": ("Oman", "Sultanate of Oman", "OMN"),
    "PA": ("Panama", "Republic of Panama", "PAN"),
    "PE": ("Peru", "Republic of Peru", "PER"),
    "PF": ("French Polynesia", "PYF"),
    "PG": ("Papua New Guinea", "Independent State of Papua New Guinea", "PNG"),
    "PH": ("Philippines", "Republic of the Philippines", "PHL"),
    "PK": ("Pakistan", "Islamic Republic of Pakistan", "PAK"),
    "PL": ("Poland", "Republic of Poland", "POL"),
    "PM": ("Saint Pierre and Miquelon", "SPM"),
    "PR": ("Puerto Rico", "PRI"),
    "PS": ("Palestine, State of", "the State of Palestine", "PSE"),
    "PT": ("Portugal", "Portuguese Republic", "PRT"),
    "PW": ("Palau", "Republic of Palau", "PLW"),
    "PY": ("Paraguay", "Republic of Paraguay", "PRY"),
    "QA": ("Qatar", "State of Qatar", "QAT"),
    "RE": ("Réunion", "REU"),
    "RO": ("Romania", "ROU"),
    "RS": ("Serbia", "Republic of Serbia", "SRB"),
    "RU": ("Russian Federation", "RUS"),
    "RW": ("Rwanda", "Rwandese Republic", "RWA"),
    "SA": ("Saudi Arabia", "Kingdom of Saudi Arabia", "SAU"),
    "SB": ("Solomon Islands", "SLB"),
    "SC": ("Seychelles", "Republic of Seychelles", "SYC"),
    "SD": ("Sudan", "Republic of the Sudan", "SDN"),
    "SE": ("Sweden", "Kingdom of Sweden", "SWE"),
    "SG": ("Singapore", "Republic of Singapore", "SGP"),
    "SH": ("Saint Helena, Ascension and Tristan da Cunha", "SHN"),
    "SI": ("Slovenia", "Republic of Slovenia", "SVN"),
    "SJ": ("Svalbard and Jan Mayen", "SJM"),
    "SK": ("Slovakia", "Slovak Republic", "SVK"),
    "SL": ("Sierra Leone", "Republic of Sierra Leone", "SLE"),
    "SM": ("San Marino", "Republic of San Marino", "SMR"),
    "SN": ("Senegal", "Republic of Senegal", "SEN"),
    "SO": ("Somalia", "Federal Republic of Somalia", "SOM"),
    "SR": ("Suriname", "Republic of Suriname", "SUR"),
    "SS": ("South Sudan", "Republic of South Sudan", "SSD"),
    "ST": ("Sao Tome and Principe", "Democratic Republic of Sao Tome and Principe", "STP"),
    "SV": ("El Salvador", "Republic of El Salvador", "SLV"),
    "SX": ("Sint Maarten (Dutch part)", "Sint Maarten", "SXM"),
    "SY": ("Syrian Arab Republic", "Syria", "SYR"),
    "SZ": ("Eswatini", "Kingdom of Eswatini", "SWZ"),
    "TC": ("Turks and Caicos Islands", "TCA"),
    "TD": ("Chad", "Republic of Chad", "TCD"),
    "TG": ("Togo", "Togolese Republic", "TGO"),
    "TH": ("Thailand", "Kingdom of Thailand", "THA"),
    "TJ": ("Tajikistan", "Republic of Tajikistan", "TJK"),
    "TK": ("Tokelau", "TKL"),
    "TL": ("Timor-Leste", "Democratic Republic of Timor-Leste", "TLS"),
    "TM": ("Turkmenistan", "TKM"),
    "TN": ("Tunisia", "Republic of Tunisia", "TUN"),
    "TO": ("Tonga", "Kingdom of Tonga", "TON"),
    "TR": ("Türkiye", "Republic of Türkiye", "TUR"),
    "TT": ("Trinidad and Tobago", "Republic of Trinidad and Tobago", "TTO"),
    "TV": ("Tuvalu", "TUV"),
    "TW": ("Taiwan, Province of China", "Taiwan", "TWN"),
    "TZ": ("Tanzania, United Republic of", "Tanzania", "United Republic of Tanzania", "TZA"),
    "UA": ("Ukraine", "UKR"),
    "UG": ("Uganda", "Republic of Uganda", "UGA"),
    "US": ("United States", "United States of America", "USA"),
    "UY": ("Uruguay", "Eastern Republic of Uruguay", "URY"),
    "UZ": ("Uzbekistan", "Republic of Uzbekistan", "UZB"),
    "VA": ("Holy See (Vatican City State)", "Holy See", "VAT"),
    "VC": ("Saint Vincent and the Grenadines", "VCT"),
    "VE": (
        "Venezuela, Bolivarian Republic of",
        "Venezuela",
        "Bolivarian Republic of Venezuela",
        "VEN",
    ),
    "VG": ("Virgin Islands, British", "British Virgin Islands", "VGB"),
    "VI": ("Virgin Islands, U.S.", "Virgin Islands of the United States", "VIR"),
    "VN": ("Viet Nam", "Vietnam", "Socialist Republic of Viet Nam", "VNM"),
    "VU": ("Vanuatu", "Republic of Vanuatu", "VUT"),
    "WF": ("Wallis and Futuna", "WLF"),
    "WS": ("Samoa", "Independent State of Samoa", "WSM"),
    "YE": ("Yemen", "Republic of Yemen", "YEM"),
    "YT": ("Mayotte", "MYT"),
    "ZA": ("South Africa", "Republic of South Africa", "ZAF"),
    "ZM": ("Zambia", "Republic of Zambia", "ZMB"),
    "ZW": ("Zimbabwe", "Republic of Zimbabwe", "ZWE"),
}

# Forms lists use besides ISO's. "St", "Rep", "Is" and "&" need no entry of their own (the
# name key reads them as "Saint", "Republic", "Islands" and "and"), nor do accents, hyphens
# or "Name, The" orders.
SHORT_NAMES: Final[dict[str, tuple[str, ...]]] = {
    "AC": ("Ascension Island", "Ascension"),
    "AE": ("UAE",),
    "AG": ("Antigua",),
    "BA": ("Bosnia",),
    "BL": ("Saint Barts", "Saint Barths", "Saint Barthelemy"),
    "BN": ("Brunei",),
    "BQ": ("Caribbean Netherlands", "Bonaire", "Saba", "Sint Eustatius", "Statia"),
    "BS": ("Bahama Islands",),
    "CD": ("DR Congo", "DRC", "Democratic Republic of Congo", "Congo-Kinshasa"),
    "CG": ("Congo-Brazzaville", "Republic of Congo"),
    "CI": ("Ivory Coast",),
    "CV": ("Cape Verde",),
    "CZ": ("Czech Republic",),
    "FK": ("Falklands",),
    "FM": ("Micronesia",),
    "IE": ("Republic of Ireland", "Eire", "Éire"),
    "KN": ("Saint Kitts", "Saint Christopher and Nevis", "Nevis"),
    "KR": ("Korea", "Republic of Korea"),
    "LA": ("Lao PDR",),
    "MK": ("Macedonia",),
    "MM": ("Burma",),
    "NL": ("Holland",),
    "PS": ("Palestine",),
    "RU": ("Russia",),
    "SH": ("Saint Helena",),
    "SX": ("Saint Maarten",),
    "SZ": ("Swaziland",),
    "TA": ("Tristan da Cunha",),
    "TC": ("Turks and Caicos", "TCI"),
    "TL": ("East Timor",),
    "TR": ("Turkey",),
    "TT": ("Trinidad", "Tobago", "T and T"),
    "VA": ("Vatican City State", "Vatican City", "Vatican"),
    "VC": ("Saint Vincent", "Saint Vincent and Grenadines", "Saint Vincent Grenadines"),
    "VG": ("BVI", "British VI"),
    "VI": ("USVI", "US VI", "Virgin Islands", "American Virgin Islands"),
    "XK": ("Kosovo",),
}

# US states, DC and the inhabited territories by their USPS codes, as a US list's "State" or a
# mislabelled "Country" column writes them. Many of the codes are some country's ISO code too
# ("IN" India, "DE" Germany, "GA" Gabon, "CO" Colombia): a column of them is read as US states
# when it holds codes that are no country's (FL, NY, TX) or is mostly of them
# (app.core.sheet_mapping), and the full names give the US code 1 (app.core.phones).
US_STATES: Final[dict[str, str]] = {
    "AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California",
    "CO": "Colorado", "CT": "Connecticut", "DE": "Delaware", "FL": "Florida", "GA": "Georgia",
    "HI": "Hawaii", "ID": "Idaho", "IL": "Illinois", "IN": "Indiana", "IA": "Iowa",
    "KS": "Kansas", "KY": "Kentucky", "LA": "Louisiana", "ME": "Maine", "MD": "Maryland",
    "MA": "Massachusetts", "MI": "Michigan", "MN": "Minnesota", "MS": "Mississippi",
    "MO": "Missouri", "MT": "Montana", "NE": "Nebraska", "NV": "Nevada", "NH": "New Hampshire",
    "NJ": "New Jersey", "NM": "New Mexico", "NY": "New York", "NC": "North Carolina",
    "ND": "North Dakota", "OH": "Ohio", "OK": "Oklahoma", "OR": "Oregon", "PA": "Pennsylvania",
    "RI": "Rhode Island", "SC": "South Carolina", "SD": "South Dakota", "TN": "Tennessee",
    "TX": "Texas", "UT": "Utah", "VT": "Vermont", "VA": "Virginia", "WA": "Washington",
    "WV": "West Virginia", "WI": "Wisconsin", "WY": "Wyoming", "DC": "District of Columbia",
    "PR": "Puerto Rico", "GU": "Guam", "VI": "US Virgin Islands", "AS": "American Samoa",
    "MP": "Northern Mariana Islands",
}  # fmt: skip
# Of US_STATES, the territories: ISO regions of their own (under +1), so their names are
# countries' names too, where a state's name is not.
US_TERRITORIES: Final = frozenset({"PR", "GU", "VI", "AS", "MP"})
# Canada's provinces and territories by their postal codes, as a Canadian list's "Province" or
# a mislabelled "Country" column writes them. NL, PE, SK and YT are countries' ISO codes too
# (the Netherlands, Peru, Slovakia, Mayotte) and read as those.
CA_PROVINCES: Final[dict[str, str]] = {
    "AB": "Alberta", "BC": "British Columbia", "MB": "Manitoba", "NB": "New Brunswick",
    "NL": "Newfoundland and Labrador", "NS": "Nova Scotia", "NT": "Northwest Territories",
    "NU": "Nunavut", "ON": "Ontario", "PE": "Prince Edward Island", "QC": "Quebec",
    "SK": "Saskatchewan", "YT": "Yukon",
}  # fmt: skip
_CA_TERRITORIES: Final = frozenset({"NT", "NU", "YT"})


def not_a_country(text: str) -> str:
    """Why a Country cell holding a US state's, DC's or a US territory's USPS code ("NY"), or
    a Canadian province's or territory's postal code ("ON"), gives no country code, naming
    the place and what to write instead; "" for anything else. For a cell no country's code
    or name reads (black-box R2/V1 #3: "NY" beside a number was refused as "not a country
    name or code DNC Desk knows", with no word of New York): a code that is a country's too
    (IN, DE, GA) reads as that country where it is not a column of states."""
    code = text.strip().replace(".", "").upper()
    if code in US_STATES:
        name = US_STATES[code]
        kind = "the US territory" if code in US_TERRITORIES else "the US state"
        place = "the District of Columbia" if code == "DC" else f"{kind} {name}"
        country, part = "United States", "state"
    elif code in CA_PROVINCES:
        kind = "territory" if code in _CA_TERRITORIES else "province"
        place = f"the Canadian {kind} {CA_PROVINCES[code]}"
        country, part = "Canada", "province"
    else:
        return ""
    return (
        f"{text.strip()!r} is the code of {place}, not of a country: write the country "
        f"({country}) or its calling code (1) in the Country column, and keep the {part} in "
        "a column of its own"
    )


# Other ways lists write the District of Columbia.
DC_NAMES: Final = ("Washington DC", "Washington D.C.", "Washington, DC", "Washington, D.C.")

# Spanish, French and German names (where they differ from the English) of the +1 countries
# and the larger others, as European and Latin American lists write them (black-box pass J1:
# "Irlanda", "Filipinas", "Jamaïque" were refused as no country code). The main countries'
# names are in app.core.phones' own table. Left out: names that are something else as often
# ("Granada" is a Spanish city, "Georgia" a US state).
_SPANISH_FRENCH_GERMAN: Final[dict[str, tuple[str, ...]]] = {
    "AG": ("Antigua y Barbuda", "Antigua-et-Barbuda", "Antigua und Barbuda"),
    "AR": ("Argentine", "Argentinien"),
    "AT": ("Autriche", "Österreich"),
    "BB": ("Barbade",),
    "BE": ("Bélgica", "Belgique", "Belgien"),
    "BM": ("Bermudas", "Bermudes"),
    "BS": ("Bahamas",),
    "CH": ("Suiza", "Suisse", "Schweiz"),
    "CL": ("Chili",),
    "CO": ("Colombie", "Kolumbien"),
    "CU": ("Kuba",),
    "DK": ("Dinamarca", "Danemark", "Dänemark"),
    "DM": ("Dominique",),
    "DO": ("República Dominicana", "République dominicaine", "Dominikanische Republik"),
    "EC": ("Équateur",),
    "EG": ("Egipto", "Égypte", "Ägypten"),
    "FI": ("Finlandia", "Finlande", "Finnland"),
    "GR": ("Grecia", "Grèce", "Griechenland"),
    "HT": ("Haití", "Haïti"),
    "IE": ("Irlanda", "Irlande", "Irland"),
    "IT": ("Italia", "Italie", "Italien"),
    "JM": ("Jamaïque", "Jamaika"),
    "JP": ("Japón", "Japon"),
    "KN": ("San Cristóbal y Nieves", "Saint-Christophe-et-Niévès", "St. Kitts und Nevis"),
    "KR": ("Corea del Sur", "Corée du Sud", "Südkorea"),
    "KY": ("Islas Caimán", "Îles Caïmans", "Kaimaninseln"),
    "LC": ("Santa Lucía", "Sainte-Lucie"),
    "MA": ("Marruecos", "Maroc", "Marokko"),
    "NL": ("Países Bajos", "Holanda", "Pays-Bas", "Niederlande"),
    "NO": ("Noruega", "Norvège", "Norwegen"),
    "NZ": ("Nueva Zelanda", "Nouvelle-Zélande", "Neuseeland"),
    "PE": ("Perú", "Pérou"),
    "PH": ("Filipinas", "Philippinen"),
    "PL": ("Polonia", "Pologne", "Polen"),
    "PR": ("Porto Rico",),
    "RU": ("Rusia", "Russie", "Russland"),
    "SA": ("Arabia Saudita", "Arabie saoudite", "Saudi-Arabien"),
    "SE": ("Suecia", "Suède", "Schweden"),
    "TC": ("Islas Turcas y Caicos", "Îles Turques-et-Caïques", "Turks- und Caicosinseln"),
    "TR": ("Turquía", "Turquie", "Türkei"),
    "TT": ("Trinidad y Tobago", "Trinité-et-Tobago", "Trinidad und Tobago"),
    "UA": ("Ucrania",),
    "VC": ("San Vicente y las Granadinas", "Saint-Vincent-et-les-Grenadines"),
    "VE": ("Vénézuéla",),
    "ZA": ("Sudáfrica", "Afrique du Sud", "Südafrika"),
    # France's overseas departments and territories, as French lists name them (black-box R2
    # #9: "Guyane" was refused).
    "GF": ("Guyane", "Guyane française", "Guyane francaise"),
    "NC": ("Nouvelle-Calédonie",),
    "PF": ("Polynésie française",),
    "PM": ("Saint-Pierre-et-Miquelon",),
    "RE": ("La Réunion",),
}

# Portuguese, Italian and Dutch names of the common countries, the main ones' included (black-
# box R2 #9: "Alemanha", "Índia", "Itália", "Japão", "França" were refused), where they differ
# from the names above. Each is that country's only.
_PORTUGUESE_ITALIAN_DUTCH: Final[dict[str, tuple[str, ...]]] = {
    "US": (
        "Stati Uniti",
        "Stati Uniti d'America",
        "Verenigde Staten",
        "Verenigde Staten van Amerika",
    ),
    "CA": ("Canadá",),
    "GB": (
        "Grã-Bretanha",
        "Inglaterra",
        "Escócia",
        "País de Gales",
        "Regno Unito",
        "Gran Bretagna",
        "Inghilterra",
        "Scozia",
        "Verenigd Koninkrijk",
        "Groot-Brittannië",
        "Engeland",
        "Schotland",
    ),
    "DE": ("Alemanha", "Germania", "Duitsland"),
    "FR": ("França", "Frankrijk"),
    "ES": ("Espanha", "Spagna", "Spanje"),
    "IT": ("Itália", "Italië"),
    "PT": ("Portogallo",),
    "IN": ("Índia",),
    "CN": ("Cina",),
    "JP": ("Japão", "Giappone"),
    "MX": ("Messico",),
    "BR": ("Brasile", "Brazilië"),
    "AU": ("Austrália", "Australië"),
    "AR": ("Argentinië",),
    "AT": ("Áustria", "Oostenrijk"),
    "BE": ("Belgio", "België"),
    "CH": ("Suíça", "Svizzera", "Zwitserland"),
    "NL": ("Países Baixos", "Paesi Bassi", "Olanda", "Nederland"),
    "IE": ("Ierland",),
    "GR": ("Grécia", "Griekenland"),
    "SE": ("Suécia", "Svezia", "Zweden"),
    "NO": ("Norvegia", "Noorwegen"),
    "DK": ("Danimarca", "Denemarken"),
    "FI": ("Finlândia", "Finland"),
    "PL": ("Polônia", "Polónia"),
    "RU": ("Rússia", "Rusland"),
    "TR": ("Turquia", "Turchia", "Turkije"),
    "UA": ("Ucrânia", "Oekraïne"),
    "RO": ("Romênia", "Roménia"),
    "HU": ("Hungria", "Ungheria", "Hongarije"),
    "CZ": ("República Checa", "República Tcheca", "Tchéquia", "Repubblica Ceca", "Tsjechië"),
    "HR": ("Croácia", "Croazia", "Kroatië"),
    "CO": ("Colômbia",),
    "EC": ("Equador",),
    "UY": ("Uruguai",),
    "PY": ("Paraguai",),
    "BO": ("Bolívia",),
    "MZ": ("Moçambique",),
    "GW": ("Guiné-Bissau",),
    "ST": ("São Tomé e Príncipe",),
    "KR": ("Coreia do Sul", "Corea del Sud", "Zuid-Korea"),
    "ZA": ("África do Sul", "Sudafrica", "Zuid-Afrika"),
    "NZ": ("Nova Zelândia", "Nuova Zelanda", "Nieuw-Zeeland"),
    "EG": ("Egito", "Egitto", "Egypte"),
    "MA": ("Marrocos", "Marocco"),
    "SA": ("Arábia Saudita", "Arabia Saudita"),
    "AE": ("Emirados Árabes Unidos", "Emirati Arabi Uniti", "Verenigde Arabische Emiraten"),
    "SM": ("São Marino",),
    "VA": ("Vaticano", "Città del Vaticano", "Vaticaanstad"),
    "PH": ("Filippine", "Filipijnen"),
    "ID": ("Indonésia", "Indonesië"),
}


# Countries' names in their own languages (endonyms), where no table above has them, as a list
# kept in the country or by its own people writes them (black-box B7 #1: "Sverige", "Norge",
# "Suomi", "Danmark", "Polska", "日本" were refused, so a Swedish and Nordic list's Country
# column was not read, and the import advised one --phone-code for the whole file). Left out:
# names another word shares ("Ísland" is "Island" without its accent, as the accents are
# dropped to match; "Sakartvelo" is Georgia, which a "Country" column holds as the US state).
_OWN_NAMES: Final[dict[str, tuple[str, ...]]] = {
    "SE": ("Sverige", "Konungariket Sverige"),
    "NO": ("Norge", "Noreg", "Kongeriket Norge"),
    "FI": ("Suomi", "Suomen tasavalta"),
    "DK": ("Danmark", "Kongeriget Danmark"),
    "FO": ("Føroyar",),
    "GL": ("Kalaallit Nunaat", "Grønland"),
    "PL": ("Polska", "Rzeczpospolita Polska"),
    "CZ": ("Česko", "Česká republika"),
    "SK": ("Slovensko", "Slovenská republika"),
    "HU": ("Magyarország",),
    "GR": ("Ελλάδα", "Ελλάς", "Ellada", "Hellas"),
    "CY": ("Κύπρος", "Kıbrıs"),
    "TR": ("Türkiye Cumhuriyeti",),
    "EE": ("Eesti",),
    "LV": ("Latvija",),
    "LT": ("Lietuva",),
    "SI": ("Slovenija",),
    "HR": ("Hrvatska",),
    "RS": ("Srbija", "Србија"),
    "BA": ("Bosna i Hercegovina", "Босна и Херцеговина"),
    "ME": ("Crna Gora", "Црна Гора"),
    "MK": ("Северна Македонија",),
    "AL": ("Shqipëria",),
    "BG": ("България", "Bulgariya"),
    "RO": ("România",),
    "MD": ("Moldova",),
    "UA": ("Україна", "Ukraina"),
    "BY": ("Беларусь", "Belarus'"),
    "RU": ("Россия", "Российская Федерация", "Rossiya"),
    "LU": ("Lëtzebuerg", "Luxemburg"),
    "CH": ("Svizra", "Schweizerische Eidgenossenschaft", "Confédération suisse"),
    "AT": ("Republik Österreich",),
    "DE": ("Bundesrepublik Deutschland",),
    "NL": ("Koninkrijk der Nederlanden",),
    "BE": ("Belgique / België", "België / Belgique"),
    "IT": ("Repubblica Italiana",),
    "ES": ("Reino de España",),
    "PT": ("República Portuguesa",),
    "GB": ("Cymru",),
    "IE": ("Poblacht na hÉireann",),
    "MT": ("Repubblika ta' Malta",),
    "IL": ("ישראל", "Yisrael"),
    "EG": ("مصر", "Misr"),
    "MA": ("المغرب", "Al-Maghrib"),
    "SA": ("السعودية", "المملكة العربية السعودية"),
    "AE": ("الإمارات", "الإمارات العربية المتحدة"),
    "IR": ("ایران",),
    "IN": ("भारत", "Bharat"),
    "PK": ("پاکستان",),
    "BD": ("বাংলাদেশ",),
    "TH": ("ประเทศไทย", "Prathet Thai", "Muang Thai"),
    "VN": ("Việt Nam",),
    "PH": ("Pilipinas",),
    "MY": ("Malaysia",),
    "SG": ("Singapura", "新加坡"),
    "JP": ("日本", "日本国", "Nippon", "Nihon"),
    "CN": ("中国", "中華人民共和国", "中华人民共和国", "Zhongguo"),
    "TW": ("台灣", "臺灣", "台湾"),
    "HK": ("香港",),
    "MO": ("澳門", "澳门"),
    "KR": ("대한민국", "한국", "Hanguk", "Daehan Minguk"),
    "MX": ("Estados Unidos Mexicanos",),
    "BR": ("República Federativa do Brasil",),
    "AR": ("República Argentina",),
    "PE": ("República del Perú",),
}


def _merged(*tables: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    merged: dict[str, tuple[str, ...]] = {}
    for table in tables:
        for region, names in table.items():
            merged[region] = (*merged.get(region, ()), *names)
    return merged


FOREIGN_NAMES: Final[dict[str, tuple[str, ...]]] = _merged(
    _SPANISH_FRENCH_GERMAN, _PORTUGUESE_ITALIAN_DUTCH, _OWN_NAMES
)


# A name with lost letters must keep this many of its own (a code or "?????" names nothing).
_LOST_LETTERS_KEPT: Final = 3


def name_with_lost_letters(text: str) -> str | None:
    """The one region's name (of :data:`ISO_NAMES`, :data:`SHORT_NAMES` and
    :data:`FOREIGN_NAMES`) that ``text`` reads as when each '?' in it stands for one letter, as
    a program saving text in an encoding that cannot hold an accented letter writes it
    ("M?xico" → "Mexico", "Canad?" → "Canada", "Rep?blica Dominicana" → "República
    Dominicana"; re-test M1 #1: such a column was not seen to hold countries). None when
    ``text`` has no '?', keeps fewer than three letters of its own, or fits the names of
    more than one region. Cases and accents do not count; a '?' may stand for an apostrophe
    too ("C?te d?Ivoire")."""
    key = _plain(text)
    if "?" not in key or sum(c.isalpha() for c in key) < _LOST_LETTERS_KEPT:
        return None
    pattern = re.compile(".".join(re.escape(part) for part in key.split("?")))
    lost = [i for i, c in enumerate(key) if c == "?"]
    found: dict[str, str] = {}
    for name, shown, region in _names_of_length().get(len(key), ()):
        if pattern.fullmatch(name) and all(name[i].isalpha() or name[i] == "'" for i in lost):
            found.setdefault(region, shown)
    return next(iter(found.values())) if len(found) == 1 else None


def _plain(text: str) -> str:
    """``text`` in small letters without accents, its spaces single, its apostrophes "'"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold().replace("\u2019", "'"))
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())


@functools.cache
def _names_of_length() -> dict[int, list[tuple[str, str, str]]]:
    """Every name of the tables above but the three-letter codes (a code loses no letters) as
    (plain form, name, region), by the length of its plain form."""
    by_length: dict[int, list[tuple[str, str, str]]] = {}
    for table in (ISO_NAMES, SHORT_NAMES, FOREIGN_NAMES):
        for region, names in table.items():
            for name in names:
                if len(name) == 3 and name.isupper():
                    continue
                plain = _plain(name)
                by_length.setdefault(len(plain), []).append((plain, name, region))
    return by_length
