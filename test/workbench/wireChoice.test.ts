/**
 * The workbench chooses the wire format itself: plain CSV on a fast connection, csv_gzip over a
 * slow line, learnt from what its pages measure and kept for the session, said in the call's
 * progress; a call's `format` overrides it. The line is the sandbox's own (net/line.ts) in front
 * of the in-process app, so the pages really arrive at the line's pace.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SharedLine } from "../../sandbox/service/net/line.ts";
import { shapeAnswer } from "../../sandbox/service/net/shape.ts";
import { GZIP_BELOW_MBPS, WireChoice } from "../../workbench/http/wireChoice.ts";
import { connect } from "../../workbench/mod.ts";
import type { ProgressEvent } from "../../workbench/progress/progress.ts";
import { type AppSandbox, openAppSandbox } from "../sandbox/service/support/appSandbox.ts";

const KEY = "demo-full-access";
const TICKERS = ["AAPL", "MSFT", "JPM", "SPY", "QQQ", "CVX"];
const RANGE = { start: "2023-11-20", end: "2023-11-28" };

describe("WireChoice", () => {
  it("starts from where the service is: CSV on this machine or a private network, csv_gzip across the internet", () => {
    for (
      const url of ["http://127.0.0.1:8000", "http://[::1]:8000", "http://localhost:8000", "http://10.1.2.3", "http://sandbox-1.invalid"]
    ) {
      expect(new WireChoice(url).decision.format, url).toBe("csv");
    }
    expect(new WireChoice("https://data.example.com").decision.format).toBe("csv_gzip");
  });

  /** An answer asked at `sent`, its headers `wait` ms later, its body taking `ms` more. */
  const answer = (sent: number, wait: number, ms: number, wire: number, csv = wire) => ({
    sent,
    headers: sent + wait,
    end: sent + wait + ms,
    wire,
    csv,
  });

  it("tries csv_gzip when CSV pages measure a slow line, and keeps it when it delivers more CSV a second", () => {
    const choice = new WireChoice("http://127.0.0.1:8000");
    choice.transferred(answer(0, 40, 50, 1_000_000), "csv"); // not evidence enough yet
    expect(choice.decision.format).toBe("csv");
    choice.transferred(answer(0, 40, 800, 9_000_000), "csv"); // 10 MB in 0.8 s: 12.5 MB/s
    expect(choice.decision).toMatchObject({ format: "csv_gzip", reason: expect.stringContaining("12.5 MB/s of CSV") });
    // The trial waits for eight answers, as many as a call keeps in flight.
    for (let i = 0; i < 7; i++) choice.transferred(answer(1000, 40, 200, 2_500_000, 12_000_000), "csv_gzip");
    expect(choice.decision.reason).toMatch(/trying csv_gzip/);
    choice.transferred(answer(1000, 40, 200, 2_500_000, 12_000_000), "csv_gzip"); // 8 x 12 MB of CSV in 0.24 s
    // Then CSV is measured again, warm, to compare.
    expect(choice.decision).toMatchObject({
      format: "csv",
      reason: expect.stringMatching(/csv_gzip delivered 400\.0 MB\/s of CSV .* measuring plain CSV again/),
    });
    for (let i = 0; i < 8; i++) choice.transferred(answer(2000, 40, 800, 1_000_000), "csv"); // 8 MB of CSV in 0.84 s
    expect(choice.decision).toMatchObject({
      format: "csv_gzip",
      reason: expect.stringMatching(/^csv_gzip: over this line plain CSV delivered 9\.5 MB\/s of CSV, csv_gzip 400\.0 MB\/s/),
    });
    choice.transferred(answer(3000, 40, 2000, 2_500_000, 12_000_000), "csv_gzip"); // slower now: decided already
    for (let i = 0; i < 8; i++) choice.transferred(answer(3000, 40, 2000, 2_500_000, 12_000_000), "csv_gzip");
    expect(choice.decision.format).toBe("csv_gzip");
  });

  it("goes back to CSV when the trial of csv_gzip delivers less: starved cores, not a slow line", () => {
    const choice = new WireChoice("http://127.0.0.1:8000");
    choice.transferred(answer(0, 300, 500, 7_500_000), "csv"); // 15 MB/s on the wire (below 20 on loopback), 9.4 MB/s of CSV from asking
    expect(choice.decision.format).toBe("csv_gzip");
    for (let i = 0; i < 8; i++) choice.transferred(answer(1000 + 1600 * i, 1500, 100, 2_500_000, 12_000_000), "csv_gzip"); // compressing took 1.5 s each
    expect(choice.decision.format).toBe("csv"); // measured again
    for (let i = 0; i < 8; i++) choice.transferred(answer(20_000 + 800 * i, 300, 500, 10_000_000), "csv");
    expect(choice.decision).toMatchObject({
      format: "csv",
      reason: expect.stringMatching(/^plain CSV: over this line plain CSV delivered 12\.5 MB\/s of CSV, csv_gzip 7\.5 MB\/s/),
    });
    choice.transferred(answer(2000, 300, 500, 10_000_000), "csv"); // slow again: kept for the session
    expect(choice.decision.format).toBe("csv");
  });

  it("keeps CSV on a fast connection, counting the time spent parsing as this thread's, not the line's", () => {
    const choice = new WireChoice("http://127.0.0.1:8000");
    choice.busy(50, 150); // half of the time below parsing
    choice.transferred(answer(0, 0, 200, 6_000_000), "csv"); // 30 MB/s of wall time: the line gave 60 MB/s
    expect(choice.decision.format).toBe("csv");
    expect(choice.lineMBps).toBeGreaterThan(GZIP_BELOW_MBPS);
  });

  it("waits for answers still under way: they share the line before their bytes are counted", () => {
    const choice = new WireChoice("http://127.0.0.1:8000");
    // Eight pages share a 12.5 MB/s line; one has arrived, seven are under way since the same start.
    const others = Array.from({ length: 7 }, () => choice.asked(0));
    others.forEach((o) => o.headers(40));
    choice.transferred(answer(0, 40, 3960, 6_000_000), "csv"); // alone, this would read 1.5 MB/s
    expect(choice.lineMBps).toBeUndefined();
    expect(choice.decision.format).toBe("csv");
    // Each of the others ends in turn, then its bytes are told, as `callWire` does.
    for (const other of others) {
      other.ended();
      choice.transferred(answer(0, 40, 3960, 6_000_000), "csv");
    }
    expect(choice.decision).toMatchObject({ format: "csv_gzip", reason: expect.stringContaining("12.1 MB/s of CSV") });
  });

  it("tries CSV from csv_gzip only when even compressed pages arrive fast", () => {
    const choice = new WireChoice("https://data.example.com");
    choice.transferred(answer(0, 40, 100, 3_000_000, 14_000_000), "csv_gzip"); // 30 MB/s of gzip: could be the compressor
    expect(choice.decision.format).toBe("csv_gzip");
    choice.transferred(answer(200, 40, 50, 5_000_000, 23_000_000), "csv_gzip");
    expect(choice.decision.format).toBe("csv");
  });
});

