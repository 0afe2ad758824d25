/**
 * The OpenAPI 3.1 document of every SPEC §7 call, generated from the zod schemas that the API
 * validates with (zod 4's native JSON Schema output, draft 2020-12 = OpenAPI 3.1's dialect).
 *
 * Schemas are looked up by export name in the shared package, so a schema added or renamed shows
 * up here without a second copy. A call without an exported schema is described by a minimal
 * placeholder and marked `x-schema: "minimal"`; `missingSchemas()` lists them.
 */
import { z } from "zod";
import * as shared from "./index";

type Method = "get" | "post" | "put" | "delete";
type Auth = "none" | "user" | "admin" | "webhook" | "metrics";
type JsonSchema = Record<string, unknown>;

/** A schema named by the export names it may have (first found wins) and a fallback description. */
interface SchemaRef {
  names: string[];
  minimal: JsonSchema;
}

interface Operation {
  method: Method;
  /** Path under /api, as SPEC §7 documents it. */
  path: string;
  tag: string;
  summary: string;
  auth: Auth;
  /** Admin permission checked by the server (docs/permissions.md). */
  permission?: string;
  query?: SchemaRef;
  body?: SchemaRef;
  /** Multipart upload: the file fields are added to the body schema as binary strings. */
  multipartFiles?: string[];
  response?: SchemaRef;
  status?: number;
  errors: number[];
  description?: string;
}

const obj = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: "object",
  properties,
  ...(required.length ? { required } : {}),
});
const str: JsonSchema = { type: "string" };
const int: JsonSchema = { type: "integer" };
const bool: JsonSchema = { type: "boolean" };
const userIdQ = obj({ userId: str });
const ok = obj({ success: { type: "boolean", const: true } }, ["success"]);
const ref = (names: string | string[], minimal: JsonSchema = obj({})): SchemaRef => ({
  names: Array.isArray(names) ? names : [names],
  minimal,
});

const messageArray: JsonSchema = {
  type: "array",
  items: obj({ type: { type: "string", enum: ["user", "assistant"] }, content: str, timestamp: str }),
};

const TAGS = {
  account: "Accounts and session",
  wallet: "Wallet",
  chat: "Text AI, Doctor and conversations",
  images: "Images",
  videos: "Video",
  sms: "SMS",
  admin: "Administrator",
  ops: "Operations",
} as const;

