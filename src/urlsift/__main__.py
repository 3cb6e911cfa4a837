"""python -m urlsift"""

import gc

# As the urlsift command does (_urlsift_command): what the import makes lives as long as the process,
# so no collection runs while it is made and none walks it again afterwards. (``-m`` has imported
# the package already, collections allowed.)
gc.disable()
try:
    from .cli import main
finally:
    gc.freeze()
    gc.enable()

raise SystemExit(main())
