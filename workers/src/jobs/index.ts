import type { Processor } from "bullmq";
import type { QueueName } from "@storefront/shared";
import type { WorkerContext } from "../context";
import { maintenanceProcessor } from "../schedules/index";
import { chatProcessor } from "./chat";
import { imageProcessor } from "./image";
import { smsReplyProcessor } from "./sms-reply";
import { videoProcessor } from "./video";

/** Queue name → processor, built on the process's context. Start-up refuses to run when a queue has none. */
export function createProcessors(ctx: WorkerContext): Record<QueueName, Processor> {
  return {
    chat: chatProcessor(ctx),
    image: imageProcessor(ctx),
    video: videoProcessor(ctx),
    "sms-reply": smsReplyProcessor(ctx),
    maintenance: maintenanceProcessor(ctx),
  };
}
