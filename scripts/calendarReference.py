#!/usr/bin/python3
"""Writes QuantLib's NYSE calendar for 1990-01-01..2030-12-31 as the fixture the calendar test
compares ours with, day by day (test/calendar/quantlibReference.test.ts).

QuantLib is an independent implementation of the same exchange rules, so agreeing with it checks
our rules and one-off closures; every day where the two differ is listed and judged in the test
and in docs/calendar.md.

Needs Debian's QuantLib bindings (`apt-get install -y quantlib-python`), which install into the
system Python (hence /usr/bin/python3, not a virtualenv's). Run from the repository root:

    /usr/bin/python3 scripts/calendarReference.py

The fixture holds the weekdays QuantLib calls holidays and each year's business-day count; the
script refuses to write it unless QuantLib also closes every Saturday and Sunday, so that the
list of weekday holidays determines every business day.
"""
import datetime
import json
import pathlib

import QuantLib as ql

FIRST, LAST = datetime.date(1990, 1, 1), datetime.date(2030, 12, 31)
OUT = pathlib.Path(__file__).resolve().parent.parent / "test/calendar/fixtures/quantlibNyse.json"


def main() -> None:
    nyse = ql.UnitedStates(ql.UnitedStates.NYSE)
    holidays, business_days = [], {}
    day = FIRST
    while day <= LAST:
        open_ = nyse.isBusinessDay(ql.Date(day.day, day.month, day.year))
        if day.weekday() >= 5:
            if open_:
                raise SystemExit(f"QuantLib calls the weekend day {day} a business day; the fixture format assumes it never does")
        elif not open_:
            holidays.append(day.isoformat())
        if open_:
            business_days[day.year] = business_days.get(day.year, 0) + 1
        day += datetime.timedelta(days=1)
    fixture = {
        "source": f"QuantLib {ql.__version__} ql.UnitedStates(ql.UnitedStates.NYSE), written by scripts/calendarReference.py",
        "first": FIRST.isoformat(),
        "last": LAST.isoformat(),
        "weekdayHolidays": holidays,
        "businessDaysPerYear": {str(y): n for y, n in sorted(business_days.items())},
    }
    OUT.write_text(json.dumps(fixture, indent=1) + "\n")
    print(f"wrote {OUT}: {len(holidays)} weekday holidays, {sum(business_days.values())} business days")


if __name__ == "__main__":
    main()
