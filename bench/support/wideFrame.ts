/**
 * A frame shaped like a wide workbench answer, built inside Polars (no JS arrays of 62 million
 * values): `rows` rows by 62 columns of the workbench's types, a Date, a New York Datetime(ns),
 * text, Float64 and Int64 columns.
 */
import pl from "nodejs-polars";

export function wideFrame(rows: number): pl.DataFrame {
  const i = pl.col("i");
  const columns: pl.Expr[] = [
    // 960 bars a day from 2023-09-01 (day 19,601), one a minute from 04:00 New York.
    i.sub(i.modulo(960)).div(960).add(19_601).cast(pl.Int32).cast(pl.Date).alias("TradeDate"),
    i.cast(pl.Int64).mul(60_000).add(1_693_555_200_000).cast(pl.Datetime("ms")).cast(pl.Datetime("ns")).dt.replaceTimeZone("UTC").dt
      .convertTimeZone("America/New_York").alias("BarDateTime"),
    i.modulo(7).cast(pl.Int32).cast(pl.String).alias("Ticker"),
  ];
  for (let k = 0; columns.length < 62; k++) {
    columns.push(
      k % 2 === 0
        ? i.cast(pl.Float64).mul(1.000_37 + k).div(7).alias(`Float${k}`)
        : i.cast(pl.Int64).mul(pl.lit(k).cast(pl.Int64)).alias(`Int${k}`),
    );
  }
  return pl.DataFrame({ i: pl.Series("i", Int32Array.from({ length: rows }, (_, n) => n)) }).select(...columns);
}
