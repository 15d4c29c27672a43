/**
 * The securities of the synthetic market. Tickers and descriptions are real; every price,
 * size and corporate action is synthetic. Parameters are rough 2023 levels so the data has
 * the right scale (price, daily volume, spread, off-exchange share).
 */

type SecurityKind = "common" | "etf" | "adr" | "preferred" | "warrant";

export interface Security {
  /** Persistent security identifier; also the SecId of the lookup files. */
  asid: number;
  /** Ticker at the start of the market (a ticker change may rename it). */
  ticker: string;
  name: string;
  kind: SecurityKind;
  /** Market center code of the listing exchange (opening and closing auctions print there). */
  listing: "Q" | "N" | "P";
  /** Price level at the start of the generated range. */
  startPrice: number;
  /** Annualised volatility. */
  annualVol: number;
  /** Sensitivity to the common market factor. */
  beta: number;
  /** Typical shares traded per day, exchange and TRF together, at real scale. */
  dailyVolume: number;
  /**
   * Fraction of real prints and quote updates that the generator emits. Sizes of generated
   * trades are scaled up by the inverse, so volumes stay at real scale while tick files stay
   * small enough to generate quickly. 1 means every print is generated.
   */
  printScale: number;
  /**
   * Typical regular-hours midday NBBO spread in ticks (1 = always one tick). Spreads are set in
   * ticks: a liquid name sits at one tick most of the day whatever its price.
   */
  spreadTicks: number;
  /** Sector factor it loads on (besides the market). */
  sector: "tech" | "energy" | "financials" | "consumer" | "none";
  /** Share of its non-market variance that comes from its sector factor. */
  sectorShare: number;
  /** Minutes its price takes to absorb a market or sector move (price discovery lags: the Epps effect). */
  lagMinutes: number;
  /** Extended-hours activity relative to a typical large stock (an ADR trades more, a preferred far less). */
  extendedActivity: number;
  /** Share of continuous regular-hours prints reported to a FINRA TRF (auctions are all on-exchange). */
  finraShare: number;
  /** Typical NBBO size in round lots. */
  depthLots: number;
  /** Whether listed options exist on it. */
  optionable: boolean;
}

