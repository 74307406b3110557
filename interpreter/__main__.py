import sys

from interpreter.cli import main

sys.exit(main())
