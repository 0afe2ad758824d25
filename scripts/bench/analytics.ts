/**
 * `npx tsx scripts/bench/analytics.ts`: how long admin/analytics.php's aggregations take on a
 * large ledger. Starts a throw-away MongoDB-compatible server (in memory, 127.0.0.1), writes
 * BENCH_LEDGER_ROWS ledger entries (1,000,000 by default) spread over 90 days and 20,000 users,
 * with their indexes, then times the 30-day and 7-day analytics three times each and prints the
 * figures. Point MONGODB_URI at a real MongoDB (an empty database) to measure that instead.
 */
import { performance } from "node:perf_hooks";
import mongoose, { Types } from "mongoose";
import { analyticsQuerySchema } from "@storefront/shared";
import { LedgerEntry, PackageAssignmentModel, RedemptionUse, User } from "@storefront/shared/server";
import { analytics } from "../../api/src/services/analytics";
import { startMongo } from "../lib/infra";

const ROWS = Number(process.env.BENCH_LEDGER_ROWS ?? 1_000_000);
if (!Number.isInteger(ROWS) || ROWS < 1000 || ROWS > 3_000_000) throw new Error("BENCH_LEDGER_ROWS must be 1000 to 3000000");
const USERS = 20_000;
const DAYS = 90;
const BATCH = 20_000;
const FEATURES = ["text", "doctor", "image", "video", "sms"];
const QUEUES: Record<string, string> = { text: "chat", doctor: "chat", image: "image", video: "video", sms: "sms-reply" };

const server = process.env.MONGODB_URI ? null : await startMongo({ heap: "6g" });
try {
  await mongoose.connect(process.env.MONGODB_URI ?? server!.url);
  await Promise.all([LedgerEntry, User, PackageAssignmentModel, RedemptionUse].map((m) => m.createIndexes()));
  const now = Date.now();
  const users = Array.from({ length: USERS }, () => new Types.ObjectId());
  const started = performance.now();
  for (let done = 0; done < ROWS; done += BATCH) {
    const docs = Array.from({ length: Math.min(BATCH, ROWS - done) }, (_, i) => {
      const n = done + i;
      const feature = FEATURES[n % FEATURES.length]!;
      const at = new Date(now - ((n * 2_654_435_761) % (DAYS * 86_400_000)));
      const hold = n % 3 !== 0;
      return {
        userId: users[n % USERS],
        key: `bench:${n}`,
        kind: hold ? "hold" : "debit",
        feature,
        amount: -((n % 9) + 1),
        seq: Math.floor(n / USERS) + 1,
        balanceAfter: 1000,
        reason: `hold:${feature}`,
        details: "",
        actor: "user",
        holdState: hold ? (n % 17 === 0 ? "released" : "settled") : null,
        queue: hold ? QUEUES[feature] : null,
        jobId: hold ? `${QUEUES[feature]}-${n}` : null,
        createdAt: at,
        updatedAt: at,
      };
    });
    await LedgerEntry.collection.insertMany(docs, { ordered: false });
  }
  console.log(
    `[analytics bench] ${ROWS.toLocaleString("en")} ledger entries written in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const day = (offset: number) => new Date(now + offset * 86_400_000).toISOString().slice(0, 10);
  for (const [label, from] of [
    ["30 days", day(-29)],
    ["7 days", day(-6)],
  ] as const) {
    const query = analyticsQuerySchema.parse({ from, to: day(0) });
    const times: number[] = [];
    let spent = 0;
    for (let run = 0; run < 3; run++) {
      const t0 = performance.now();
      const result = await analytics(query);
      times.push(performance.now() - t0);
      spent = result.days.reduce((s, d) => s + Object.values(d.coins_spent).reduce((a, b) => a + b, 0), 0);
    }
    console.log(
      `[analytics bench] ${label}: ${times.map((t) => `${t.toFixed(0)} ms`).join(", ")} (coins spent in range: ${spent.toLocaleString("en")})`,
    );
  }
} finally {
  await mongoose.disconnect();
  await server?.stop();
}
