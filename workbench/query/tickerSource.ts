/**
 * Where a session's ticker checks read from: the identity's rules, the lookup files, and a
 * one-row probe that says whether the service has any row of a ticker at any date. Built on
 * the data API's unrecorded reads (the workbench's own checks are not the notebook's calls).
 */
import type pl from "nodejs-polars";
import type { AccountApi } from "../api/account.ts";
import { dataEndpoint } from "./endpoints.ts";
import { NotEntitledError } from "../errors/http.ts";
import type { Query } from "./query.ts";
import { EQUITY_TICKER_DATASETS, type TickerSource } from "../guard/tickers.ts";

/** A data read of the workbench's own: a dataset, its path values and a query. */
export type OwnRead = (dataset: string, pathValues: string[], query: Query) => Promise<pl.DataFrame>;

/**
 * The ticker source of a session. The probe asks the dataset itself, or, for one asked per
 * trade date (eq-taq, where "any row at any date" cannot be asked), an equity dataset of the
 * same tickers the identity may read (the next one when the ticker is outside its universe
 * there); undefined when there is none to ask.
 *
 * @example
 * ```ts
 * const source = tickerSource(wb.account, (id, path, query) => wb.data.get(id, path, query));
 * await source.probe!("eq-taq", "MSFTT"); // false: no row at any date in eq-daily-ohlc
 * ```
 */
export function tickerSource(account: AccountApi, read: OwnRead): TickerSource {
  return {
    rules: () => account.rules(),
    lookup: () => read("eq-lookup-files", [], {}),
    probe: async (dataset, ticker) => {
      const readable = new Set((await account.rules()).map((r) => r.dataset_text_id));
      const candidates = EQUITY_TICKER_DATASETS.includes(dataset) ? [dataset, "eq-daily-ohlc", "eq-taq-1min"] : [dataset];
      for (const target of candidates.filter((id) => readable.has(id) && !dataEndpoint(id).pathParams.includes("trade_date"))) {
        const path = dataEndpoint(target).pathParams.includes("ticker") ? [ticker] : [];
        const filters = path.length ? undefined : { Ticker: ticker };
        try {
          return (await read(target, path, { filters, maxRows: 1 })).height > 0;
        } catch (error) {
          if (!(error instanceof NotEntitledError)) throw error; // outside the identity's universe there: try the next
        }
      }
      return undefined;
    },
  };
}
