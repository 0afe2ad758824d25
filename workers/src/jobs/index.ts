import { UnrecoverableError, type Processor } from "bullmq";
import type { QueueName } from "@storefront/shared";

/** Queue name → processor. Start-up refuses to run when a queue has none. */
export const processors: Record<QueueName, Processor> = {
  chat: async () => {
    throw new UnrecoverableError("chat processing is not built yet");
  },
  image: async () => {
    throw new UnrecoverableError("image processing is not built yet");
  },
  video: async () => {
    throw new UnrecoverableError("video processing is not built yet");
  },
  "sms-reply": async () => {
    throw new UnrecoverableError("sms-reply processing is not built yet");
  },
};
