/**
 * Redemption codes. An administrator with coins:grant makes a batch (count, coins per code, uses
 * per code, expiry, label) and sees its codes once; only their SHA-256 is stored. A subscriber
 * redeems a code on the Get coins page:
 *
 *   1. attempts are counted per user and per address first (wrong codes included);
 *   2. the code's batch must be enabled and unexpired;
 *   3. a use is recorded, unique per (code, user): the same user cannot redeem a code twice;
 *   4. the code's use count grows only while below the batch's uses per code (one conditional
 *      update), so N concurrent redemptions of a k-use code let exactly min(N, k) through; a use
 *      that lost the race is removed again;
 *   5. the coins are credited under the use's own ledger key, then the use is marked credited (a
 *      crash between the two is finished by the same user trying the code again).
 */
import { createHash, randomInt } from "node:crypto";
import { Types } from "mongoose";
import {
  MESSAGES,
  type CreateRedemptionBatchRequest,
  type CreateRedemptionBatchResponse,
  type RedeemResponse,
  type RedemptionBatchView,
} from "@storefront/shared";
import {
  RedemptionBatch,
  RedemptionCode,
  RedemptionUse,
  User,
  credit,
  type Config,
  type Pusher,
  type RedemptionBatchDoc,
  type RedemptionUseDoc,
} from "@storefront/shared/server";
import type { Redis } from "ioredis";
import { AppError, notFound } from "../errors";
import type { AuthedAdmin } from "../middleware/auth";
import { clientKey, hit } from "../middleware/rate-limit";
import { recordAudit } from "./audit";
import { noticeBalance } from "./low-balance";

/** Crockford's base32 without I, L, O, U: 20 characters are 100 random bits, read aloud without confusion. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const CODE_LENGTH = 20;

function newCode(): string {
  let code = "";
  for (let i = 0; i < CODE_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

/** How a code is shown: four groups of five. */
const groupCode = (code: string) => code.match(/.{1,5}/gu)!.join("-");

export const hashCode = (normalized: string) => createHash("sha256").update(normalized).digest("hex");

async function redeemedCounts(batchIds: Types.ObjectId[]): Promise<Map<string, number>> {
  const rows = await RedemptionCode.aggregate<{ _id: Types.ObjectId; uses: number }>([
    { $match: { batchId: { $in: batchIds } } },
    { $group: { _id: "$batchId", uses: { $sum: "$uses" } } },
  ]);
  return new Map(rows.map((r) => [String(r._id), r.uses]));
}

function toView(doc: RedemptionBatchDoc, redeemed: number): RedemptionBatchView {
  return {
    id: String(doc._id),
    label: doc.label,
    coins: doc.coins,
    uses_per_code: doc.usesPerCode,
    count: doc.count,
    redeemed,
    remaining: Math.max(0, doc.count * doc.usesPerCode - redeemed),
    expires_at: doc.expiresAt.toISOString(),
    enabled: doc.enabled,
    created_by: doc.createdBy,
    created_at: doc.createdAt.toISOString(),
  };
}

export async function listBatches(batchId?: string) {
  const docs = await RedemptionBatch.find({}).sort({ createdAt: -1 }).limit(200).lean<RedemptionBatchDoc[]>();
  const counts = await redeemedCounts(docs.map((d) => d._id));
  const batches = docs.map((d) => toView(d, counts.get(String(d._id)) ?? 0));
  if (!batchId) return { success: true as const, batches };
  const uses = await RedemptionUse.find({ batchId: new Types.ObjectId(batchId), credited: true })
    .sort({ createdAt: -1 })
    .limit(200)
    .lean<RedemptionUseDoc[]>();
  const phones = new Map(
    (
      await User.find({ _id: { $in: uses.map((u) => u.userId) } }, { phone: 1 }).lean<{ _id: Types.ObjectId; phone: string }[]>()
    ).map((u) => [String(u._id), u.phone]),
  );
  return {
    success: true as const,
    batches,
    redemptions: uses.map((u) => ({
      user_id: String(u.userId),
      phone: phones.get(String(u.userId)) ?? null,
      coins: u.coins,
      at: u.createdAt.toISOString(),
    })),
  };
}

export async function createBatch(
  admin: AuthedAdmin,
  input: CreateRedemptionBatchRequest,
): Promise<CreateRedemptionBatchResponse> {
  const batch = await RedemptionBatch.create({
    label: input.label,
    coins: input.coins,
    usesPerCode: input.usesPerCode,
    count: input.count,
    expiresAt: input.expiresAt,
    createdBy: admin.username,
  });
  const codes = Array.from({ length: input.count }, newCode);
  await RedemptionCode.insertMany(codes.map((code) => ({ batchId: batch._id, hash: hashCode(code) })));
  const view = toView(batch.toObject() as RedemptionBatchDoc, 0);
  // The audit keeps what was made, never the codes.
  await recordAudit(admin, {
    action: "redemption_batch.create",
    targetType: "redemption_batch",
    targetId: view.id,
    before: null,
    after: view,
  });
  return { success: true, batch: view, codes: codes.map(groupCode) };
}

