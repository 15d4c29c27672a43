/**
 * CRSP-style back-adjustment for splits: each row's prices are divided by the cumulative
 * factor of the splits that happened after it, and its share counts multiplied by it, so the
 * series is continuous through the splits and the factor is 1 on the frame's latest date
 * (splits after that date are not applied: the latest rows stay as traded).
 */
import pl from "nodejs-polars";
import { QueryError } from "../errors/base.ts";
import { isoDate } from "./securities.ts";

/** Which columns `adjustPrices` reads and adjusts (each has a default from the service's names). */
export interface AdjustOptions {
  /** Column holding the trade date (default `TradeDate`). */
  dateColumn?: string;
  /** Column holding the security id the factors' `SecId` refers to (default `ASID`). */
  idColumn?: string;
  /** Price columns to divide (default: see `priceColumnsOf`). */
  priceColumns?: string[];
  /** Share-count columns to multiply (default: see `volumeColumnsOf`). */
  volumeColumns?: string[];
}

/**
 * Float columns in price units, by the service's names: `*Price` (OHLC, trades, NBBO),
 * `*VWAP`, `TimeWeightBid/Ask`, `Min/MaxSpread` and `TradeToMidVolWeight` (a mean of price
 * minus mid, in dollars). Relative measures stay as they are.
 *
 * @example
 * ```ts
 * const daily = await wb.data.eqDailyOhlc({ filters: { Ticker: "AAPL" } });
 * priceColumnsOf(daily); // ["OpenPrice", "HighPrice", "LowPrice", "ClosePrice", "MarketHoursVWAP", "DailyVWAP"]
 * ```
 */
export function priceColumnsOf(frame: pl.DataFrame): string[] {
  return frame.columns.filter((name, i) =>
    frame.dtypes[i].equals(pl.Float64) && /(Price|VWAP|^TimeWeight(Bid|Ask)|Spread|^TradeToMidVolWeight)$/.test(name)
  );
}

/**
 * Integer columns counting shares: `*Volume`, `*Size`, `TradeAt*` and `Quantity` (ticks).
 *
 * @example
 * ```ts
 * const daily = await wb.data.eqDailyOhlc({ filters: { Ticker: "AAPL" } });
 * volumeColumnsOf(daily); // ["MarketHoursVolume", "MarketHoursFinraVolume", "DailyVolume", "DailyFinraVolume"]
 * ```
 */
export function volumeColumnsOf(frame: pl.DataFrame): string[] {
  return frame.columns.filter((name, i) => frame.dtypes[i].equals(pl.Int64) && /(Volume|Size|^TradeAt\w+|^Quantity)$/.test(name));
}

/**
 * Back-adjusts prices and share counts for splits, CRSP-style: prices divided by the
 * cumulative factor, share counts multiplied (they become Float64: a reverse split leaves
 * fractions), factor 1 on each security's latest date in the frame. Adds `AdjFactor`, the
 * cumulative factor of each row. Works on daily bars, minute bars and ticks; rows of several
 * securities are adjusted each by its own factors (matched on `ASID` = `SecId`), so a series
 * gathered across a ticker change (`securityBars`) stays one series.
 *
 * @example
 * ```ts
 * const factors = await splitFactors(wb);
 * const daily = await wb.data.eqDailyOhlc({ filters: { Ticker: "ODFL" }, sort: "TradeDate" });
 * const adjusted = adjustPrices(daily, factors); // ClosePrice before the ex date divided by 1.5
 * ```
 */
export function adjustPrices(frame: pl.DataFrame, factors: pl.DataFrame, options: AdjustOptions = {}): pl.DataFrame {
  const dateColumn = options.dateColumn ?? "TradeDate";
  const idColumn = options.idColumn ?? "ASID";
  for (const [what, name] of [["date", dateColumn], ["security id", idColumn]]) {
    if (!frame.columns.includes(name)) {
      throw new QueryError(
        `adjustPrices needs the ${what} column '${name}', which the frame lacks (it has ${
          frame.columns.join(", ")
        }): fetch it, or name another with { ${what === "date" ? "dateColumn" : "idColumn"} }`,
      );
    }
  }
  for (const name of ["SecId", "ExDate", "Factor"]) {
    if (!factors.columns.includes(name)) {
      throw new QueryError(
        `The factors frame needs SecId, ExDate and Factor (as splitFactors returns them); it has ${factors.columns.join(", ")}`,
      );
    }
  }
  const prices = options.priceColumns ?? priceColumnsOf(frame);
  const volumes = options.volumeColumns ?? volumeColumnsOf(frame);
  const missing = [...prices, ...volumes].filter((c) => !frame.columns.includes(c));
  if (missing.length > 0) throw new QueryError(`Columns to adjust are not in the frame: ${missing.join(", ")}`);

  const date = pl.col(dateColumn);
  const latest = date.max().over(idColumn);
  // A row carries the product of the factors of its security's splits with an ex date after
  // the row's date and not after the security's latest date in the frame.
  let cumulative: pl.Expr = pl.lit(1.0);
  for (
    const f of factors.select("SecId", "ExDate", "Factor").toRecords() as unknown as {
      SecId: number | bigint;
      ExDate: Date;
      Factor: number;
    }[]
  ) {
    const exDate = pl.lit(isoDate(f.ExDate)).str.strptime(pl.Date, "%Y-%m-%d");
    const applies = pl.col(idColumn).eq(pl.lit(Number(f.SecId))).and(date.lt(exDate)).and(latest.gtEq(exDate));
    cumulative = cumulative.mul(pl.when(applies).then(pl.lit(f.Factor)).otherwise(pl.lit(1.0)));
  }
  return frame
    .withColumns(cumulative.alias("AdjFactor"))
    .withColumns(
      ...prices.map((c) => pl.col(c).div(pl.col("AdjFactor")).alias(c)),
      ...volumes.map((c) => pl.col(c).cast(pl.Float64).mul(pl.col("AdjFactor")).alias(c)),
    );
}
