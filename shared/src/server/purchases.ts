/**
 * Finishing a subscriber's purchase of a package (the API's wallet/buy.php records it; see
 * api/src/services/purchases.ts for the steps). Here so the renewal schedule can finish one a
 * crash left half-done.
 */
import { PackageAssignmentModel, assignmentCreditKey, type PackageAssignmentDoc } from "./models/package-assignment";
import { User } from "./models/user";
import { credit } from "./ledger";
import { operatorBilling, type OperatorBilling } from "./billing/index";
import type { Pusher } from "./realtime";

/**
 * Charges (again, with the same key: the operator answers as the first time) a purchase not yet
 * paid, then credits a paid one whose coins are not yet in. Safe to run any number of times.
 */
export async function settlePurchase(
  purchase: PackageAssignmentDoc,
  pusher?: Pick<Pusher, "toUser">,
  billing: OperatorBilling = operatorBilling(),
): Promise<{ paid: true; purchase: PackageAssignmentDoc } | { paid: false; reason: string }> {
  let current = purchase;
  if (current.payment === "pending") {
    const user = await User.findById(current.userId, { phone: 1 }).lean<{ phone: string }>();
    const answer = await billing.charge({
      key: current.purchaseKey!,
      userId: String(current.userId),
      phone: user?.phone ?? "",
      amount: current.price,
      description: `Package ${current.packageName}`,
    });
    if (!answer.ok) {
      await PackageAssignmentModel.deleteOne({ _id: current._id, payment: "pending" });
      return { paid: false, reason: answer.error };
    }
    current =
      (await PackageAssignmentModel.findOneAndUpdate(
        { _id: current._id },
        { $set: { payment: "paid", paymentReference: answer.reference } },
        { returnDocument: "after" },
      ).lean<PackageAssignmentDoc>()) ?? current;
  }
  if (current.creditPending && current.coins > 0) {
    const entry = await credit(
      current.userId,
      current.coins,
      assignmentCreditKey(current._id, 0),
      "credit",
      `purchase:${current.packageName}`,
      `user:${String(current.userId)}`,
    );
    await PackageAssignmentModel.updateOne({ _id: current._id }, { creditPending: false });
    current = { ...current, creditPending: false };
    if (entry.balanceAfter !== null && !entry.replayed)
      pusher?.toUser(String(current.userId), "wallet:updated", { coins: entry.balanceAfter, reason: "purchase" });
  }
  return { paid: true, purchase: current };
}