/** Every documented call of SPEC §7 plus the webhook and the operations endpoints. */
export const OPERATIONS: Operation[] = [
  // Accounts
  {
    method: "post",
    path: "/login-session-fix.php",
    tag: TAGS.account,
    summary: "Log in with phone and password (regenerates the session)",
    auth: "none",
    body: ref("loginRequestSchema", obj({ phone: str, password: str }, ["phone", "password"])),
    response: ref("authResponseSchema"),
    errors: [400, 401, 403, 429],
  },
  {
    method: "get",
    path: "/session-check-simple.php",
    tag: TAGS.account,
    summary: "Whether the session is logged in, and as whom",
    auth: "none",
    response: ref("sessionCheckResponseSchema"),
    errors: [],
  },
  { method: "post", path: "/logout.php", tag: TAGS.account, summary: "Destroy the session", auth: "none", errors: [] },
  {
    method: "post",
    path: "/signup.php",
    tag: TAGS.account,
    summary: "Create a subscriber account and log in",
    auth: "none",
    body: ref("signupRequestSchema", obj({ phone: str, password: str }, ["phone", "password"])),
    response: ref("authResponseSchema"),
    status: 201,
    errors: [400, 409, 429],
  },
  {
    method: "get",
    path: "/user/profile.php",
    tag: TAGS.account,
    summary: "The session user's profile (?id= or ?userId= must be the session's own)",
    auth: "user",
    query: ref("profileQuerySchema", obj({ id: str, userId: str })),
    response: ref("profileSchema"),
    errors: [400, 401, 403, 404],
  },
  {
    method: "post",
    path: "/user/update-profile.php",
    tag: TAGS.account,
    summary: "Update display name and country, optionally upload an avatar (image, under 5 MB)",
    auth: "user",
    body: ref("updateProfileFieldsSchema", obj({ displayName: str, country: str })),
    multipartFiles: ["avatar"],
    response: ref("profileSchema"),
    errors: [400, 401, 403, 413],
  },
  // Wallet
  {
    method: "get",
    path: "/wallet/get.php",
    tag: TAGS.wallet,
    summary: "Coins and tier of the session user",
    auth: "user",
    query: ref("walletQuerySchema", userIdQ),
    response: ref("walletResponseSchema"),
    errors: [401, 403],
  },
  {
    method: "post",
    path: "/wallet/use.php",
    tag: TAGS.wallet,
    summary: "Debit the session user's wallet (402 with the available coins when short)",
    auth: "user",
    body: ref("walletUseRequestSchema"),
    response: ref("walletUseResponseSchema"),
    errors: [400, 401, 402, 403],
  },
  // Chat and conversations
  {
    method: "post",
    path: "/textai/chat.php",
    tag: TAGS.chat,
    summary: 'Text chat with a persona, or Doctor (avatarType "doctor"): charged, queued, answered when the job completes',
    auth: "user",
    body: ref(
      ["textChatRequestSchema", "chatRequestSchema", "textAiChatRequestSchema"],
      obj(
        {
          message: str,
          userId: str,
          conversationId: str,
          avatarType: str,
          conversationHistory: messageArray,
          language: { type: "string", enum: ["en", "ar"] },
        },
        ["message"],
      ),
    ),
    response: ref(["textChatResponseSchema", "chatResponseSchema"], obj({ success: bool, message: str, conversationId: str })),
    errors: [400, 401, 402, 403, 429, 504],
  },
  {
    method: "post",
    path: "/sms/ai-response.php",
    tag: TAGS.sms,
    summary: "SMS AI reply for the web screen (last 10 history entries as context)",
    auth: "user",
    body: ref(
      ["smsAiRequestSchema", "smsAiResponseRequestSchema"],
      obj({ message: str, conversationHistory: { type: "array", items: obj({ role: str, content: str }) }, language: str }, [
        "message",
      ]),
    ),
    response: ref(["smsAiResponseSchema"], obj({ success: bool, response: str })),
    errors: [400, 401, 402, 429, 504],
  },
  {
    method: "get",
    path: "/conversations/list.php",
    tag: TAGS.chat,
    summary: "The session user's conversations",
    auth: "user",
    query: ref(["conversationListQuerySchema", "conversationsListQuerySchema"], userIdQ),
    response: ref(
      ["conversationListResponseSchema", "conversationsListResponseSchema"],
      obj({ success: bool, conversations: { type: "array" } }),
    ),
    errors: [401, 403],
  },
  {
    method: "get",
    path: "/conversations/load.php",
    tag: TAGS.chat,
    summary: "One conversation with its messages (owner only)",
    auth: "user",
    query: ref(
      ["conversationLoadQuerySchema", "loadConversationQuerySchema"],
      obj({ conversationId: str, userId: str }, ["conversationId"]),
    ),
    response: ref(
      ["conversationLoadResponseSchema", "loadConversationResponseSchema"],
      obj({ success: bool, conversation: obj({ messages: messageArray }) }),
    ),
    errors: [400, 401, 403, 404],
  },
  {
    method: "post",
    path: "/conversations/save.php",
    tag: TAGS.chat,
    summary: 'Save a conversation ("new" creates one)',
    auth: "user",
    body: ref(
      ["conversationSaveRequestSchema", "saveConversationRequestSchema"],
      obj({ userId: str, conversationId: str, title: str, messages: messageArray }, ["conversationId", "messages"]),
    ),
    response: ref(
      ["conversationSaveResponseSchema", "saveConversationResponseSchema"],
      obj({ success: bool, conversationId: str }),
    ),
    errors: [400, 401, 403, 404],
  },
  {
    method: "post",
    path: "/conversations/delete.php",
    tag: TAGS.chat,
    summary: "Delete a conversation (owner only)",
    auth: "user",
    body: ref(
      ["conversationDeleteRequestSchema", "deleteConversationRequestSchema"],
      obj({ conversationId: str, userId: str }, ["conversationId"]),
    ),
    response: ref([], ok),
    errors: [400, 401, 403, 404],
  },
  // Images
  {
    method: "post",
    path: "/images/generate.php",
    tag: TAGS.images,
    summary: "Generate an image with an agent (charged, queued, answered when the job completes)",
    auth: "user",
    body: ref(
      ["imageGenerateRequestSchema", "generateImageRequestSchema"],
      obj({ prompt: str, size: str, userId: str, agent: str }, ["prompt"]),
    ),
    response: ref(
      ["imageGenerateResponseSchema", "generateImageResponseSchema"],
      obj({ success: bool, imageUrl: str, imageId: str }),
    ),
    errors: [400, 401, 402, 403, 429, 504],
  },
  {
    method: "post",
    path: "/images/edit.php",
    tag: TAGS.images,
    summary: "Edit an uploaded image (JPG/PNG/WEBP under 10 MB, strength 0.1-1)",
    auth: "user",
    body: ref(
      ["imageEditFieldsSchema", "imageEditRequestSchema", "editImageRequestSchema"],
      obj({ prompt: str, strength: { type: "number" }, size: str, userId: str }, ["prompt"]),
    ),
    multipartFiles: ["image"],
    response: ref(["imageEditResponseSchema", "imageGenerateResponseSchema"], obj({ success: bool, imageUrl: str })),
    errors: [400, 401, 402, 403, 413, 429, 504],
  },
  {
    method: "get",
    path: "/images/history.php",
    tag: TAGS.images,
    summary: "The session user's images",
    auth: "user",
    query: ref(["imageHistoryQuerySchema", "imagesHistoryQuerySchema"], userIdQ),
    response: ref(
      ["imageHistoryResponseSchema", "imagesHistoryResponseSchema"],
      obj({ success: bool, images: { type: "array" } }),
    ),
    errors: [401, 403],
  },
  {
    method: "post",
    path: "/images/delete.php",
    tag: TAGS.images,
    summary: "Delete one of the session user's images",
    auth: "user",
    body: ref(["imageDeleteRequestSchema", "deleteImageRequestSchema"], obj({ imageId: str }, ["imageId"])),
    response: ref([], ok),
    errors: [400, 401, 403, 404],
  },
  {
    method: "post",
    path: "/images/save.php",
    tag: TAGS.images,
    summary: "Save an image record to the session user's history",
    auth: "user",
    body: ref(
      ["imageSaveRequestSchema", "saveImageRequestSchema"],
      obj({ userId: str, imageData: obj({ id: str, url: str, prompt: str, size: str, mode: str, timestamp: str }) }, [
        "imageData",
      ]),
    ),
    response: ref([], ok),
    errors: [400, 401, 403, 404],
  },
  // Video
  ...(["/videos/generate.php", "/videos/ai-store-generator.php"] as const).map((path): Operation => ({
    method: "post",
    path,
    tag: TAGS.videos,
    summary: "Start a video generation: answers at once with video_id; progress by polling check-status.php and pushes",
    auth: "user",
    body: ref(
      ["videoGenerateRequestSchema", "generateVideoRequestSchema"],
      obj({ prompt: str, duration: int, model: str, userId: str }, ["prompt"]),
    ),
    response: ref(
      ["videoGenerateResponseSchema", "generateVideoResponseSchema"],
      obj({ success: bool, video_id: str, estimated_time: int, cost_deducted: int, remaining_coins: int }),
    ),
    errors: [400, 401, 402, 403, 429],
  })),
  ...(["/videos/history.php", "/videos/get-history.php"] as const).map((path): Operation => ({
    method: "get",
    path,
    tag: TAGS.videos,
    summary: "The session user's videos",
    auth: "user",
    query: ref(["videoHistoryQuerySchema", "videosHistoryQuerySchema"], userIdQ),
    response: ref(
      ["videoHistoryResponseSchema", "videosHistoryResponseSchema"],
      obj({ success: bool, videos: { type: "array" } }),
    ),
    errors: [401, 403],
  })),
  {
    method: "get",
    path: "/videos/check-status.php",
    tag: TAGS.videos,
    summary: "Status of one of the session user's videos",
    auth: "user",
    query: ref(["videoStatusQuerySchema", "checkStatusQuerySchema"], obj({ id: str }, ["id"])),
    response: ref(
      ["videoStatusResponseSchema", "checkStatusResponseSchema"],
      obj({
        success: bool,
        video: obj({ status: { type: "string", enum: ["processing", "completed", "failed"] }, video_url: str }),
      }),
    ),
    errors: [400, 401, 403, 404],
  },
  // Administrator
  {
    method: "post",
    path: "/admin/login.php",
    tag: TAGS.admin,
    summary: "Administrator login",
    auth: "none",
    body: ref("adminLoginRequestSchema"),
    response: ref(["adminLoginResponseSchema"], obj({ success: bool, admin: obj({ id: str, username: str, role: str }) })),
    errors: [400, 401, 429],
  },
  {
    method: "get",
    path: "/admin/dashboard-data.php",
    tag: TAGS.admin,
    summary: "Dashboard statistics",
    auth: "admin",
    permission: "stats:view",
    response: ref("dashboardResponseSchema"),
    errors: [401, 403],
  },
  {
    method: "get",
    path: "/admin/users.php",
    tag: TAGS.admin,
    summary: "Subscribers with usage",
    auth: "admin",
    permission: "users:view",
    query: ref("adminUsersQuerySchema", obj({})),
    response: ref("adminUsersResponseSchema"),
    errors: [400, 401, 403],
  },
  {
    method: "put",
    path: "/admin/users.php",
    tag: TAGS.admin,
    summary: "Activate or deactivate a subscriber",
    auth: "admin",
    permission: "users:toggle",
    body: ref("toggleUserRequestSchema", obj({ userId: str, isActive: bool }, ["userId", "isActive"])),
    response: ref([], ok),
    errors: [400, 401, 403, 404],
  },
  {
    method: "get",
    path: "/admin/sms-config.php",
    tag: TAGS.admin,
    summary: "SMS gateway configurations",
    auth: "admin",
    permission: "sms:view",
    response: ref(
      ["smsGatewayConfigsResponseSchema", "smsConfigsResponseSchema"],
      obj({ success: bool, configs: { type: "array" } }),
    ),
    errors: [401, 403],
  },
  ...(["post", "put"] as const).map((method): Operation => ({
    method,
    path: "/admin/sms-config.php",
    tag: TAGS.admin,
    summary: method === "post" ? "Create an SMS gateway configuration" : "Update an SMS gateway configuration",
    auth: "admin",
    permission: "sms:manage",
    body: ref(method === "post" ? ["smsGatewayConfigSaveSchema", "smsGatewayConfigSchema"] : "smsGatewayConfigUpdateSchema"),
    response: ref([], ok),
    errors: [400, 401, 403, 404, 409],
  })),
  {
    method: "get",
    path: "/admin/wallet-config.php",
    tag: TAGS.admin,
    summary: "Feature pricing and tiers",
    auth: "admin",
    permission: "wallet_config:view",
    response: ref(["walletConfigResponseSchema"], obj({ success: bool, pricing: { type: "array" }, tiers: { type: "array" } })),
    errors: [401, 403],
  },
  {
    method: "put",
    path: "/admin/wallet-config.php",
    tag: TAGS.admin,
    summary: "Replace feature pricing and tiers",
    auth: "admin",
    permission: "wallet_config:edit",
    body: ref("walletConfigRequestSchema"),
    response: ref([], ok),
    errors: [400, 401, 403],
  },
  {
    method: "get",
    path: "/admin/wallet-packages-simple.php",
    tag: TAGS.admin,
    summary: "Wallet packages",
    auth: "admin",
    permission: "packages:view",
    response: ref(
      ["walletPackagesResponseSchema", "packagesResponseSchema"],
      obj({ success: bool, packages: { type: "array" } }),
    ),
    errors: [401, 403],
  },
  {
    method: "post",
    path: "/admin/wallet-packages-simple.php",
    tag: TAGS.admin,
    summary: "Create a wallet package",
    auth: "admin",
    permission: "packages:manage",
    body: ref("createPackageRequestSchema"),
    response: ref([], ok),
    status: 201,
    errors: [400, 401, 403, 409],
  },
  {
    method: "put",
    path: "/admin/wallet-packages-simple.php",
    tag: TAGS.admin,
    summary: "Update a wallet package",
    auth: "admin",
    permission: "packages:manage",
    body: ref("updatePackageRequestSchema"),
    response: ref([], ok),
    errors: [400, 401, 403, 404, 409],
  },
  {
    method: "delete",
    path: "/admin/wallet-packages-simple.php",
    tag: TAGS.admin,
    summary: "Delete a wallet package",
    auth: "admin",
    permission: "packages:manage",
    query: ref("idQuerySchema", obj({ id: str }, ["id"])),
    response: ref([], ok),
    errors: [400, 401, 403, 404, 409],
  },
  {
    method: "get",
    path: "/admin/user-packages.php",
    tag: TAGS.admin,
    summary: "Package assignments (all, or ?userId= for one user's packages)",
    auth: "admin",
    permission: "packages:view",
    query: ref("userPackagesQuerySchema", userIdQ),
    response: ref(
      ["userPackagesResponseSchema"],
      obj({ success: bool, assignments: { type: "array" }, packages: { type: "array" } }),
    ),
    errors: [400, 401, 403],
  },
  {
    method: "post",
    path: "/admin/user-packages.php",
    tag: TAGS.admin,
    summary: "Assign a package to a user (credits its coins once)",
    auth: "admin",
    permission: "packages:assign",
    body: ref("assignPackageRequestSchema"),
    response: ref(["assignPackageResponseSchema"], obj({ success: bool, coinsAdded: int })),
    errors: [400, 401, 403, 404, 409],
  },
  {
    method: "delete",
    path: "/admin/user-packages.php",
    tag: TAGS.admin,
    summary: "Remove a package assignment",
    auth: "admin",
    permission: "packages:assign",
    query: ref("idQuerySchema", obj({ id: str }, ["id"])),
    response: ref([], ok),
    errors: [400, 401, 403, 404],
  },
  {
    method: "post",
    path: "/admin/update-user-tier.php",
    tag: TAGS.admin,
    summary: "Set a user's coins and tier (a ledger entry; pushes wallet-updated)",
    auth: "admin",
    permission: "users:edit_wallet",
    body: ref("updateUserTierRequestSchema"),
    response: ref(["updateUserTierResponseSchema"], obj({ success: bool, newTier: int, newCoins: int })),
    errors: [400, 401, 403, 404],
  },
  {
    method: "get",
    path: "/sms/integration/config.php",
    tag: TAGS.sms,
    summary: "SMS integration configuration (secrets masked)",
    auth: "admin",
    permission: "sms:view",
    response: ref(["smsIntegrationConfigResponseSchema"], obj({ success: bool, config: obj({}) })),
    errors: [401, 403],
  },
  {
    method: "post",
    path: "/sms/integration/config.php",
    tag: TAGS.sms,
    summary: "Save the SMS integration configuration (the full config)",
    auth: "admin",
    permission: "sms:manage",
    body: ref("smsIntegrationConfigRequestSchema"),
    response: ref(["smsIntegrationConfigResponseSchema"], obj({ success: bool, config: obj({}) })),
    errors: [400, 401, 403],
  },
  {
    method: "put",
    path: "/sms/integration/config.php",
    tag: TAGS.sms,
    summary: 'Gateway actions: {action: "test_gateway"}',
    auth: "admin",
    permission: "sms:manage",
    body: ref("smsIntegrationActionSchema", obj({ action: { type: "string", const: "test_gateway" } }, ["action"])),
    response: ref(["smsGatewayTestResponseSchema"], obj({ success: bool, test_result: obj({ success: bool, error: str }) })),
    errors: [400, 401, 403],
  },
  {
    method: "get",
    path: "/sms/integration/logs.php",
    tag: TAGS.sms,
    summary: "SMS logs, messages or stats (action=logs|messages|stats), pages of 20",
    auth: "admin",
    permission: "sms:view",
    query: ref("smsLogsQuerySchema"),
    response: ref(["smsLogsResponseSchema"], obj({ success: bool, data: obj({}) })),
    errors: [400, 401, 403],
  },
  {
    method: "post",
    path: "/sms/integration/webhook.php",
    tag: TAGS.sms,
    summary: "Inbound SMS from the gateway (JSON or form fields), signed",
    description:
      "Authenticity: `X-Signature` is the hex HMAC-SHA256 (optionally prefixed `sha256=`) of `<X-Signature-Timestamp>.<raw request body>` " +
      "keyed with the webhook secret; `X-Signature-Timestamp` is Unix seconds and is rejected beyond 5 minutes of skew. Gateways that " +
      "cannot sign pass `?token=<webhook secret>` instead. Both are compared in constant time; a bad or missing signature answers 401 " +
      "and starts nothing. A repeated gateway message id is accepted once.",
    auth: "webhook",
    body: ref("smsInboundSchema", obj({ from: str, to: str, text: str, message_id: str }, ["from", "text"])),
    response: ref(["smsWebhookResponseSchema"], ok),
    errors: [400, 401, 429],
  },
  {
    method: "delete",
    path: "/admin/sms-config.php",
    tag: TAGS.admin,
    summary: "Delete an SMS gateway configuration",
    auth: "admin",
    permission: "sms:manage",
    query: ref("smsGatewayConfigDeleteSchema", obj({ id: str }, ["id"])),
    response: ref([], ok),
    errors: [400, 401, 403, 404],
  },
  {
    method: "get",
    path: "/sms/conversations.php",
    tag: TAGS.sms,
    summary: "SMS AI: the session user's SMS conversation history (SPEC §7's conversations lookup)",
    auth: "user",
    query: ref("smsConversationsQuerySchema", userIdQ),
    response: ref("smsConversationsResponseSchema"),
    errors: [400, 401, 403],
  },
  {
    method: "post",
    path: "/sms/learned-response.php",
    tag: TAGS.sms,
    summary: "SMS AI: a cached earlier answer for the same normalised message and language (SPEC §7's learned-response lookup)",
    auth: "user",
    body: ref("smsLearnedResponseRequestSchema", obj({ message: str, language: str }, ["message"])),
    response: ref("smsLearnedResponseResponseSchema"),
    errors: [400, 401, 403],
  },
  { method: "post", path: "/admin/logout.php", tag: TAGS.admin, summary: "End the admin session", auth: "none", errors: [] },
  {
    method: "get",
    path: "/admin/session.php",
    tag: TAGS.admin,
    summary: "The logged-in administrator",
    auth: "admin",
    response: ref([], obj({ success: bool, admin: obj({ id: str, username: str, role: str }) })),
    errors: [401],
  },
  {
    method: "get",
    path: "/admin/audit-log.php",
    tag: TAGS.admin,
    summary: "Audit log of administrator actions",
    auth: "admin",
    permission: "audit:view",
    query: ref("auditLogQuerySchema", obj({})),
    response: ref([], obj({ success: bool, entries: { type: "array" } })),
    errors: [400, 401, 403],
  },
  {
    method: "get",
    path: "/admin/queues.php",
    tag: TAGS.admin,
    summary: "Job queue counts and failed jobs",
    auth: "admin",
    permission: "queues:view",
    response: ref("queuesResponseSchema"),
    errors: [401, 403],
  },
  {
    method: "post",
    path: "/admin/queues.php",
    tag: TAGS.admin,
    summary: "Retry or remove a failed job",
    auth: "admin",
    permission: "queues:manage",
    body: ref("queueJobActionRequestSchema"),
    response: ref([], ok),
    errors: [400, 401, 403, 404],
  },
  // Operations
  { method: "get", path: "/health", tag: TAGS.ops, summary: "200 while the process lives", auth: "none", errors: [] },
  {
    method: "get",
    path: "/ready",
    tag: TAGS.ops,
    summary: "200 when MongoDB, Redis and a worker per queue are reachable, else 503 naming what is missing",
    auth: "none",
    response: ref(
      [],
      obj({ status: { type: "string", enum: ["ready", "unavailable"] }, missing: { type: "array", items: str } }),
    ),
    errors: [503],
  },
  {
    method: "get",
    path: "/metrics",
    tag: TAGS.ops,
    summary: "Prometheus metrics (text format): Bearer METRICS_TOKEN or an admin session with stats:view",
    auth: "metrics",
    errors: [401, 403],
  },
  { method: "get", path: "/openapi.json", tag: TAGS.ops, summary: "This document", auth: "none", errors: [] },
];