export async function setBatchEnabled(admin: AuthedAdmin, id: string, enabled: boolean): Promise<RedemptionBatchView> {
  const before = await RedemptionBatch.findOneAndUpdate(
    { _id: id },
    { $set: { enabled } },
    { returnDocument: "before" },
  ).lean<RedemptionBatchDoc>();
  if (!before) throw notFound("id: no such batch");
  const counts = await redeemedCounts([before._id]);
  const view = toView({ ...before, enabled }, counts.get(id) ?? 0);
  await recordAudit(admin, {
    action: "redemption_batch.update",
    targetType: "redemption_batch",
    targetId: id,
    before: { enabled: before.enabled },
    after: { enabled },
  });
  return view;
}

/** A use left uncounted this long was cut off by a crash before its count: it is tried afresh. */
const ABANDONED_USE_MS = 60_000;

const isDuplicateKey = (error: unknown) => (error as { code?: number } | undefined)?.code === 11000;

export async function redeemCode(
  deps: { redis: Redis; config: Config; pusher: Pusher },
  userId: string,
  ip: string,
  normalized: string,
  now = new Date(),
): Promise<RedeemResponse> {
  await hit(deps.redis, `redeem:user:${userId}`, deps.config.REDEEM_RATE_LIMIT_PER_HOUR, 3600, MESSAGES.tooManyRedemptions);
  await hit(
    deps.redis,
    `redeem:ip:${clientKey(ip)}`,
    deps.config.REDEEM_RATE_LIMIT_PER_IP_PER_HOUR,
    3600,
    MESSAGES.tooManyRedemptions,
  );

  const code = await RedemptionCode.findOne({ hash: hashCode(normalized) }).lean<{
    _id: Types.ObjectId;
    batchId: Types.ObjectId;
  }>();
  const batch = code ? await RedemptionBatch.findById(code.batchId).lean<RedemptionBatchDoc>() : null;
  if (!code || !batch || !batch.enabled) throw new AppError(400, "code_invalid", MESSAGES.codeInvalid, { field: "code" });
  if (batch.expiresAt.getTime() <= now.getTime())
    throw new AppError(400, "code_expired", MESSAGES.codeExpired, { field: "code" });

  const user = new Types.ObjectId(userId);
  let use: RedemptionUseDoc;
  try {
    use = (
      await RedemptionUse.create({ codeId: code._id, batchId: batch._id, userId: user, coins: batch.coins })
    ).toObject() as RedemptionUseDoc;
    const counted = await RedemptionCode.findOneAndUpdate(
      { _id: code._id, uses: { $lt: batch.usesPerCode } },
      { $inc: { uses: 1 } },
      { projection: { _id: 1 } },
    ).lean();
    if (!counted) {
      await RedemptionUse.deleteOne({ _id: use._id, counted: false });
      throw new AppError(400, "code_used_up", MESSAGES.codeUsedUp, { field: "code" });
    }
    await RedemptionUse.updateOne({ _id: use._id }, { counted: true });
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
    const earlier = await RedemptionUse.findOne({ codeId: code._id, userId: user }).lean<RedemptionUseDoc>();
    // Only a counted use is paid; one still being counted (a second click) or already paid is a repeat.
    if (!earlier || earlier.credited || !earlier.counted) {
      const abandoned = earlier && !earlier.counted && now.getTime() - earlier.createdAt.getTime() > ABANDONED_USE_MS;
      if (abandoned && (await RedemptionUse.deleteOne({ _id: earlier._id, counted: false })).deletedCount)
        return redeemCode(deps, userId, ip, normalized, now);
      throw new AppError(409, "code_already_redeemed", MESSAGES.codeAlreadyRedeemed, { field: "code" });
    }
    use = earlier;
  }

  const entry = await credit(
    userId,
    use.coins,
    `redeem:${String(use._id)}`,
    "credit",
    `redeem:${batch.label}`.slice(0, 100),
    `user:${userId}`,
  );
  await RedemptionUse.updateOne({ _id: use._id }, { credited: true });
  // Another request of the same user paid this use first (a double click): this one is the repeat.
  if (entry.replayed) throw new AppError(409, "code_already_redeemed", MESSAGES.codeAlreadyRedeemed, { field: "code" });
  if (entry.balanceAfter !== null) {
    deps.pusher.toUser(userId, "wallet:updated", { coins: entry.balanceAfter, reason: "redeem" });
    await noticeBalance(deps, userId, entry.balanceAfter);
  }
  return { success: true, coinsAdded: use.coins, coins: entry.balanceAfter ?? 0 };
}
