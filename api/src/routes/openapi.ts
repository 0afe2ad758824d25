/**
 * The OpenAPI 3.1 document, derived from the route table (routes/index.ts): each route's method,
 * documented path, auth, request and response zod schemas, statuses and summary. Schemas become
 * JSON Schema through zod 4's native `z.toJSONSchema` (draft 2020-12 = OpenAPI 3.1's dialect).
 */
import { z } from "zod";
import { errorResponseSchema } from "@storefront/shared";
import { SESSION_COOKIE } from "../middleware/session";
import { isRawResponse, permissionsOf, TAGS, type Route } from "./define";

type JsonSchema = Record<string, unknown>;

const ERROR_TEXT: Record<number, string> = {
  400: "Bad input; `field` names the offending field",
  401: "Not logged in (or bad webhook signature / metrics token)",
  402: "Insufficient coins; `available` and `needed` carry the figures",
  403: "Logged in but not allowed (another user's id, a role without the permission, an inactive account)",
  404: "Not found (or not the caller's own)",
  409: "Conflict (phone already registered, package already assigned...)",
  413: "Upload too large",
  416: "The requested byte range cannot be served",
  429: "Rate limited; retry after the Retry-After header",
  503: "A dependency is unavailable",
  504: "The job did not finish within JOB_WAIT_TIMEOUT_MS; it still completes or is refunded",
};

/** Response schemas describe what is sent at least; extra fields may be added later. */
function loosen(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(loosen);
  if (!schema || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "additionalProperties" && value === false) continue;
    out[key] = loosen(value);
  }
  return out;
}

function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...out } = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    target: "draft-2020-12",
  }) as JsonSchema;
  return (io === "output" ? loosen(out) : out) as JsonSchema;
}

function queryParameters(schema: JsonSchema): JsonSchema[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: "query",
    required: required.has(name),
    schema: property,
  }));
}

function security(route: Route): JsonSchema[] | undefined {
  switch (route.auth) {
    case "user":
    case "admin":
      return [{ session: [] }];
    case "webhook":
      return [{ webhookSignature: [], webhookTimestamp: [] }, { webhookToken: [] }];
    case "metrics":
      return [{ metricsToken: [] }, { session: [] }];
    default:
      return undefined;
  }
}

