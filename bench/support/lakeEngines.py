"""Reads lake folders written by wb.download with the engines a researcher compares (bench/lakeEngines.ts).

Usage: python3 lakeEngines.py '<JSON: [{"dir": ..., "rows": n, "time": column or null}, ...]>'
Prints one JSON line per folder and engine: rows read, the first value of the time column as the
engine shows it after its New York line, or the error. Engines Python lacks are reported as such.
"""
import json
import sys

folders = json.loads(sys.argv[1])
engines = {}
try:
    import polars as pl
    engines["polars"] = pl.__version__
except ImportError:
    pl = None
try:
    import pyarrow
    import pyarrow.dataset as ds
    import pyarrow.compute as pc
    engines["pyarrow"] = pyarrow.__version__
except ImportError:
    ds = None
try:
    import duckdb
    engines["duckdb"] = duckdb.__version__
except ImportError:
    duckdb = None
try:
    import pandas as pd
    engines["pandas"] = pd.__version__
except ImportError:
    pd = None
try:
    import pyspark
    engines["pyspark"] = pyspark.__version__
except ImportError:
    pyspark = None
print(json.dumps({"engines": engines, "missing": [e for e in ["polars", "pyarrow", "duckdb", "pandas", "pyspark"] if e not in engines]}))


def report(engine, folder, run):
    try:
        rows, first = run(folder["dir"], folder.get("time"))
        print(json.dumps({"engine": engine, "dir": folder["dir"], "rows": rows, "expected": folder["rows"], "first": first}))
    except Exception as error:  # an engine's refusal is a result
        print(json.dumps({"engine": engine, "dir": folder["dir"], "error": f"{type(error).__name__}: {str(error).splitlines()[0][:200]}"}))


def with_polars(d, time):
    # Polars reads the zone from the files' Arrow metadata: New York time as it is.
    lf = pl.scan_parquet(d, hive_partitioning=True)
    rows = lf.select(pl.len()).collect().item()
    first = str(lf.select(pl.col(time).min()).collect().item()) if time else None
    return rows, first


def with_pyarrow(d, time):
    table = ds.dataset(d, format="parquet", partitioning="hive").to_table()
    first = None
    if time:
        column = table.column(time)
        first = f"{pc.min(column).as_py()} ({column.type})"
    return table.num_rows, first


def with_duckdb(d, time):
    con = duckdb.connect()
    con.execute("SET TimeZone = 'America/New_York'")
    source = f"read_parquet('{d}/**/*.parquet', hive_partitioning = true)"
    rows = con.execute(f"SELECT count(*) FROM {source}").fetchone()[0]
    first = con.execute(f"SELECT strftime(min({time}), '%Y-%m-%d %H:%M:%S.%f %Z') FROM {source}").fetchone()[0] if time else None
    return rows, first


def with_pandas(d, time):
    frame = pd.read_parquet(d)
    return len(frame), str(frame[time].min()) if time else None


def with_spark(d, time):
    from pyspark.sql import SparkSession
    spark = SparkSession.builder.master("local[1]").config("spark.sql.session.timeZone", "America/New_York").getOrCreate()
    frame = spark.read.parquet(d)
    first = str(frame.selectExpr(f"min({time})").collect()[0][0]) if time else None
    return frame.count(), first


for folder in folders:
    if pl:
        report("polars", folder, with_polars)
    if ds:
        report("pyarrow", folder, with_pyarrow)
    if duckdb:
        report("duckdb", folder, with_duckdb)
    if pd and ds:
        report("pandas", folder, with_pandas)
    if pyspark:
        report("spark", folder, with_spark)
