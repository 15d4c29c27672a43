/** The error a chart helper raises for an option it cannot take, rather than ignoring it. */
import { WorkbenchError } from "../../workbench/mod.ts";

/**
 * A chart helper was given an option it does not know or cannot honour (a misspelt Plot
 * option, a column the frame lacks, a scale type its axis cannot take). `option` names it;
 * the message says what was given and what is allowed.
 *
 * @example
 * ```ts
 * const daily = await wb.data.eqDailyOhlc("AAPL", { start: "2023-11-01", end: "2023-11-30" });
 * try {
 *   candlestickChart(daily, { date: "TradeDate", open: "OpenPrice", high: "HighPrice", low: "LowPrice", close: "ClosePrice", title: "AAPL" }, { hieght: 200 } as PlotOverrides);
 * } catch (e) {
 *   if (e instanceof ChartOptionError) console.log(e.option, e.message); // "hieght", "... unknown Plot option ..."
 * }
 * ```
 */
export class ChartOptionError extends WorkbenchError {
  /** The option refused, as the caller wrote it (e.g. "fy", "x.type", "series"). */
  readonly option: string;

  /**
   * An error refusing `option`.
   *
   * @param option the option refused
   * @param message what was given and what is allowed
   */
  constructor(option: string, message: string) {
    super(message);
    this.option = option;
  }
}
