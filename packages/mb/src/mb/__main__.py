"""``python -m mb``: the same command line as ``mb``."""

import sys

from mb._cli import main

sys.exit(main())
