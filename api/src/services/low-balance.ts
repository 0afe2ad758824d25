/**
 * The low-balance notice: when a charge leaves a balance below LOW_BALANCE_THRESHOLD, the user
 * gets one "wallet:low" push (the web shows it as an in-app notice), and not again until the
 * balance has been seen at or above the threshold. The flag on the user is flipped by one
 * conditional update, so concurrent charges crossing together send one notice.
 */
import type { Pusher } from "@storefront/shared/server";
import { User } from "@storefront/shared/server";
import { lowBalanceThresholdOf } from "./spending";

/** What the notice needs: where to push, and the configured default threshold. */
export interface NoticeDeps {
  pusher: Pusher;
  config: { LOW_BALANCE_THRESHOLD: number };
}

/** The user's own threshold (wallet/settings.php) or the configured one; 0 turns the notice off. */
export async function noticeBalance(deps: NoticeDeps, userId: string, balance: number): Promise<void> {
  const threshold = await lowBalanceThresholdOf(userId, deps.config.LOW_BALANCE_THRESHOLD);
  if (threshold <= 0) return;
  // Both updates test the balance as it is now, not as this call saw it: concurrent charges answer
  // out of order, and a late "still above" must not clear the flag another charge just set.
  if (balance < threshold) {
    const flipped = await User.updateOne(
      { _id: userId, lowBalanceAlerted: { $ne: true }, coins: { $lt: threshold } },
      { $set: { lowBalanceAlerted: true } },
    );
    if (flipped.modifiedCount === 1) deps.pusher.toUser(userId, "wallet:low", { coins: balance, threshold });
  } else {
    await User.updateOne(
      { _id: userId, lowBalanceAlerted: true, coins: { $gte: threshold } },
      { $set: { lowBalanceAlerted: false } },
    );
  }
}
