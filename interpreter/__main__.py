import sys

from interpreter.frontends.cli import main

sys.exit(main())