const ERROR_TEXT: Record<number, string> = {
  400: "Bad input; `field` names the offending field",
  401: "Not logged in (or bad webhook signature / metrics token)",
  402: "Insufficient coins; `available` and `needed` carry the figures",
  403: "Logged in but not allowed (another user's id, a role without the permission, an inactive account)",
  404: "Not found (or not the caller's own)",
  409: "Conflict (phone already registered, package already assigned...)",
  413: "Upload too large",
  429: "Rate limited; retry after the Retry-After header",
  503: "A dependency is unavailable",
  504: "The job did not finish within JOB_WAIT_TIMEOUT_MS; it still completes or is refunded",
};

function lookup(names: string[]): z.ZodType | undefined {
  const exports = shared as unknown as Record<string, unknown>;
  for (const name of names) {
    const candidate = exports[name];
    if (candidate instanceof z.ZodType) return candidate;
  }
  return undefined;
}

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

function toSchema(entry: SchemaRef, io: "input" | "output"): { schema: JsonSchema; source: "zod" | "minimal" } {
  const found = lookup(entry.names);
  // A schema with no name is a fixed shape (e.g. `{success: true}`), not a missing one.
  if (!found) return { schema: entry.minimal, source: entry.names.length ? "minimal" : "zod" };
  const { $schema: _dialect, ...schema } = z.toJSONSchema(found, {
    io,
    unrepresentable: "any",
    target: "draft-2020-12",
  }) as JsonSchema;
  return { schema: (io === "output" ? loosen(schema) : schema) as JsonSchema, source: "zod" };
}

