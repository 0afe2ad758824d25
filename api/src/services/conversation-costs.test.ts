import mongoose, { Types } from "mongoose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ConversationJob, credit, hold, LedgerEntry, migrateLedger, releaseHold, User } from "@storefront/shared/server";
import { conversationCosts, fileJobs } from "./conversation-costs";

beforeAll(async () => {
  await mongoose.connect(inject("mongoUri").replace(/\/[^/]*$/u, "/conversation_costs_unit"));
  await Promise.all([User.createIndexes(), LedgerEntry.createIndexes(), ConversationJob.createIndexes()]);
  await migrateLedger(); // nothing to move: marks this database's ledger as the chain format
});

afterAll(async () => {
  await mongoose.disconnect();
});

let seq = 0;
async function newUser(coins: number): Promise<string> {
  seq += 1;
  const user = await User.create({ phone: `+21${Date.now()}${seq}`, passwordHash: "x" });
  await credit(user._id, coins, `seed:${String(user._id)}`, "credit", "seed");
  return String(user._id);
}

const charge = (userId: string, coins: number, jobId: string) =>
  hold({ userId, coins, key: `hold:${jobId}`, feature: "text", queue: "chat", jobId });

describe("conversation costs", () => {
  it("sums a conversation's charges less refunds, and files only the user's own jobs, the first filing standing", async () => {
    const id = await newUser(200);
    const other = await newUser(200);
    const [first, j2, j3, theirs] = ["first", "j2", "j3", "theirs"].map((j) => `${j}-${String(new Types.ObjectId())}`);
    await charge(id, 5, first!);
    await charge(id, 7, j2!);
    await fileJobs(id, [j2!], "conv_a"); // a chat call naming its conversation
    await charge(id, 9, j3!);
    await fileJobs(id, [j3!], "conv_a");
    await releaseHold(`hold:${j3}`, "job failed");
    await charge(other, 11, theirs!);
    // A save lists its replies' jobs: another user's job costs this conversation nothing.
    await fileJobs(id, [first!, theirs!], "conv_a");
    await fileJobs(id, [first!], "conv_b"); // filed already: stays under conv_a
    const costs = await conversationCosts(id, ["conv_a", "conv_b"]);
    expect(costs.get("conv_a")).toBe(12);
    expect(costs.get("conv_b")).toBeUndefined();
    expect((await conversationCosts(other, ["conv_a"])).get("conv_a")).toBeUndefined();
  });

  it("counts a charge whose entry lands after the conversation was saved", async () => {
    const id = await newUser(50);
    const jobId = `late-${String(new Types.ObjectId())}`;
    await fileJobs(id, [jobId], "conv_late");
    expect((await conversationCosts(id, ["conv_late"])).get("conv_late")).toBe(0);
    await charge(id, 6, jobId);
    expect((await conversationCosts(id, ["conv_late"])).get("conv_late")).toBe(6);
    await releaseHold(`hold:${jobId}`, "job failed");
    expect((await conversationCosts(id, ["conv_late"])).get("conv_late")).toBe(0);
  });

  it("keeps one filing when two saves of the same job race", async () => {
    const id = await newUser(50);
    const jobId = `raced-${String(new Types.ObjectId())}`;
    await charge(id, 4, jobId);
    await Promise.all([fileJobs(id, [jobId], "conv_x"), fileJobs(id, [jobId], "conv_y"), fileJobs(id, [jobId, jobId], "conv_z")]);
    expect(await ConversationJob.countDocuments({ userId: id, jobId })).toBe(1);
    const costs = await conversationCosts(id, ["conv_x", "conv_y", "conv_z"]);
    expect([...costs.values()]).toEqual([4]);
  });
});
