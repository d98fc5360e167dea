"""`python -m temporal_joins dbt build ...`: dbt, with Python models runnable on `method: session`."""

import sys

from temporal_joins.dbt_session import main

if __name__ == "__main__":
    sys.exit(main())
