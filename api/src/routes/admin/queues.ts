import { createBullBoard } from "@bull-board/api";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { ExpressAdapter } from "@bull-board/express";
import type { RequestHandler } from "express";
import type { Queue } from "bullmq";
import { queueJobActionRequestSchema, queuesResponseSchema, successSchema, VALUE_PERMISSION } from "@storefront/shared";
import { requireAdmin } from "../../middleware/auth";
import { monitoredJob } from "@storefront/shared/server";
import { actOnJob, queuesOverview } from "../../services/admin-queues";
import { defineRawRoute, defineRoute, TAGS } from "../define";

export const BULL_BOARD_PATH = "/admin/queues/board";

/**
 * Reading the board needs queues:view (checked first, from the route); its actions (retry, clean,
 * pause, add...) need queues:manage and, as they run work unpaid (UNPAID_VALUE.job_retry), coins:grant.
 */
const boardActions: RequestHandler = (req, res, next) => {
  if (req.method === "GET" || req.method === "HEAD") return next();
  return requireAdmin("queues:manage", VALUE_PERMISSION)(req, res, next);
};

/** A job object of the board's API (formatJob): it has a payload and a failure to show. */
const isBoardJob = (value: Record<string, unknown>) => "data" in value && "failedReason" in value && "stacktrace" in value;

/** The board's answer with every job's payload, reply, progress and stack trace replaced (shared/src/server/queue-privacy.ts). */
function hidePayloads(value: unknown, depth = 0): unknown {
  if (depth > 6 || !value || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => hidePayloads(item, depth + 1));
  const record = value as Record<string, unknown>;
  if (isBoardJob(record)) {
    const shown = monitoredJob({
      data: record.data,
      returnvalue: record.returnValue,
      failedReason: typeof record.failedReason === "string" ? record.failedReason : undefined,
    });
    return {
      ...record,
      ...shown,
      progress: typeof record.progress === "number" ? record.progress : null,
      stacktrace: [],
    };
  }
  return Object.fromEntries(Object.entries(record).map(([key, item]) => [key, hidePayloads(item, depth + 1)]));
}

/** A job's logs and flow tree would show what its payload holds: the board does not serve them. */
const HIDDEN_VIEWS = /^\/api\/queues\/[^/]+\/[^/]+\/(?:logs|flow)\/?$/iu;

/**
 * Bull Board behind the rule of docs/permissions.md: no administrator sees a job's payload in the
 * queue monitor. Every JSON answer of its API passes through hidePayloads.
 */
function privateJobs(board: RequestHandler): RequestHandler {
  return (req, res, next) => {
    if (HIDDEN_VIEWS.test(req.path)) {
      res.status(404).json({ success: false, error: "Job payloads, logs and flows are not shown (docs/permissions.md)" });
      return;
    }
    const json = res.json.bind(res);
    res.json = (body: unknown) => json(hidePayloads(body));
    board(req, res, next);
  };
}

const paths = ["/admin/queues.php", "/admin/queues"] as const;

export const adminQueuesRoutes = [
  defineRoute({
    method: "get",
    paths,
    tag: TAGS.admin,
    summary: "Job queue counts and failed jobs",
    auth: "admin",
    permission: "queues:view",
    response: queuesResponseSchema,
    errors: [401, 403],
    handler: ({ ctx }) => queuesOverview(ctx.queues, ctx.redis),
  }),

  defineRoute({
    method: "post",
    paths,
    tag: TAGS.admin,
    summary: "Retry or remove a failed job",
    auth: "admin",
    permission: "queues:manage",
    grants: "job_retry",
    body: queueJobActionRequestSchema,
    response: successSchema,
    errors: [400, 401, 403, 404],
    handler: async ({ body, req, ctx }) => {
      await actOnJob(req.admin!, ctx.queues, body);
      return { success: true as const };
    },
  }),

  defineRawRoute({
    method: "get",
    paths: [BULL_BOARD_PATH],
    prefix: true,
    tag: TAGS.admin,
    summary: "Bull Board, the queue dashboard (its actions need queues:manage)",
    auth: "admin",
    permission: "queues:view",
    response: { contentType: "text/html", description: "The dashboard and its API" },
    errors: [401, 403],
    middleware: [boardActions],
    raw: (ctx) => {
      const board = new ExpressAdapter();
      board.setBasePath(`/api${BULL_BOARD_PATH}`);
      createBullBoard({
        queues: (Object.values(ctx.queues) as Queue[]).map((q) => new BullMQAdapter(q)),
        // @bull-board/express pins its own patch release of @bull-board/api; the adapter contract is the same.
        serverAdapter: board as unknown as Parameters<typeof createBullBoard>[0]["serverAdapter"],
        options: { uiConfig: { boardTitle: "Storefront queues" } },
      });
      return privateJobs(board.getRouter() as RequestHandler);
    },
  }),
];
