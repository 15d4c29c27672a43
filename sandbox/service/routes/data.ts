/**
 * GET /api/v1/data/{asset_class}/{dataset}[/{path parameters}]: one page of a dataset, one
 * route per dataset (described in api/routes.ts, which validates its parameters). Order of
 * checks: dataset and entitlement (404/403), the request target's length (422,
 * query/limits.ts), parameter names (422), parameter values (422, from the route's schema),
 * the access rule's window and universe (422/403), quotas (429), execution (504 past the
 * budget or the memory ceiling; stopped when the client goes away).
 * Usage is counted when the answer is committed, just before it is sent, and a page that does
 * not fit in what is left of the monthly returned-bytes quota is cut to the rows that do (429
 * when none does): a refused or failed request (4xx, 5xx, a connection dropped by fault
 * injection) spends nothing. HEAD answers the headers a GET would (status, content type,
 * quota headers) without running the query, and spends nothing.
 */
import { Buffer } from "node:buffer";
import type { DatabaseSync } from "node:sqlite";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import type { Dataset } from "../../market/catalog.ts";
import { dataRoute } from "../api/routes.ts";
import type { Env, Market } from "../context.ts";
import { entitledDataset } from "../entitlements.ts";
import { datasetNotFound, HttpError, validationError } from "../errors.ts";
import { applyAccessRule } from "../query/entitlement.ts";
import { type AnsweredPage, answerPage, pageWithin } from "../query/answer.ts";
import { QueryControl } from "../query/control.ts";
import { requestTargetIssue } from "../query/limits.ts";
import { checkParameterNames, toDataQuery } from "../query/parse.ts";
import { CONTENT_TYPES } from "../query/render.ts";
import type { FilterValue } from "../query/values.ts";
import { getAccessRules } from "../state/accounts.ts";
import {
  type Admission,
  admitRequest,
  checkQuota,
  commitRequest,
  releaseRequest,
  returnedBytesLeft,
  returnedBytesRefusal,
} from "../state/usage.ts";

/** The raw query string's parameters, each occurrence kept. */
export function queryParams(url: string): URLSearchParams {
  const q = url.indexOf("?");
  return new URLSearchParams(q < 0 ? "" : url.slice(q + 1));
}

/**
 * Bodies from this size up are handed to the server as a stream of the chunks Polars wrote
 * them in, with their Content-Length. `new Response(bytes)` copies the bytes (the Fetch
 * standard makes a body a copy of its source, and Deno does), and so would joining the chunks;
 * a copy of megabytes into fresh pages costs the server several times what sending them as
 * they are does (figures: bench/RESULTS.md, "sandbox CPU per pull"). The length keeps the
 * answer framed as before (not chunked). Smaller bodies stay bytes: a copy of a few kilobytes
 * costs less than a stream.
 */
const STREAMED_FROM_BYTES = 64 * 1024;

/** The body of an answer written in `chunks` (see Rendered), and the headers it needs. */
function answerBody({ chunks, byteLength }: { chunks: Uint8Array[]; byteLength: number }, headers: Record<string, string>): BodyInit {
  if (byteLength < STREAMED_FROM_BYTES) return (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)) as Uint8Array<ArrayBuffer>;
  headers["Content-Length"] = String(byteLength);
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

function nextLink(url: string, nextOffset: number): string {
  const u = new URL(url);
  u.searchParams.set("offset", String(nextOffset));
  return `<${u.pathname}${u.search}>; rel="next"`;
}

/** Runs before validation: the dataset must be entitled (404/403 first), then the names must be its columns. */
const entitledNames = (dataset: Dataset): MiddlewareHandler<Env> => async (c, next) => {
  const { db, market } = c.get("services");
  entitledDataset(market, getAccessRules(db, c.get("identity").identity_id), dataset.textId, c.get("settings"));
  // An encoded '/' in a path value (`..%2F..%2Feq-taq`) makes more segments than the dataset has: not its path.
  if (dataset.pathParams.some((p) => c.req.param(p.name)?.includes("/"))) throw datasetNotFound(dataset.textId);
  const tooLong = requestTargetIssue(c.req.url);
  if (tooLong) throw validationError(tooLong);
  c.set("nameIssues", checkParameterNames(dataset, queryParams(c.req.url)));
  await next();
};

