"""The Polars type of each column type of the service's `/columns`, as the Python peer reads
them: one mapping for the peer's pull (python_polars.py) and its parse alone (python_parse.py)."""

import polars as pl

TYPES = {
    "date": pl.Date,
    "datetime_ns": pl.Datetime("ns", "America/New_York"),
    "datetime_ms": pl.Datetime("ms", "America/New_York"),
    "int64": pl.Int64,
    "float64": pl.Float64,
    "string": pl.String,
    "list_string": pl.String,  # JSON text on the wire, decoded after reading
}


def schema_of(columns: list[dict]) -> dict:
    """The `read_csv` schema of a dataset's `/columns` answer."""
    return {c["name"]: TYPES[c["data_type"]] for c in columns}
