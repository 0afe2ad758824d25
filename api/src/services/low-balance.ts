/**
 * The API's side of the low-balance notice (shared/src/server/low-balance.ts): the user's
 * threshold and SMS choice come from the per-process user cache, the SMS goes to the
 * "sms-reply" queue.
 */
import type { Language } from "@storefront/shared";
import { noticeLowBalance, type Pusher, type Queues } from "@storefront/shared/server";
import { cachedUser } from "../middleware/auth";

/** What the notice needs: where to push, the configured default threshold, and where the SMS goes. */
export interface NoticeDeps {
  pusher: Pusher;
  config: { LOW_BALANCE_THRESHOLD: number };
  queues?: Pick<Queues, "sms-reply">;
}

/** What the charge knows: the call's language (the SMS is written in it) and the flag its update left. */
export interface ChargeSeen {
  language?: Language | undefined;
  alerted?: boolean | undefined;
}

/** The user's own threshold (wallet/settings.php) or the configured one; 0 turns the notice off. */
export async function noticeBalance(deps: NoticeDeps, userId: string, balance: number, seen: ChargeSeen = {}): Promise<void> {
  const user = await cachedUser(userId);
  await noticeLowBalance(
    { pusher: deps.pusher, smsQueue: deps.queues?.["sms-reply"] },
    {
      id: userId,
      threshold: user?.lowBalanceThreshold ?? deps.config.LOW_BALANCE_THRESHOLD,
      smsAlerts: user?.smsAlerts ?? false,
      language: seen.language,
    },
    balance,
    seen.alerted,
  );
}
