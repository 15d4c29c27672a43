"""Python Polars' parse of the pages bench/pageCost.ts saved: the peer's `read_csv` typed from
the dataset's `/columns`, timed alone, so its CPU can be set beside the workbench's for the same
bytes. Reads every `*.csv` of FOLDER and the column schema from FOLDER/columns.json; parses all
pages `rounds` times and prints one JSON line: Polars' version and, for each round, the CPU
seconds of the process (every thread) and the wall seconds of all pages.

    python3 bench/peers/python_parse.py FOLDER ROUNDS
"""

import json
import sys
import time
from pathlib import Path

import polars as pl

from column_types import schema_of

folder, rounds = Path(sys.argv[1]), int(sys.argv[2])
columns = json.loads((folder / "columns.json").read_text())
schema = schema_of(columns)
pages = [p.read_bytes() for p in sorted(folder.glob("*.csv"))]
timings = []
for _ in range(rounds):
    t, cpu = time.perf_counter(), time.process_time()
    rows = sum(pl.read_csv(page, schema=schema).height for page in pages)
    timings.append({"cpuSeconds": time.process_time() - cpu, "seconds": time.perf_counter() - t, "rows": rows})
print(json.dumps({"polars": pl.__version__, "rounds": timings}))
