/**
 * The Datasets Service as a Hono app: cross-cutting concerns as middleware (request id,
 * settings, maintenance, authentication, IP allow-list, fault injection), thin routes, and one
 * error handler that shapes every failure as the spec's JSON `detail`.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { Hono } from "hono";
import type { Dataset } from "../market/catalog.ts";
import type { Env, Services } from "./context.ts";
import { fastApiIssues } from "./api/params.ts";
import { ACCOUNT_ROUTES, dataRoute, META_ROUTES, METHOD_NOT_ALLOWED, OTHER_METHODS } from "./api/routes.ts";
import { openApiDocument } from "./api/document.ts";
import { HttpError, validationError } from "./errors.ts";
import { auth } from "./middleware/auth.ts";
import { faults } from "./middleware/faults.ts";
import { ipAllowList } from "./middleware/ipAllowList.ts";
import { maintenance } from "./middleware/maintenance.ts";
import { requestId } from "./middleware/requestId.ts";
import { registerAccountRoutes } from "./routes/account.ts";
import { queryParams, registerDataRoutes } from "./routes/data.ts";
import { inQueryOrder } from "./query/parse.ts";
import { registerMetaRoutes } from "./routes/meta.ts";
import { readSettings } from "./state/settings.ts";

/** The documents made so far, by the datasets they describe (their text ids, in order). */
const documents = new Map<string, object>();

/**
 * /openapi.json for a market of these datasets: made on its first request, not at start (most
 * sandboxes, a test's or a notebook's, are never asked for it), and once per process for any
 * number of apps over the same datasets.
 */
function serviceDocument(datasets: readonly Dataset[]): object {
  const key = datasets.map((d) => d.textId).join(",");
  let document = documents.get(key);
  if (document === undefined) {
    document = openApiDocument([...Object.values(ACCOUNT_ROUTES), ...Object.values(META_ROUTES), ...datasets.map(dataRoute)], {
      methods: OTHER_METHODS,
      response: METHOD_NOT_ALLOWED,
    });
    documents.set(key, document);
  }
  return document;
}

export function createApp(services: Services): Hono<Env> {
  // Parameters are validated by the routes' zod schemas; a failure is the FastAPI 422 body.
  // Problems with parameter names (found before validation) are reported with those of values.
  const app = new OpenAPIHono<Env>({
    defaultHook: (result, c) => {
      const names = result.target === "query" ? c.get("nameIssues") ?? [] : [];
      // A parameter given twice arrives as a list: its name issue says so, its values are not checked.
      const repeated = new Set(names.map((i) => String(i.loc[1])));
      const values = result.success
        ? []
        : fastApiIssues(result.error, result.target === "param" ? "path" : "query").filter((i) => !repeated.has(String(i.loc[1])));
      if (names.length + values.length > 0) throw validationError(...inQueryOrder([...names, ...values], queryParams(c.req.url)));
    },
  });
  app.use("*", requestId);
  app.use("*", async (c, next) => {
    c.set("services", services);
    c.set("settings", { ...readSettings(services.db), ...services.runSettings });
    const started = performance.now();
    await next();
    // One access-log line; never the key, never the query values beyond the path.
    services.log(
      `${c.req.method} ${new URL(c.req.url).pathname} ${c.res.status} ${(performance.now() - started).toFixed(1)}ms rid=${
        c.get("requestId")
      }`,
    );
  });
  // Every route is read-only: any other method on a route is 405 naming the allowed ones (as
  // FastAPI answers), before authentication, like routing.
  app.on([...OTHER_METHODS], ["/openapi.json", "/api/v1/account/*", "/api/v1/meta/*", "/api/v1/data/*"], (c) => {
    c.header("Allow", "GET, HEAD");
    return c.json({ detail: "Method Not Allowed" }, 405);
  });
  app.get("/openapi.json", (c) => c.json(serviceDocument(services.market.datasets)));
  app.use("/api/*", maintenance, auth, ipAllowList);
  app.use("/api/v1/data/*", faults);
  registerAccountRoutes(app);
  registerMetaRoutes(app);
  registerDataRoutes(app, services.market);
  app.notFound((c) => c.json({ detail: "Not Found" }, 404));
  app.onError((error, c) => {
    if (error instanceof HttpError) {
      for (const [k, v] of Object.entries(error.headers)) c.header(k, v);
      return c.json({ detail: error.detail }, error.status as 400);
    }
    // A bug of ours: say so honestly (tests and the fuzzer look for any 5xx), log the reason
    // (errors here come from the engine, never from headers, so no key can be in them).
    services.log(`error rid=${c.get("requestId")}: ${(error as Error).stack ?? error}`);
    return c.json({ detail: "Internal server error" }, 500);
  });
  return app;
}
