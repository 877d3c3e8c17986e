"""``python -m cli ...`` runs ``playtest ...``."""

from cli.main import main

raise SystemExit(main())
