"""Converged American option values from QuantLib, the reference of bench/americanAccuracy.ts.

Reads one JSON document on stdin, {"rows": [{"call", "spot", "strike", "days", "rate", "q",
"mid", "vol"}, ...], "check": N}, and writes one JSON document on stdout, {"rows": [{"iv",
"price", "delta", "vega", "rho"}, ...], "check": {...}}: the implied volatility of `mid`, and
price, Delta, Vega (per vol point) and Rho (per rate point) at `vol`, the row's own volatility.

The engine is QdFpAmericanEngine (Andersen-Lake-Offengenden fixed-point iteration for the
exercise boundary), whose accurate scheme agrees with its high-precision scheme and with an
extrapolated Leisen-Reimer tree to about 1e-5 dollars; Greeks are central differences of it.
The first `check` rows (the caller puts its worst first) are priced again with the
high-precision scheme and with FdBlackScholesVanillaEngine on a 2000 x 2000 grid, so the
report can show how far the reference itself may be from converged. Exits 3 when QuantLib
is not installed, so the caller can skip with a message.
"""
import json
import sys

try:
    import QuantLib as ql
except ImportError:
    sys.exit(3)

TODAY = ql.Date(2, 1, 2024)
ql.Settings.instance().evaluationDate = TODAY
DC = ql.Actual365Fixed()
spot, vol, rate, div = (ql.SimpleQuote(0.0) for _ in range(4))
process = ql.BlackScholesMertonProcess(
    ql.QuoteHandle(spot),
    ql.YieldTermStructureHandle(ql.FlatForward(TODAY, ql.QuoteHandle(div), DC)),
    ql.YieldTermStructureHandle(ql.FlatForward(TODAY, ql.QuoteHandle(rate), DC)),
    ql.BlackVolTermStructureHandle(ql.BlackConstantVol(TODAY, ql.NullCalendar(), ql.QuoteHandle(vol), DC)),
)
ACCURATE = ql.QdFpAmericanEngine(process, ql.QdFpAmericanEngine.accurateScheme())


def option(row, engine):
    kind = ql.Option.Call if row["call"] else ql.Option.Put
    # Actual/365 from TODAY makes the year fraction exactly days / 365, as the market's.
    o = ql.VanillaOption(ql.PlainVanillaPayoff(kind, row["strike"]), ql.AmericanExercise(TODAY, TODAY + int(row["days"])))
    o.setPricingEngine(engine)
    return o


def price_at(o, s, v, r):
    spot.setValue(s)
    vol.setValue(v)
    rate.setValue(r)
    return o.NPV()


def implied(o, row):
    """Volatility whose price is the mid: bisection on a bracket, then secant steps."""
    s, r, target = row["spot"], row["rate"], row["mid"]
    lo, hi = 0.005, 5.0
    if not (price_at(o, s, lo, r) < target < price_at(o, s, hi, r)):
        return None
    a, fa = lo, price_at(o, s, lo, r) - target
    b, fb = hi, price_at(o, s, hi, r) - target
    for _ in range(200):
        # Secant inside the bracket, bisection when it would leave it (regula falsi, Illinois).
        m = b - fb * (b - a) / (fb - fa)
        if not (a < m < b):
            m = (a + b) / 2
        fm = price_at(o, s, m, r) - target
        if abs(fm) < 1e-9 or b - a < 1e-10:
            return m
        if (fm > 0) == (fb > 0):
            b, fb = m, fm
            fa /= 2
        else:
            a, fa = m, fm
            fb /= 2
    return (a + b) / 2


def values(o, row):
    s, v, r = row["spot"], row["vol"], row["rate"]
    hs, hv, hr = 1e-4 * s, 1e-4, 1e-5
    return {
        "price": price_at(o, s, v, r),
        "delta": (price_at(o, s + hs, v, r) - price_at(o, s - hs, v, r)) / (2 * hs),
        "vega": (price_at(o, s, v + hv, r) - price_at(o, s, v - hv, r)) / (2 * hv) / 100,
        "rho": (price_at(o, s, v, r + hr) - price_at(o, s, v, r - hr)) / (2 * hr) / 100,
    }


def main():
    doc = json.load(sys.stdin)
    out = []
    for row in doc["rows"]:
        div.setValue(row["q"])
        o = option(row, ACCURATE)
        iv = implied(o, row) if row.get("mid") is not None else None
        # Without a volatility of its own, a row is valued at the reference's implied volatility.
        result = values(o, {**row, "vol": iv} if row.get("vol") is None else row) if row.get("vol") is not None or iv is not None else {}
        result["iv"] = iv
        out.append(result)
    checks = []
    precise = ql.QdFpAmericanEngine(process, ql.QdFpAmericanEngine.highPrecisionScheme())
    fine = ql.FdBlackScholesVanillaEngine(process, 2000, 2000, 2)
    for row in doc["rows"][: doc.get("check", 0)]:
        div.setValue(row["q"])
        a = price_at(option(row, ACCURATE), row["spot"], row["vol"], row["rate"])
        p = price_at(option(row, precise), row["spot"], row["vol"], row["rate"])
        f = price_at(option(row, fine), row["spot"], row["vol"], row["rate"])
        checks.append({"accurate": a, "precise": p, "fd": f})
    json.dump({"rows": out, "checks": checks}, sys.stdout)


main()
