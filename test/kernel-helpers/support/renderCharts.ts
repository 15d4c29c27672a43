/** Renders every chart case and prints them as JSON, with this process's UTC offset (run with another TZ). */
import { chartCases } from "./chartFrames.ts";

console.log(JSON.stringify({ offsetMinutes: new Date("2023-11-21T12:00:00Z").getTimezoneOffset(), charts: chartCases() }));
