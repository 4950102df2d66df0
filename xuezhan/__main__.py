"""``python -m xuezhan``: the command line (see :mod:`xuezhan.cli`)."""

from xuezhan.cli import main

raise SystemExit(main())
