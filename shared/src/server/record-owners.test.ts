/**
 * Every record with a lifecycle has one module that writes it (STYLE.md 12), and routes call
 * services instead of writing: a scan of the source (tests aside) for the mongoose write calls.
 * A tripwire, not a proof: a model passed around as a value escapes it, so the owner modules do
 * not export their models' write paths any other way.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const SOURCES = ["api/src", "workers/src", "shared/src", "scripts"];

/** Model → the one file that writes it, and its collection's name (for raw driver access). */
const OWNERS: Record<string, { owner: string; collection: string }> = {
  ImageModel: { owner: "shared/src/server/images.ts", collection: "images" },
  SmsLog: { owner: "shared/src/server/sms-logs.ts", collection: "smslogs" },
  PackageAssignmentModel: { owner: "shared/src/server/package-assignments.ts", collection: "packageassignments" },
  VideoModel: { owner: "shared/src/server/videos.ts", collection: "videos" },
  Conversation: { owner: "api/src/services/conversations.ts", collection: "conversations" },
  PushSubscriptionModel: { owner: "shared/src/server/web-push.ts", collection: "pushsubscriptions" },
};

const WRITES =
  "create|insertMany|insertOne|updateOne|updateMany|findOneAndUpdate|findByIdAndUpdate|findOneAndDelete|findByIdAndDelete|findOneAndReplace|deleteOne|deleteMany|replaceOne|bulkWrite";

function sourceFiles(): { file: string; text: string }[] {
  return SOURCES.flatMap((dir) =>
    readdirSync(path.join(ROOT, dir), { recursive: true, encoding: "utf8" })
      .map((name) => path.posix.join(dir, name.split(path.sep).join("/")))
      .filter((file) => /\.tsx?$/u.test(file) && !/\.test\.tsx?$/u.test(file) && !file.includes("node_modules/"))
      .map((file) => ({ file, text: readFileSync(path.join(ROOT, file), "utf8") })),
  );
}

/** "file:line: code" for every match of `pattern` in `text`. */
function matches(file: string, text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((m) => {
    const line = text.slice(0, m.index).split("\n").length;
    return `${file}:${line}: ${m[0].replace(/\s+/gu, " ")}`;
  });
}

describe("record owners", () => {
  const files = sourceFiles();

  it("reads the source it guards", () => {
    const owners = Object.values(OWNERS).map((o) => o.owner);
    expect(files.map((f) => f.file)).toEqual(expect.arrayContaining(owners));
    expect(files.length).toBeGreaterThan(100);
  });

  it("lets only each record's owner module write it", () => {
    const strays = Object.entries(OWNERS).flatMap(([model, { owner, collection }]) => {
      const write = new RegExp(
        `\\b${model}\\s*\\.\\s*(?:(?:${WRITES})\\s*\\(|collection\\b)|\\bnew\\s+${model}\\s*\\(|\\b${model}\\s+as\\s+\\w|collection\\(\\s*["'\`]${collection}["'\`]`,
        "gu",
      );
      return files.filter((f) => f.file !== owner).flatMap((f) => matches(f.file, f.text, write));
    });
    expect(strays).toEqual([]);
  });

  it("finds a stray write where there is one", () => {
    const write = new RegExp(`\\bImageModel\\s*\\.\\s*(?:(?:${WRITES})\\s*\\()`, "gu");
    expect(matches("x.ts", "await ImageModel\n  .updateOne({}, {});", write)).toEqual(["x.ts:1: ImageModel .updateOne("]);
  });

  it("keeps writes out of route files: a route calls a service", () => {
    const write = new RegExp(`\\b[A-Z]\\w*\\s*\\.\\s*(?:${WRITES})\\s*\\(`, "gu");
    const strays = files.filter((f) => f.file.startsWith("api/src/routes/")).flatMap((f) => matches(f.file, f.text, write));
    expect(strays).toEqual([]);
  });
});