/** Express's `:name` parameters as OpenAPI's `{name}`. */
function openApiPath(path: string): { path: string; params: string[] } {
  const params: string[] = [];
  const converted = path.replace(/:([A-Za-z0-9_]+)/gu, (_m, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path: converted, params };
}

function operationObject(route: Route, path: string, params: string[]): JsonSchema {
  const operation: JsonSchema = {
    tags: [route.tag],
    summary: route.summary,
    operationId: `${route.method}${path.replace(/\.php$/u, "").replace(/[^A-Za-z0-9]+(.)?/gu, (_m, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
  };
  const notes: string[] = [];
  if (route.description) notes.push(route.description);
  if (route.permission)
    notes.push(
      `Admin permission: ${permissionsOf(route)
        .map((p) => `\`${p}\``)
        .join(" and ")}.`,
    );
  const aliases = route.paths.filter((p) => p !== path);
  if (aliases.length) notes.push(`Also served at ${aliases.map((p) => `\`${p}\``).join(", ")}.`);
  if (route.kind === "raw" && route.prefix) notes.push("Serves every path under this prefix.");
  if (notes.length) operation.description = notes.join("\n\n");

  const parameters: JsonSchema[] = params.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } }));
  if (route.query) parameters.push(...queryParameters(jsonSchema(route.query, "input")));
  if (parameters.length) operation.parameters = parameters;

  if (route.body) {
    const schema = jsonSchema(route.body, "input");
    const upload = route.kind === "json" ? route.upload : undefined;
    if (upload) {
      const properties = {
        ...((schema.properties ?? {}) as Record<string, JsonSchema>),
        [upload.field]: { type: "string", contentMediaType: "application/octet-stream" },
      };
      operation.requestBody = { required: true, content: { "multipart/form-data": { schema: { ...schema, properties } } } };
    } else {
      const content: JsonSchema = { "application/json": { schema } };
      if (route.auth === "webhook") content["application/x-www-form-urlencoded"] = { schema };
      operation.requestBody = { required: true, content };
    }
  }

  const responses: Record<string, JsonSchema> = {};
  const success = String(route.status ?? 200);
  if (isRawResponse(route.response)) {
    responses[success] = {
      description: route.response.description,
      content: { [route.response.contentType]: { schema: { type: "string" } } },
    };
  } else {
    responses[success] = {
      description: "Success",
      content: { "application/json": { schema: jsonSchema(route.response, "output") } },
    };
  }
  const errors = new Set(route.errors);
  if (route.auth === "user" || route.auth === "admin" || route.auth === "metrics" || route.auth === "webhook") errors.add(401);
  if ((route.auth === "admin" && route.permission) || route.auth === "metrics") errors.add(403);
  for (const status of [...errors].sort()) responses[String(status)] = { $ref: `#/components/responses/E${status}` };
  operation.responses = responses;
  const auth = security(route);
  if (auth) operation.security = auth;
  return operation;
}

/** The paths listed in the document: the first, and every other documented `.php` name. */
export function documentedPaths(route: Route): string[] {
  return route.paths.filter((path, i) => i === 0 || path.endsWith(".php"));
}

export interface OpenApiOptions {
  version?: string;
  serverUrl?: string;
}

/** The whole OpenAPI 3.1 document of `routes`; paths are under /api (the server URL). */
export function buildOpenApiDocument(routes: readonly Route[], options: OpenApiOptions = {}): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    // Every documented SPEC path (`.php`) is listed; clean aliases are named in the description.
    for (const documented of documentedPaths(route)) {
      const { path, params } = openApiPath(documented);
      const item = (paths[path] ??= {});
      if (item[route.method]) throw new Error(`two routes for ${route.method.toUpperCase()} ${path}`);
      item[route.method] = operationObject(route, path, params);
    }
  }

  const errorSchema = jsonSchema(errorResponseSchema, "output");
  const errorBody = {
    ...errorSchema,
    properties: {
      ...((errorSchema.properties ?? {}) as Record<string, JsonSchema>),
      available: { type: "integer", description: "402 only: coins the wallet holds" },
      needed: { type: "integer", description: "402 only: coins the call costs" },
    },
  };
  const responses = Object.fromEntries(
    Object.entries(ERROR_TEXT).map(([status, description]) => [
      `E${status}`,
      { description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
    ]),
  );

  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "AI storefront API",
      version: options.version ?? "1.0.0",
      description:
        "Every call of the storefront, generated from the API's route table (api/src/routes) and the zod schemas the server " +
        "validates with (shared/src/schemas). Paths keep their documented `.php` names; clean aliases are noted per call. " +
        "Errors are JSON `{success: false, error, code}`; 400 names the field. Pushes (Socket.IO events) are documented in docs/.",
    },
    servers: [{ url: options.serverUrl ?? "/api" }],
    tags: Object.values(TAGS).map((name) => ({ name })),
    paths,
    components: {
      schemas: { Error: errorBody },
      responses,
      securitySchemes: {
        session: { type: "apiKey", in: "cookie", name: SESSION_COOKIE, description: "Session cookie set by login (httpOnly)" },
        webhookSignature: {
          type: "apiKey",
          in: "header",
          name: "X-Signature",
          description:
            "hex HMAC-SHA256 of `<X-Signature-Timestamp>.<raw body>` with the webhook secret, optionally `sha256=` prefixed",
        },
        webhookTimestamp: {
          type: "apiKey",
          in: "header",
          name: "X-Signature-Timestamp",
          description: "Unix seconds; ±5 minutes",
        },
        webhookToken: {
          type: "apiKey",
          in: "query",
          name: "token",
          description: "The webhook secret, for gateways that cannot sign",
        },
        metricsToken: { type: "http", scheme: "bearer", description: "METRICS_TOKEN" },
      },
    },
  };
}
