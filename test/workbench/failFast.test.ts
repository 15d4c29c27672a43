/**
 * Failures retrying cannot help raise at once with the URL and the likely cause (a mistyped
 * port used to cost 24 s of silent retries); transient ones are still retried.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, NetworkError, NotTheServiceError, ServiceUnreachableError, type Workbench } from "../../workbench/mod.ts";
import { startSandbox, type TestSandbox } from "../sandbox/service/support/sandbox.ts";
import { startRewritingProxy } from "./support/rewritingProxy.ts";
import { Buffer } from "node:buffer";

let sb: TestSandbox;
beforeAll(async () => (sb = await startSandbox()));
afterAll(() => sb?.stop());

/** A loopback HTTP server answering every request with `handler`; returns its base URL. */
async function serve(handler: Parameters<typeof createServer>[1]): Promise<{ baseUrl: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** A loopback port nothing listens on (bound, then closed). */
async function deadPort(): Promise<number> {
  const { server, baseUrl } = await serve(() => {});
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return Number(new URL(baseUrl).port);
}

/** Times a call that must fail; returns the error, the seconds and the requests sent. */
async function timedFailure(wb: Workbench, call: () => Promise<unknown>) {
  const started = performance.now();
  const error = await call().then(() => undefined, (e) => e);
  return { error: error as Error, seconds: (performance.now() - started) / 1000, requests: wb.transport.requestsSent };
}

describe("failing fast where retrying cannot help", () => {
  it("a mistyped port (connection refused) raises at once, naming the URL and the likely cause", async () => {
    const port = await deadPort();
    const wb = await connect({ baseUrl: `http://127.0.0.1:${port}`, apiKey: "demo-full-access" });
    const { error, seconds, requests } = await timedFailure(wb, () => wb.data.eqDailyOhlc({ maxRows: 5 }));
    console.log(`wrong port: ${seconds.toFixed(2)} s, ${requests} request(s) before ${error.name}`);
    expect(error).toBeInstanceOf(ServiceUnreachableError);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toContain(`http://127.0.0.1:${port}/api/v1/account/my`);
    expect(error.message).toMatch(/connection refused: nothing listens at 127\.0\.0\.1:\d+\. Is the port right/);
    expect(requests).toBe(1);
    expect(seconds).toBeLessThan(2);
  });

  it("a host name that does not resolve raises at once", async () => {
    const wb = await connect({ baseUrl: "http://no-such-host.invalid:8000", apiKey: "demo-full-access" });
    const { error, requests } = await timedFailure(wb, () => wb.account.identity());
    expect(error).toBeInstanceOf(ServiceUnreachableError);
    expect(error.message).toMatch(/no-such-host\.invalid:8000 does not resolve \(DNS\)/);
    expect(requests).toBe(1);
  });

  it("another web server (404 as HTML) is not taken for the service", async () => {
    const other = await serve((_req, res) =>
      res.writeHead(404, { "Content-Type": "text/html" }).end("<html><body>Not Found</body></html>")
    );
    try {
      const wb = await connect({ baseUrl: other.baseUrl, apiKey: "demo-full-access" });
      const { error, requests } = await timedFailure(wb, () => wb.account.quotas());
      expect(error).toBeInstanceOf(NotTheServiceError);
      expect(error.message).toContain(
        `${other.baseUrl}/api/v1/account/my/quotas is not from a Datasets Service: HTTP 404 (text/html) without a JSON detail, starting '<html><body>Not Found`,
      );
      expect(requests).toBe(1);
    } finally {
      other.server.close();
    }
  });

  it("a success of the wrong content type is refused, for metadata and for data pages", async () => {
    const html = await serve((_req, res) => res.writeHead(200, { "Content-Type": "text/html" }).end("<html>login</html>"));
    const proxy = await startRewritingProxy(sb.baseUrl, { "/api/v1/data/": { headers: (h) => h.set("Content-Type", "text/plain") } });
    try {
      const wb = await connect({ baseUrl: html.baseUrl, apiKey: "demo-full-access" });
      const first = await timedFailure(wb, () => wb.meta.datasets());
      expect(first.error).toBeInstanceOf(NotTheServiceError);
      expect(first.error.message).toMatch(/HTTP 200 with content type 'text\/html' where application\/json was expected/);
      const viaProxy = await connect({ baseUrl: proxy.baseUrl, apiKey: "demo-full-access" });
      const data = await timedFailure(viaProxy, () => viaProxy.data.eqDailyOhlc({ maxRows: 5 }));
      expect(data.error).toBeInstanceOf(NotTheServiceError);
      expect(data.error.message).toMatch(/eq-daily-ohlc.*content type 'text\/plain' where text\/csv was expected/);
    } finally {
      html.server.close();
      await proxy.stop();
    }
  });
});

describe("transient failures keep their retries", () => {
  it("a reset connection and a 503 page from a proxy are retried until the service answers", async () => {
    let calls = 0;
    const flaky = await serve(async (req, res) => {
      calls++;
      if (calls === 1) return req.socket.destroy();
      if (calls === 2) return res.writeHead(503, { "Content-Type": "text/html", "Retry-After": "0" }).end("<html>busy</html>");
      const upstream = await fetch(`${sb.baseUrl}${req.url}`, { headers: { "X-API-KEY": String(req.headers["x-api-key"]) } });
      res.writeHead(upstream.status, { "Content-Type": upstream.headers.get("Content-Type")! }).end(
        Buffer.from(await upstream.arrayBuffer()),
      );
    });
    try {
      const wb = await connect({ baseUrl: flaky.baseUrl, apiKey: "demo-full-access" });
      const me = await wb.account.identity();
      expect(me.name).toBe("Demo full access");
      expect(wb.transport.requestsSent).toBe(3);
    } finally {
      flaky.server.close();
    }
  });
});
