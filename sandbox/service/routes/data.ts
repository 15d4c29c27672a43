/**
 * GET /api/v1/data/{asset_class}/{dataset}[/{path parameters}]: one page of a dataset.
 * Order of checks: dataset and entitlement (404/403), query validation (422), the access
 * rule's window and universe (422/403), quotas (429), execution (504 past the budget). Usage
 * is counted when the answer is committed, just before it is sent: a refused or failed request
 * (4xx, 5xx, a dropped connection by fault injection) spends nothing. HEAD answers the
 * headers a GET would (status, content type, quota headers) without running the query, and
 * spends nothing.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import type { Env } from "../context.ts";
import { entitledDataset } from "../entitlements.ts";
import { datasetNotFound, HttpError } from "../errors.ts";
import { applyAccessRule } from "../query/entitlement.ts";
import { executePage } from "../query/execute.ts";
import { parseDataQuery } from "../query/parse.ts";
import { CONTENT_TYPES, renderPage } from "../query/render.ts";
import { getAccessRules } from "../state/accounts.ts";
import { admitRequest, checkQuota, commitRequest, releaseRequest } from "../state/usage.ts";

/** The raw query string's parameters, each occurrence kept. */
function queryParams(url: string): URLSearchParams {
  const q = url.indexOf("?");
  return new URLSearchParams(q < 0 ? "" : url.slice(q + 1));
}

function nextLink(url: string, nextOffset: number): string {
  const u = new URL(url);
  u.searchParams.set("offset", String(nextOffset));
  return `<${u.pathname}${u.search}>; rel="next"`;
}

async function serveData(c: Context<Env>): Promise<Response> {
  const { db, market, now } = c.get("services");
  const settings = c.get("settings");
  const identity = c.get("identity");
  const assetClass = c.req.param("assetClass")!;
  const textId = c.req.param("dataset")!;
  const rest = (c.req.param("rest") ?? "").split("/").filter((s) => s !== "");
  const { dataset, rule } = entitledDataset(market, getAccessRules(db, identity.identity_id), textId, settings);
  if (dataset.assetClass !== assetClass || rest.length !== dataset.pathParams.length) {
    if (rest.length < dataset.pathParams.length && dataset.assetClass === assetClass) {
      const missing = dataset.pathParams.slice(rest.length).map((p) => p.name);
      throw new HttpError(404, `Path of dataset '${textId}' is incomplete: missing ${missing.join(", ")} (expected /api/v1/data/${dataset.assetClass}/${textId}${dataset.pathParams.map((p) => `/{${p.name}}`).join("")})`);
    }
    throw datasetNotFound(textId);
  }
  // Hono's param() has already percent-decoded once (leaving bad escapes as they are): a second
  // decode would turn `%2541` into `A` and throw on a literal `%`.
  const pathValues = Object.fromEntries(dataset.pathParams.map((p, i) => [p.name, rest[i]]));
  const query = parseDataQuery(dataset, pathValues, queryParams(c.req.url));
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
  let page, rendered;
  try {
    page = await executePage(market.files.get(dataset.textId) ?? [], dataset, query, constraints, settings.queryBudgetMs);
    rendered = renderPage(page.frame, dataset, query.format, { offset: query.offset, limit: query.limit, next_offset: page.nextOffset });
  } catch (e) {
    releaseRequest(db, admission);
    throw e;
  }
  const headers: Record<string, string> = {
    "Content-Type": rendered.contentType,
    "X-Pagination-Offset": String(query.offset),
    "X-Pagination-Limit": String(query.limit),
    "X-Pagination-Next-Offset": page.nextOffset === null ? "" : String(page.nextOffset),
    ...commitRequest(db, admission, page.bytesScanned, rendered.body.byteLength, now()),
    ...rendered.headers,
  };
  if (page.nextOffset !== null) headers.Link = nextLink(c.req.url, page.nextOffset);
  return c.body(rendered.body as unknown as ArrayBuffer, 200, headers);
}

export const dataRoutes = new Hono<Env>()
  .get("/:assetClass/:dataset", serveData)
  .get("/:assetClass/:dataset/:rest{.+}", serveData);