describe("the format a data call asks for", () => {
  let sb: AppSandbox;
  beforeAll(async () => {
    sb = await openAppSandbox();
  });
  afterAll(() => sb.stop());

  /** The in-process app behind a line of `mbps` (none: as fast as memory), recording each page's format. */
  const reach = (mbps?: number) => {
    const formats: string[] = [];
    const line = mbps === undefined ? undefined : new SharedLine(SharedLine.clock(), mbps);
    const fetch = (input: Request | URL | string, init?: RequestInit): Promise<Response> => {
      const request = new Request(input, init);
      const format = new URL(request.url).searchParams.get("response_format");
      if (format) formats.push(format);
      return line ? shapeAnswer(request.method, () => sb.fetch(request), { latencyMs: 0, lineMBps: mbps }, line) : sb.fetch(request);
    };
    return { fetch, formats };
  };
  const pull = async (wb: Awaited<ReturnType<typeof connect>>, format?: "csv" | "csv_gzip") => {
    const said: NonNullable<ProgressEvent["wireFormat"]>[] = [];
    const frame = await wb.data.eqTaq1Min(TICKERS, {
      ...RANGE,
      ...(format ? { format } : {}),
      onProgress: (e) => void (e.wireFormat && said.at(-1) !== e.wireFormat && said.push(e.wireFormat)),
    });
    return { frame, said };
  };

  it("asks csv_gzip over a slow line once its pages measured it, says so, and keeps it for the session", async () => {
    const slow = reach(8);
    const wb = await connect({ baseUrl: sb.baseUrl, apiKey: KEY, fetch: slow.fetch });
    const first = await pull(wb);
    expect(first.said[0]).toMatchObject({ format: "csv", reason: expect.stringContaining("this machine") });
    const second = await pull(wb);
    expect(second.said.map((s) => s.format)).toEqual(["csv_gzip"]);
    expect(second.said[0].reason).toMatch(/measured [\d.]+ MB\/s/);
    // The trial measures csv_gzip, then CSV again, and settles: kept for the session.
    let settled = second.said.at(-1)!;
    for (let call = 0; call < 6 && !/^(plain CSV|csv_gzip): over this line/.test(settled.reason); call++) {
      settled = (await pull(wb)).said.at(-1) ?? settled;
    }
    expect(settled).toMatchObject({
      format: "csv_gzip",
      reason: expect.stringMatching(/^csv_gzip: over this line plain CSV delivered [\d.]+ MB\/s of CSV, csv_gzip [\d.]+ MB\/s/),
    });
    const before = slow.formats.length;
    await pull(wb);
    expect(new Set(slow.formats.slice(before))).toEqual(new Set(["csv_gzip"]));
    // The same frame as plain CSV gives.
    const plain = await pull(await connect({ baseUrl: sb.baseUrl, apiKey: KEY, fetch: reach().fetch }), "csv");
    expect(second.frame.frameEqual(plain.frame, true)).toBe(true);
  }, 60_000);

  it("keeps plain CSV where the connection is fast, and says so", async () => {
    const fast = reach();
    const wb = await connect({ baseUrl: sb.baseUrl, apiKey: KEY, fetch: fast.fetch });
    await pull(wb);
    const again = await pull(wb);
    expect(again.said.map((s) => s.format)).toEqual(["csv"]);
    expect(new Set(fast.formats)).toEqual(new Set(["csv"]));
  });

  it("asks the format the call names, on any line, and says no choice", async () => {
    const slow = reach(8);
    const wb = await connect({ baseUrl: sb.baseUrl, apiKey: KEY, fetch: slow.fetch });
    await pull(wb); // the session learns the line is slow
    const before = slow.formats.length;
    const named = await pull(wb, "csv");
    expect(new Set(slow.formats.slice(before))).toEqual(new Set(["csv"]));
    expect(named.said).toEqual([]);
  }, 60_000);
});
