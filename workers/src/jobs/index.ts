import type { Processor } from "bullmq";
import type { QueueName } from "@storefront/shared";
import { maintenanceProcessor } from "../schedules/index";
import { chatProcessor } from "./chat";
import { imageProcessor } from "./image";
import { smsReplyProcessor } from "./sms-reply";
import { videoProcessor } from "./video";

/** Queue name → processor. Start-up refuses to run when a queue has none. */
export const processors: Record<QueueName, Processor> = {
  chat: chatProcessor,
  image: imageProcessor,
  video: videoProcessor,
  "sms-reply": smsReplyProcessor,
  maintenance: maintenanceProcessor,
};
