import { createBullBoard } from "@bull-board/api";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { ExpressAdapter } from "@bull-board/express";
import { Router, type RequestHandler } from "express";
import type { Queue } from "bullmq";
import { queueJobActionRequestSchema } from "@storefront/shared";
import type { AppContext } from "../../context";
import { requireAdmin } from "../../middleware/auth";
import { handle } from "../../middleware/validate";
import { actOnJob, queuesOverview } from "../../services/admin-queues";

export const BULL_BOARD_PATH = "/admin/queues/board";

/** Reading the board needs queues:view; its actions (retry, clean, pause...) need queues:manage. */
const boardAccess: RequestHandler = (req, res, next) => {
  const permission = req.method === "GET" || req.method === "HEAD" ? "queues:view" : "queues:manage";
  return requireAdmin(permission)(req, res, next);
};

export function adminQueuesRoutes(ctx: AppContext): Router {
  const router = Router();
  const paths = ["/admin/queues.php", "/admin/queues"];

  router.get(paths, requireAdmin("queues:view"), async (_req, res) => {
    res.json(await queuesOverview(ctx.queues, ctx.redis));
  });
  router.post(
    paths,
    requireAdmin("queues:manage"),
    handle(queueJobActionRequestSchema, "body", async (input, req) => {
      await actOnJob(req.admin!, ctx.queues, input);
      return { success: true };
    }),
  );

  const board = new ExpressAdapter();
  board.setBasePath(`/api${BULL_BOARD_PATH}`);
  createBullBoard({
    queues: (Object.values(ctx.queues) as Queue[]).map((q) => new BullMQAdapter(q)),
    // @bull-board/express pins its own patch release of @bull-board/api; the adapter contract is the same.
    serverAdapter: board as unknown as Parameters<typeof createBullBoard>[0]["serverAdapter"],
    options: { uiConfig: { boardTitle: "Storefront queues" } },
  });
  router.use(BULL_BOARD_PATH, boardAccess, board.getRouter() as RequestHandler);
  return router;
}