/** Every security of the market; profiles pick from this list by ticker. */
export const SECURITIES: readonly Security[] = [
  {
    asid: 100001,
    ticker: "AAPL",
    name: "Apple Inc.",
    kind: "common",
    listing: "Q",
    startPrice: 173.97,
    annualVol: 0.2,
    beta: 1.1,
    dailyVolume: 55e6,
    printScale: 1 / 25,
    spreadTicks: 1.02,
    sector: "tech",
    sectorShare: 0.3,
    lagMinutes: 2,
    extendedActivity: 1.0,
    finraShare: 0.6,
    depthLots: 3,
    optionable: true,
  },
  {
    asid: 100002,
    ticker: "MSFT",
    name: "Microsoft Corporation",
    kind: "common",
    listing: "Q",
    startPrice: 346.07,
    annualVol: 0.22,
    beta: 1.1,
    dailyVolume: 24e6,
    printScale: 1 / 25,
    spreadTicks: 1.12,
    sector: "tech",
    sectorShare: 0.3,
    lagMinutes: 2.5,
    extendedActivity: 0.8,
    finraShare: 0.58,
    depthLots: 2,
    optionable: true,
  },
  {
    asid: 100003,
    ticker: "JPM",
    name: "JPMorgan Chase & Co.",
    kind: "common",
    listing: "N",
    startPrice: 139.06,
    annualVol: 0.19,
    beta: 1.0,
    dailyVolume: 9e6,
    printScale: 1 / 15,
    spreadTicks: 1.1,
    sector: "financials",
    sectorShare: 0.35,
    lagMinutes: 2.5,
    extendedActivity: 0.5,
    finraShare: 0.55,
    depthLots: 3,
    optionable: true,
  },
  {
    asid: 100004,
    ticker: "SPY",
    name: "SPDR S&P 500 ETF Trust",
    kind: "etf",
    listing: "P",
    startPrice: 422.66,
    annualVol: 0.13,
    beta: 1.0,
    dailyVolume: 75e6,
    printScale: 1 / 30,
    spreadTicks: 1.01,
    sector: "none",
    sectorShare: 0,
    lagMinutes: 0.2,
    extendedActivity: 0.9,
    finraShare: 0.52,
    depthLots: 12,
    optionable: true,
  },
  {
    asid: 100005,
    ticker: "QQQ",
    name: "Invesco QQQ Trust",
    kind: "etf",
    listing: "Q",
    startPrice: 356.3,
    annualVol: 0.17,
    beta: 1.2,
    dailyVolume: 45e6,
    printScale: 1 / 30,
    spreadTicks: 1.02,
    sector: "tech",
    sectorShare: 0.95,
    lagMinutes: 0.4,
    extendedActivity: 1.3,
    finraShare: 0.52,
    depthLots: 8,
    optionable: true,
  },
  {
    asid: 100006,
    ticker: "TSM",
    name: "Taiwan Semiconductor Manufacturing Co. (ADR)",
    kind: "adr",
    listing: "N",
    startPrice: 87.63,
    annualVol: 0.28,
    beta: 1.2,
    dailyVolume: 10e6,
    printScale: 1 / 12,
    spreadTicks: 1.25,
    sector: "tech",
    sectorShare: 0.25,
    lagMinutes: 3,
    extendedActivity: 2.2,
    finraShare: 0.56,
    depthLots: 3,
    optionable: true,
  },
  {
    asid: 100007,
    ticker: "JPM.PRC",
    name: "JPMorgan Chase & Co. 6.00% Non-Cumulative Preferred, Series EE",
    kind: "preferred",
    listing: "N",
    startPrice: 24.62,
    annualVol: 0.07,
    beta: 0.2,
    dailyVolume: 80e3,
    printScale: 1,
    spreadTicks: 2.6,
    sector: "financials",
    sectorShare: 0.2,
    lagMinutes: 6,
    extendedActivity: 0.08,
    finraShare: 0.45,
    depthLots: 4,
    optionable: false,
  },
  {
    asid: 100008,
    ticker: "OXY.WS",
    name: "Occidental Petroleum Corporation Warrants",
    kind: "warrant",
    listing: "N",
    startPrice: 39.4,
    annualVol: 0.38,
    beta: 1.1,
    dailyVolume: 350e3,
    printScale: 1 / 2,
    spreadTicks: 5,
    sector: "energy",
    sectorShare: 0.45,
    lagMinutes: 4,
    extendedActivity: 0.3,
    finraShare: 0.4,
    depthLots: 2,
    optionable: false,
  },
  {
    asid: 100009,
    ticker: "ODFL",
    name: "Old Dominion Freight Line, Inc.",
    kind: "common",
    listing: "Q",
    startPrice: 379.9,
    annualVol: 0.27,
    beta: 1.0,
    dailyVolume: 1.1e6,
    printScale: 1 / 5,
    spreadTicks: 12,
    sector: "consumer",
    sectorShare: 0.2,
    lagMinutes: 5,
    extendedActivity: 0.3,
    finraShare: 0.52,
    depthLots: 1,
    optionable: true,
  },
  {
    asid: 100010,
    ticker: "SIRI",
    name: "Sirius XM Holdings Inc.",
    kind: "common",
    listing: "Q",
    startPrice: 4.6,
    annualVol: 0.35,
    beta: 0.9,
    dailyVolume: 22e6,
    printScale: 1 / 8,
    spreadTicks: 1,
    sector: "consumer",
    sectorShare: 0.15,
    lagMinutes: 4,
    extendedActivity: 0.7,
    finraShare: 0.62,
    depthLots: 60,
    optionable: true,
  },
  {
    asid: 100011,
    ticker: "HES",
    name: "Hess Corporation",
    kind: "common",
    listing: "N",
    startPrice: 144.5,
    annualVol: 0.26,
    beta: 0.9,
    dailyVolume: 2.2e6,
    printScale: 1 / 5,
    spreadTicks: 4,
    sector: "energy",
    sectorShare: 0.5,
    lagMinutes: 4,
    extendedActivity: 0.4,
    finraShare: 0.52,
    depthLots: 1,
    optionable: true,
  },
  {
    asid: 100012,
    ticker: "CVX",
    name: "Chevron Corporation",
    kind: "common",
    listing: "N",
    startPrice: 146.1,
    annualVol: 0.22,
    beta: 0.9,
    dailyVolume: 9e6,
    printScale: 1 / 15,
    spreadTicks: 1.3,
    sector: "energy",
    sectorShare: 0.5,
    lagMinutes: 2.5,
    extendedActivity: 0.5,
    finraShare: 0.54,
    depthLots: 3,
    optionable: true,
  },
  {
    asid: 100013,
    ticker: "SQ",
    name: "Block, Inc.",
    kind: "common",
    listing: "N",
    startPrice: 45.06,
    annualVol: 0.5,
    beta: 1.6,
    dailyVolume: 10e6,
    printScale: 1 / 12,
    spreadTicks: 1.15,
    sector: "tech",
    sectorShare: 0.15,
    lagMinutes: 3,
    extendedActivity: 1.1,
    finraShare: 0.6,
    depthLots: 3,
    optionable: true,
  },
];

/** The security first listed under this ticker; throws naming the ticker and the known ones. */
export function securityByTicker(ticker: string): Security {
  const found = SECURITIES.find((s) => s.ticker === ticker);
  if (!found) throw new Error(`Unknown security '${ticker}': known tickers are ${SECURITIES.map((s) => s.ticker).join(", ")}`);
  return found;
}

/** Minimum price increment at a price: one cent from $1 up, 0.0001 below (Reg NMS rule 612). */
export function tickSize(price: number): number {
  return price >= 1 ? 0.01 : 0.0001;
}
