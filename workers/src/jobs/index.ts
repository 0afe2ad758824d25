import { UnrecoverableError, type Processor } from "bullmq";
import type { QueueName } from "@storefront/shared";
import { maintenanceProcessor } from "../schedules/index";
import { chatProcessor } from "./chat";
import { smsReplyProcessor } from "./sms-reply";

/** Queue name → processor. Start-up refuses to run when a queue has none. */
export const processors: Record<QueueName, Processor> = {
  chat: chatProcessor,
  image: async () => {
    throw new UnrecoverableError("image processing is not built yet");
  },
  video: async () => {
    throw new UnrecoverableError("video processing is not built yet");
  },
  "sms-reply": smsReplyProcessor,
  maintenance: maintenanceProcessor,
};