/** Operations whose request or response schema is not exported by the shared package. */
export function missingSchemas(): string[] {
  const missing: string[] = [];
  for (const op of OPERATIONS) {
    for (const [part, entry] of [
      ["query", op.query],
      ["body", op.body],
      ["response", op.response],
    ] as const) {
      if (entry && entry.names.length > 0 && !lookup(entry.names)) missing.push(`${op.method.toUpperCase()} ${op.path} ${part}`);
    }
  }
  return missing;
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

function security(op: Operation): JsonSchema[] | undefined {
  switch (op.auth) {
    case "user":
      return [{ session: [] }];
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

function operationObject(op: Operation): JsonSchema {
  const operation: JsonSchema = {
    tags: [op.tag],
    summary: op.summary,
    operationId: `${op.method}${op.path.replace(/\.php$/u, "").replace(/[^A-Za-z0-9]+(.)?/gu, (_m, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
  };
  const notes: string[] = [];
  if (op.description) notes.push(op.description);
  if (op.permission) notes.push(`Admin permission: \`${op.permission}\`.`);
  if (notes.length) operation.description = notes.join("\n\n");
  const sources: string[] = [];

  if (op.query) {
    const { schema, source } = toSchema(op.query, "input");
    sources.push(source);
    operation.parameters = queryParameters(schema);
  }
  if (op.body) {
    const { schema, source } = toSchema(op.body, "input");
    sources.push(source);
    if (op.multipartFiles) {
      const properties = { ...((schema.properties ?? {}) as Record<string, JsonSchema>) };
      for (const file of op.multipartFiles) properties[file] = { type: "string", contentMediaType: "application/octet-stream" };
      operation.requestBody = { required: true, content: { "multipart/form-data": { schema: { ...schema, properties } } } };
    } else {
      const content: JsonSchema = { "application/json": { schema } };
      if (op.auth === "webhook") content["application/x-www-form-urlencoded"] = { schema };
      operation.requestBody = { required: true, content };
    }
  }

  const responses: Record<string, JsonSchema> = {};
  if (op.path === "/metrics") {
    responses["200"] = {
      description: "Prometheus text exposition format",
      content: { "text/plain": { schema: { type: "string" } } },
    };
  } else if (op.response) {
    const { schema, source } = toSchema(op.response, "output");
    sources.push(source);
    responses[String(op.status ?? 200)] = { description: "Success", content: { "application/json": { schema } } };
  } else {
    responses[String(op.status ?? 200)] = { description: "Success", content: { "application/json": { schema: ok } } };
  }
  const errors = new Set(op.errors);
  if (op.auth === "user" || op.auth === "admin") errors.add(401);
  if (op.auth === "admin") errors.add(403);
  for (const status of [...errors].sort()) {
    responses[String(status)] = { $ref: `#/components/responses/E${status}` };
  }
  operation.responses = responses;
  const auth = security(op);
  if (auth) operation.security = auth;
  operation["x-schema"] = sources.includes("minimal") ? "minimal" : "zod";
  return operation;
}

export interface OpenApiOptions {
  version?: string;
  serverUrl?: string;
}

/** The whole OpenAPI 3.1 document; paths are under /api (the server URL). */
export function buildOpenApiDocument(options: OpenApiOptions = {}): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of OPERATIONS) (paths[op.path] ??= {})[op.method] = operationObject(op);

  const { $schema: _dialect, ...errorSchema } = z.toJSONSchema(shared.errorResponseSchema, { io: "output" }) as JsonSchema;
  const errorBody = {
    ...(loosen(errorSchema) as JsonSchema),
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
        "Every call of the storefront, generated from the zod schemas the server validates with (shared/src/schemas). " +
        "Paths keep their documented `.php` names. Errors are JSON `{success: false, error, code}`; 400 names the field. " +
        "Pushes (Socket.IO events) are documented in docs/.",
    },
    servers: [{ url: options.serverUrl ?? "/api" }],
    tags: Object.values(TAGS).map((name) => ({ name })),
    paths,
    components: {
      schemas: { Error: errorBody },
      responses,
      securitySchemes: {
        session: { type: "apiKey", in: "cookie", name: "sf.sid", description: "Session cookie set by login (httpOnly)" },
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
