"""`python -m tui` runs the same command as `paperscope`."""

import sys

from tui.cli import main

sys.exit(main())
