"""python -m urlsift"""

from .cli import main

raise SystemExit(main())
