import sys

from narnat_agent.cli import main

sys.exit(main())
