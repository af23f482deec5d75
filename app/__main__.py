"""``python -m app`` is the ``dnc-desk`` command."""

from app.cli.main import main

raise SystemExit(main())
