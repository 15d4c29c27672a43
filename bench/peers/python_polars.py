"""The Python Polars peer of the workbench: what a researcher would write in Python.

Every page of eq-taq-1min for each ticker as CSV, `requests` with four pages in flight (one
Session a thread, connections kept), each page read by `polars.read_csv` typed from the
dataset's `/columns` (no inference, date-times parsed by the reader), the frames concatenated
in ticker order. Run by bench/universe.ts and bench/line.ts as a long-lived child so that
interpreter start and imports are not timed: it reads one line per round on stdin ("pull", or
"pull csv_gzip" to ask for gzip-compressed CSV, which `polars.read_csv` decompresses) and
answers one JSON line: seconds, CPU seconds of the process (every thread), rows, bytes (as
received: compressed for csv_gzip).

    python3 bench/peers/python_polars.py BASE_URL API_KEY START END TICKER...
"""

import json
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import polars as pl
import requests

from column_types import schema_of

DATASET = "eq-taq-1min"
CONCURRENCY = 4
PAGE = 100_000

base, key, start, end, *tickers = sys.argv[1:]
headers = {"X-API-KEY": key}
local = threading.local()


def session() -> requests.Session:
    if not hasattr(local, "session"):
        local.session = requests.Session()
        local.session.headers.update(headers)
    return local.session


columns = requests.get(f"{base}/api/v1/meta/datasets/{DATASET}/columns", headers=headers, timeout=60).json()
schema = schema_of(columns)
lists = [c["name"] for c in columns if c["data_type"] == "list_string"]


def ticker_frame(ticker: str, wire: str = "csv") -> tuple[pl.DataFrame, int]:
    """Every page of one ticker in format `wire`, typed, in row order, and the bytes received."""
    frames, size, offset = [], 0, 0
    while True:
        params = {"TradeDate.ge": start, "TradeDate.le": end, "offset": offset, "limit": PAGE, "response_format": wire}
        r = session().get(f"{base}/api/v1/data/us-equity/{DATASET}/{ticker}", params=params, timeout=120)
        r.raise_for_status()
        size += len(r.content)
        if r.content:
            frame = pl.read_csv(r.content, schema=schema)
            if lists:
                frame = frame.with_columns(pl.col(lists).str.json_decode(pl.List(pl.String)))
            frames.append(frame)
        following = r.headers.get("X-Pagination-Next-Offset", "")
        if following == "":
            break
        offset = int(following)
    return pl.concat(frames, rechunk=False) if frames else pl.DataFrame(schema=schema), size


def pull(wire: str = "csv") -> dict:
    t, cpu = time.perf_counter(), time.process_time()
    with ThreadPoolExecutor(CONCURRENCY) as pool:
        parts = list(pool.map(lambda ticker: ticker_frame(ticker, wire), tickers))
    frame = pl.concat([f for f, _ in parts], rechunk=False)
    return {"seconds": time.perf_counter() - t, "cpuSeconds": time.process_time() - cpu, "rows": frame.height, "bytes": sum(b for _, b in parts)}


print(json.dumps({"ready": True, "polars": pl.__version__}), flush=True)
for line in sys.stdin:
    words = line.split()
    if words[:1] == ["pull"] and words[1:] in ([], ["csv"], ["csv_gzip"]):
        print(json.dumps(pull(*words[1:])), flush=True)
