/**
 * One definition per API call: method, paths, who may call it, what it reads, what it answers
 * and the handler. The Express router (mount.ts) and the OpenAPI document (openapi.ts) are both
 * derived from these definitions, so the docs cannot drift from what the server does.
 */
import type { Request, RequestHandler, Response } from "express";
// req.id and req.log (the request log's typing), also when the table is imported outside the app.
import type {} from "../middleware/request-log";
import type { z } from "zod";
import { UNPAID_VALUE, VALUE_PERMISSION, type AdminPermission, type UnpaidValue } from "@storefront/shared";
import type { AppContext } from "../context";

export type Method = "get" | "post" | "put" | "delete";

/**
 * Who may call: anyone, a logged-in subscriber, an administrator (with `permission` when set),
 * the SMS gateway (signed; the handler verifies it) or Prometheus (Bearer METRICS_TOKEN, or an
 * admin with stats:view).
 */
export type AuthKind = "none" | "user" | "admin" | "webhook" | "metrics";

export const TAGS = {
  account: "Accounts and session",
  wallet: "Wallet",
  chat: "Text AI, Doctor and conversations",
  images: "Images",
  videos: "Video",
  sms: "SMS",
  admin: "Administrator",
  ops: "Operations",
} as const;
export type Tag = (typeof TAGS)[keyof typeof TAGS];

/** A non-JSON answer (a file, text, HTML), described by its content type. */
export interface RawResponse {
  contentType: string;
  description: string;
}

/** A multipart upload of one file, held in memory; larger is refused with `tooLargeMessage` (413). */
export interface UploadField {
  field: string;
  maxBytes: number;
  tooLargeMessage: string;
}

interface RouteBase {
  method: Method;
  /** Under /api: the documented path first (SPEC §7's `.php` name), then its clean aliases. */
  paths: readonly [string, ...string[]];
  tag: Tag;
  summary: string;
  description?: string;
  auth: AuthKind;
  /** Admin permission(s) checked before anything else (auth "admin" only); a list needs every one. */
  permission?: AdminPermission | readonly AdminPermission[];
  /**
   * The way this call gives value without payment (shared/src/value-paths.ts): one that always
   * does adds coins:grant to `permission`; one that does on some changes leaves it to the service.
   */
  grants?: UnpaidValue | readonly UnpaidValue[];
  /** Success status; 200 unless set. The handler may still answer another 2xx (e.g. 200 for an update). */
  status?: number;
  /** Documented error statuses; 401 and 403 are added from `auth`. */
  errors: number[];
  /** The success body: a zod schema in shared/src/schemas, or a non-JSON content type. */
  response: z.ZodType | RawResponse;
  /** Extra middleware run after the auth check, before validation. */
  middleware?: RequestHandler[];
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/**
 * What a handler returns for its response R: the JSON body as the response schema reads it (its
 * input type), or undefined when the handler answered itself (a file, a redirect, a raw body).
 */
type Reply<R> = R extends z.ZodType ? z.input<R> | undefined : undefined;

export interface HandlerInput<B, Q> {
  body: Out<B>;
  query: Out<Q>;
  /** The uploaded file of `upload`, when one was sent. */
  file: Express.Multer.File | undefined;
  req: Request;
  res: Response;
  ctx: AppContext;
}

/**
 * A JSON call: the body/query are validated by their schemas; what the handler returns is sent as
 * JSON, and the compiler holds it to the response schema.
 */
export interface JsonRoute<
  B extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType | RawResponse = z.ZodType | RawResponse,
> extends RouteBase {
  kind: "json";
  body?: B;
  query?: Q;
  response: R;
  upload?: UploadField;
  /**
   * Returns the JSON body, or undefined when it answered itself (R is read from `response` alone).
   * A literal the handler writes (`success: true`) takes `as const`: TypeScript widens a literal
   * checked against a type still generic while the call is inferred.
   */
  handler(input: HandlerInput<B, Q>): Promise<Reply<NoInfer<R>>> | Reply<NoInfer<R>>;
}

/**
 * A call that answers itself (files, text, a whole sub-app, its own body parser). Its body/query
 * schemas are documentation and fuzz hints; the handler validates.
 */
export interface RawRoute extends RouteBase {
  kind: "raw";
  body?: z.ZodType;
  query?: z.ZodType;
  /** Built once per app. `table` is every route of the API (for the OpenAPI document). */
  raw(ctx: AppContext, table: readonly Route[]): RequestHandler;
  /** Mounted with router.use: serves every path under the prefix (static files, Bull Board). */
  prefix?: boolean;
  /** Reads its own body: mounted before the API's JSON parser and session (the signed webhook). */
  ownBody?: boolean;
}

export type Route = JsonRoute | RawRoute;

export function defineRoute<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  R extends z.ZodType | RawResponse = z.ZodType | RawResponse,
>(route: Omit<JsonRoute<B, Q, R>, "kind">): Route {
  return { kind: "json", ...route } as Route;
}

export function defineRawRoute(route: Omit<RawRoute, "kind">): Route {
  return { kind: "raw", ...route };
}

export function isRawResponse(response: Route["response"]): response is RawResponse {
  return typeof (response as RawResponse).contentType === "string";
}

/** The ways of giving unpaid value a route declares. */
export function grantsOf(route: Route): readonly UnpaidValue[] {
  if (!route.grants) return [];
  return typeof route.grants === "string" ? [route.grants] : route.grants;
}

/** The admin permissions a route needs (all of them). */
export function permissionsOf(route: Route): readonly AdminPermission[] {
  const own: readonly AdminPermission[] = !route.permission
    ? []
    : typeof route.permission === "string"
      ? [route.permission]
      : route.permission;
  const value = grantsOf(route).some((way) => UNPAID_VALUE[way].when === "always") ? [VALUE_PERMISSION] : [];
  return [...new Set([...own, ...value])];
}
