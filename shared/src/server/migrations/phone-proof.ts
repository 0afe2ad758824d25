/**
 * The users' phone index as phone proof needs it: unique among the accounts that have a number,
 * sparse so that the accounts whose number was taken back by its proven owner (no `phone`) can be
 * many. Data sets made before phone proof have the older unique index of every account, which
 * MongoDB cannot change in place: every process's connectMongo drops it here, before the models'
 * own index build (which would fail on it) makes the sparse one. Idempotent and cheap (one
 * listIndexes); existing accounts need no rewrite, since no stored account has proven its number
 * (`phoneVerifiedAt` absent reads as unproven).
 */
import { User } from "../models/index";

export async function migratePhoneIndex(): Promise<{ dropped: boolean }> {
  const indexes = await User.collection.indexes().catch((error: unknown) => {
    // A data set without the collection yet: the model builds the sparse index itself.
    if ((error as { codeName?: string }).codeName === "NamespaceNotFound") return [];
    throw error;
  });
  const phone = indexes.find((index) => index.name === "phone_1");
  if (!phone || phone.sparse) return { dropped: false };
  await User.collection.dropIndex("phone_1").catch((error: unknown) => {
    // Another process starting at the same moment dropped it first.
    if ((error as { codeName?: string }).codeName !== "IndexNotFound") throw error;
  });
  return { dropped: true };
}