async function serveData(c: Context<Env>, dataset: Dataset): Promise<Response> {
  const { db, market, now } = c.get("services");
  const settings = c.get("settings");
  const identity = c.get("identity");
  const { rule } = entitledDataset(market, getAccessRules(db, identity.identity_id), dataset.textId, settings);
  const valid = c.req as unknown as { valid(target: "query" | "param"): Record<string, unknown> };
  const path = (dataset.pathParams.length > 0 ? valid.valid("param") : {}) as Record<string, FilterValue[][]>;
  const query = toDataQuery(dataset, valid.valid("query"), path);
  const constraints = applyAccessRule(dataset, rule, query);
  if (c.req.method === "HEAD") {
    return c.body(null, 200, {
      "Content-Type": CONTENT_TYPES[query.format],
      "X-Pagination-Offset": String(query.offset),
      "X-Pagination-Limit": String(query.limit),
      ...checkQuota(db, identity.team_id, now()),
    });
  }
  const admission = admitRequest(db, identity.team_id, now());
  let page, quota;
  try {
    // The request's signal is aborted when its client goes away: the query stops then too.
    const control = new QueryControl(settings.queryBudgetMs, settings.queryMemoryMb * 2 ** 20, () => c.req.raw.signal);
    ({ page, quota } = commitWithinQuota(
      db,
      admission,
      await answerPage(market.files.get(dataset.textId) ?? [], dataset, query, constraints, control),
      now,
    ));
  } catch (e) {
    releaseRequest(db, admission);
    throw e;
  }
  const headers: Record<string, string> = {
    "Content-Type": page.rendered.contentType,
    "X-Pagination-Offset": String(query.offset),
    "X-Pagination-Limit": String(query.limit),
    "X-Pagination-Next-Offset": page.nextOffset === null ? "" : String(page.nextOffset),
    ...quota,
    ...page.rendered.headers,
  };
  if (page.nextOffset !== null) headers.Link = nextLink(c.req.url, page.nextOffset);
  // A Response built here, with its headers as a list, costs a fifth of what c.body() does with
  // twenty headers; it carries the request id itself, so no middleware needs to copy it.
  headers["X-Request-ID"] = c.get("requestId");
  const body = answerBody(page.rendered, headers);
  return new Response(body, { status: 200, headers: Object.entries(headers) });
}

/** Tries of fitting a page to the returned-bytes quota while other answers are counted meanwhile. */
const FIT_TRIES = 3;

/**
 * Counts the answer of `admission` with `page`, or with the first rows of it that fit in what
 * is left of the monthly returned-bytes quota (the client asks for the rest from the page's
 * next offset): no page is served past the quota. 429 when not even one row fits.
 */
function commitWithinQuota(
  db: DatabaseSync,
  admission: Admission,
  page: AnsweredPage,
  now: () => Date,
): { page: AnsweredPage; quota: Record<string, string> } {
  for (let attempt = 0; attempt < FIT_TRIES; attempt++) {
    // What was left at admission first, which asks the state nothing more; the commit checks again.
    const fitted = pageWithin(page, attempt === 0 ? admission.returnedLeftAtAdmission : returnedBytesLeft(db, admission));
    if (fitted === undefined) break;
    const quota = commitRequest(db, admission, fitted.bytesScanned, fitted.rendered.byteLength, now());
    if (quota !== undefined) return { page: fitted, quota };
  }
  throw returnedBytesRefusal(db, admission, page.rows === 0 ? page.rendered.byteLength : page.firstRows(1).rendered.byteLength, now());
}

/** Any other data path: 404 (after entitlement, so an unentitled dataset is never described). */
function notADataPath(c: Context<Env>): never {
  const { db, market } = c.get("services");
  const assetClass = c.req.param("assetClass")!;
  const textId = c.req.param("dataset")!;
  const rest = (c.req.param("rest") ?? "").split("/").filter((s) => s !== "");
  const { dataset } = entitledDataset(market, getAccessRules(db, c.get("identity").identity_id), textId, c.get("settings"));
  if (dataset.assetClass === assetClass && rest.length < dataset.pathParams.length) {
    const missing = dataset.pathParams.slice(rest.length).map((p) => p.name);
    throw new HttpError(
      404,
      `Path of dataset '${textId}' is incomplete: missing ${missing.join(", ")} (expected /api/v1/data/${dataset.assetClass}/${textId}${
        dataset.pathParams.map((p) => `/{${p.name}}`).join("")
      })`,
    );
  }
  throw datasetNotFound(textId);
}

/** Registers each dataset's route, then the 404 of every other data path. */
export function registerDataRoutes(app: OpenAPIHono<Env>, market: Market): void {
  for (const dataset of market.datasets) {
    const route = { ...dataRoute(dataset), middleware: [entitledNames(dataset)] };
    app.openapi(route, ((c: Context<Env>) => serveData(c, dataset)) as never);
  }
  app.get("/api/v1/data/:assetClass/:dataset", notADataPath);
  app.get("/api/v1/data/:assetClass/:dataset/:rest{.+}", notADataPath);
}
