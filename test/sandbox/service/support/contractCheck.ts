/**
 * The contract check run over the whole sandbox test suite: every response a test receives
 * from a test sandbox (through support/sandbox.ts or rawGet) is checked against that
 * sandbox's own /openapi.json: its path, method and status must be documented (HEAD by the
 * path's GET; an answer to any other method, such as a 405, by that method's operation), its
 * content type listed, and a JSON body must validate (ajv, JSON Schema draft 2020-12, with
 * formats) against the documented schema. Failures are collected and reported when the sandbox
 * stops, which fails the test file.
 *
 * @example
 * ```ts
 * const check = await ContractCheck.load(baseUrl);
 * check.record("GET", "/api/v1/account/my", 200, "application/json", body);
 * await check.failures(); // [] when every answer matched the document
 * ```
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

// ajv-formats is CommonJS: under some loaders its function is the default's default.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => void;

type Json = Record<string, unknown>;
type Response = { content?: Record<string, { schema: Json }> } | { $ref: string };
interface PathItem {
  pattern: RegExp;
  template: string;
  /** Each documented method's answers by status, methods in lower case. */
  methods: Record<string, Record<string, Response>>;
}

/** Methods an OpenAPI path item can describe: an answer to any other (CONNECT) cannot be checked. */
const DESCRIBABLE = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

const checks = new Map<string, ContractCheck>();

/**
 * One document's compiled validators. Every test sandbox serves the same document, and
 * compiling its schemas is the costly part of a check: sandboxes of one test process share them.
 */
class Validators {
  readonly ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  readonly #compiled = new Map<string, ValidateFunction>();

  constructor(components: unknown) {
    addFormats(this.ajv);
    // Refs are `#/components/schemas/X`: the document's components, added under an id of their own.
    this.ajv.addSchema({ $id: "openapi", components }, "openapi");
  }

  /** The validator of one answer's schema (`key` names the operation and status), compiled once. */
  of(key: string, schema: Json): ValidateFunction {
    let validate = this.#compiled.get(key);
    if (!validate) this.#compiled.set(key, validate = this.ajv.compile(toOpenApiRefs(schema)));
    return validate;
  }
}
const validatorsByDocument = new Map<string, Validators>();

export class ContractCheck {
  readonly #validators: Validators;
  readonly #paths: PathItem[];
  readonly #failures: string[] = [];
  #checked = 0;

  private constructor(readonly document: Json) {
    // Keyed by what the schemas come from (a document's servers may name its own address).
    const key = JSON.stringify([document.paths, document.components]);
    let validators = validatorsByDocument.get(key);
    if (!validators) validatorsByDocument.set(key, validators = new Validators(document.components));
    this.#validators = validators;
    const paths = document.paths as Record<string, Record<string, { responses: Record<string, Response> }>>;
    this.#paths = Object.entries(paths).map(([template, item]) => ({
      template,
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`),
      methods: Object.fromEntries(Object.entries(item).map(([method, operation]) => [method, operation.responses])),
    }));
  }

  /**
   * The check of the sandbox at `baseUrl`, with its document; `register`: the one rawGet
   * records into; `fetcher`: how to reach it (an in-process sandbox's own `fetch`).
   */
  static async load(baseUrl: string, register = true, fetcher: typeof fetch = fetch): Promise<ContractCheck> {
    const check = new ContractCheck(await (await fetcher(`${baseUrl}/openapi.json`)).json());
    if (register) checks.set(baseUrl, check);
    return check;
  }

  /** The check of a running test sandbox, if any (rawGet records through this). */
  static of(baseUrl: string): ContractCheck | undefined {
    return checks.get(baseUrl);
  }

  /**
   * Records an answer a test received, reading a copy of its body only when the check reads
   * it (JSON): another media type is checked by its type alone, so a data page in CSV or
   * csv_gzip is neither copied nor decoded as text. Resolves once recorded.
   */
  recordAnswer(method: string, target: string, response: globalThis.Response): Promise<void> {
    const contentType = response.headers.get("Content-Type");
    if (mediaType(contentType) !== "application/json") {
      this.record(method, target, response.status, contentType, "");
      return Promise.resolve();
    }
    const copy = response.clone();
    return copy.text().then((body) => this.record(method, target, copy.status, contentType, body), () => {});
  }

  /** Checks one response (`body` as text, read only for JSON; undefined for HEAD). */
  record(method: string, target: string, status: number, contentType: string | null, body: string | undefined): void {
    const verb = method.toLowerCase();
    if (!DESCRIBABLE.has(verb)) return;
    const path = target.split("?")[0];
    const item = this.#paths.find((o) => o.pattern.test(path));
    if (!item) return; // not a documented route (a 404 of an unknown path, /openapi.json)
    this.#checked++;
    const where = `${method} ${target.slice(0, 200)} -> ${status}`;
    const responses = item.methods[verb] ?? (verb === "head" ? item.methods.get : undefined);
    if (!responses) return void this.#failures.push(`${where}: method ${method} is not documented for ${item.template}`);
    const response = this.#resolve(responses[String(status)]);
    if (!response) return void this.#failures.push(`${where}: status ${status} is not documented for ${method} ${item.template}`);
    if (body === undefined || !response.content) return;
    const type = mediaType(contentType);
    const media = response.content[type];
    if (!media) {
      return void this.#failures.push(`${where}: content type '${type}' is not documented (${Object.keys(response.content).join(", ")})`);
    }
    if (type !== "application/json") return;
    const validate = this.#validators.of(`${verb} ${item.template} ${status}`, media.schema);
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return void this.#failures.push(`${where}: body is not JSON: ${body.slice(0, 100)}`);
    }
    if (!validate(value)) this.#failures.push(`${where}: ${this.#validators.ajv.errorsText(validate.errors?.slice(0, 3))}`);
  }

  /** A documented answer, its `#/components/responses/X` reference followed. */
  #resolve(response: Response | undefined): { content?: Record<string, { schema: Json }> } | undefined {
    if (!response || !("$ref" in response)) return response;
    const name = response.$ref.replace("#/components/responses/", "");
    return (this.document.components as { responses?: Record<string, Response> }).responses?.[name] as {
      content?: Record<string, { schema: Json }>;
    } | undefined;
  }

  /** How many responses were checked, and what did not match. */
  report(): { checked: number; failures: string[] } {
    return { checked: this.#checked, failures: this.#failures };
  }

  forget(baseUrl: string): void {
    checks.delete(baseUrl);
  }
}

/** A Content-Type's media type, without its parameters (`text/csv; charset=utf-8` is `text/csv`). */
function mediaType(contentType: string | null): string {
  return (contentType ?? "").split(";")[0].trim();
}

/** Points `#/components/...` references at the components schema registered as `openapi`. */
function toOpenApiRefs(value: unknown): Json {
  return JSON.parse(JSON.stringify(value).replaceAll('"$ref":"#/components/', '"$ref":"openapi#/components/'));
}
