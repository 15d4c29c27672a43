/**
 * Column schemas of the option datasets, in the order the service returns them (the spec's
 * field order). Greeks are in the units of options/contract.ts: Delta per $1, Gamma per $1 per
 * $1, Theta per calendar day, Vega per volatility point, Rho per percentage point of the rate.
 */
import { col, type Column } from "../schema.ts";

const NULLABLE = true;

export const OPT_GREEKS_DAILY_COLUMNS: Column[] = [
  col("TradeDate", "date", "trading day"),
  col("Ticker", "string", "option root ticker"),
  col("CallPut", "string", "C call, P put"),
  col("OptionStyle", "string", "A American, E European"),
  col("Strike", "float64", "strike price"),
  col("ExpirationDate", "date", "last trading day of the contract"),
  col("YearsToMaturity", "float64", "calendar days to expiration / 365"),
  col("DaysToMaturity", "int64", "calendar days to expiration"),
  col(
    "UnderLastMidPrice",
    "float64",
    "underlying NBBO mid at the last minute (for an adjusted root, the deliverable's value / 100; for the index root, the index level)",
  ),
  col("UnderLastMidTime", "datetime_ns", "start of the underlying's minute bar that price comes from, New York time"),
  col("LastBidPrice", "float64", "option NBBO bid at the last minute of the session"),
  col("LastMidPrice", "float64", "option NBBO mid at the last minute of the session"),
  col("LastAskPrice", "float64", "option NBBO ask at the last minute of the session"),
  col("LastBidTime", "datetime_ms", "time of the last bid update, New York time"),
  col("LastAskTime", "datetime_ms", "time of the last ask update, New York time"),
  col("MidImpliedVol", "float64", "implied volatility at LastMidPrice; empty when not converged", NULLABLE),
  col("MidTheoPrice", "float64", "model price at MidImpliedVol", NULLABLE),
  col("MidDelta", "float64", "dPrice/dUnderlying", NULLABLE),
  col("MidGamma", "float64", "dDelta/dUnderlying", NULLABLE),
  col("MidTheta", "float64", "price change per calendar day", NULLABLE),
  col("MidVega", "float64", "price change per volatility point (0.01)", NULLABLE),
  col("MidRho", "float64", "price change per percentage point (0.01) of the risk-free rate", NULLABLE),
  col("ImpliedVolConvergence", "string", "computed, interpolated (from nearby contracts of the expiry) or not converged"),
];

export const OPT_OPEN_INTEREST_COLUMNS: Column[] = [
  col("TradeDate", "date", "trading day"),
  col("EventDateTime", "datetime_ms", "publication time of the figure, New York time, millisecond resolution"),
  col("Ticker", "string", "option root ticker"),
  col("CallPut", "string", "C call, P put"),
  col("Strike", "float64", "strike price"),
  col("ExpirationDate", "date", "last trading day of the contract"),
  col("OpenInterest", "int64", "contracts open at the end of the previous trading day"),
];

export const OPT_SEC_MASTER_COLUMNS: Column[] = [
  col("ASID", "int64", "persistent identifier of the option root"),
  col("OptionTicker", "string", "option root ticker; adjusted roots carry a digit suffix"),
  col("UnderTicker", "string", "ticker of the underlying (of the deliverable's shares for an adjusted root)"),
  col("UnderType", "string", "stock, etf, adr or index"),
  col("OptionType", "string", "vanilla"),
  col("OptionStyle", "string", "A American, E European"),
  col("IsWeekly", "string", "Y when the root lists weekly expiries"),
  col("MarketClose", "string", "time its options stop trading on a full day, HH:MM New York time"),
  col("SettlType", "string", "physical (shares delivered) or cash-pm (cash on the closing index value)"),
  col("SettlTicker", "string", "ticker giving the exercise settlement price; empty for physical settlement"),
  col("OptionTradeDates", "list_string", "YYYYMMDD:YYYYMMDD ranges the root traded; 29991231 while in use"),
  col("OptionListStatus", "string", "L listed, D delisted"),
  col("UnderSecId", "int64", "SecId of the underlying (lookup files)"),
  col("UnderTradeDates", "list_string", "YYYYMMDD:YYYYMMDD ranges the underlying traded under UnderTicker; 29991231 while it does"),
  col("GreeksCoverage", "string", "Y when opt-greeks-daily values its contracts"),
];

export const OCC_EQ_SPEC_SETTL_COLUMNS: Column[] = [
  col("ProcessDate", "date", "date the record was created (the corporate action's ex or effective date)"),
  col("SettlementDate", "date", "first date exercises settle with this deliverable"),
  col("OptionTicker", "string", "adjusted option root"),
  col("UnderTicker", "string", "ticker of this component (USD for cash)"),
  col("UnderType", "string", "stock or cash"),
  col("StrikeCurrency", "string", "USD"),
  col("TotalDelivComponents", "int64", "components of the deliverable"),
  col("DeliveryComponents", "int64", "number of the component this record describes, from 1"),
  col("SettlementMethod", "string", "physical for shares, cash for cash"),
  col("StrikePercent", "int64", "percent of the strike allocated to this component (by value on the process date)"),
  col("DeliverableUnits", "int64", "shares of this component per contract (0 for cash)"),
  col("CashAmount", "float64", "cash per contract, dollars (0 for shares)"),
];
