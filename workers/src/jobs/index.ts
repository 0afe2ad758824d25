import { UnrecoverableError, type Processor } from "bullmq";
import type { QueueName } from "@storefront/shared";
import { maintenanceProcessor } from "../schedules/index";
import { chatProcessor } from "./chat";

/** Queue name → processor. Start-up refuses to run when a queue has none. */
export const processors: Record<QueueName, Processor> = {
  chat: chatProcessor,
  image: async () => {
    throw new UnrecoverableError("image processing is not built yet");
  },
  video: async () => {
    throw new UnrecoverableError("video processing is not built yet");
  },
  "sms-reply": async () => {
    throw new UnrecoverableError("sms-reply processing is not built yet");
  },
  maintenance: maintenanceProcessor,
};
