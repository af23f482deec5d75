"""The sandbox: a local implementation of the contact-center API for trying, testing and
benchmarking DNC Desk without an account.

It plays the remote side, so it imports nothing from ``app.api``, ``app.core``, ``app.ui`` or
``app.cli``. Start it with :class:`app.sandbox.runner.SandboxServer` or ``dnc-desk sandbox``.

Where the spec leaves semantics open, the sandbox chooses:

* Phones: ``phone_number`` is 6-15 digits, ``phone_code`` 1-4 digits (format only; the client
  validates per country). Lead numbers may also carry typed punctuation, ``(202) 555-0143``.
* Scopes: ``campaign_id`` ``0`` global, ``-1`` purpose (purpose required), else an existing
  campaign. DNC and SMS entries are unique per number, code and scope, and per purpose in the
  purpose scope.
* Searches page in id order; ``total`` counts every match. Limits follow the spec's table.
* ``/dnc/delete`` removes every entry for the number and code in the scope; with
  ``update_lead_status`` it sets the status of leads whose phone, alt phone 1 or alt phone 2 has
  the same digits (and the same or no phone code): the campaign's lists for a campaign scope,
  every lead otherwise.
* HTTP statuses of failures (the spec names none): 400 validation, 401 authentication, 403
  permission, 404 not found, 409 conflict, 429 rate limited, 5xx faults.
* System lead statuses exist even in an empty sandbox; demo data adds campaigns, lists, leads,
  custom statuses, DNC entries and SMS opt-outs.
"""
