/**
 * The one owner of video records (SPEC §3 "Video"): processing → completed | failed, with the
 * reason. A record is keyed by the job that pays for it (itself named after the hold): its id
 * derives from the job id, so a retried request upserts the same record instead of making one
 * and deleting it, and the worker and the sweeper find it by its jobId. The API opens it once the charge is held; the video worker records the
 * provider task and the outcome; the hold sweeper fails what nobody can finish any more. Reads
 * (check-status, history) never write. Every transition pushes "video:status" to the owner.
 */
import { createHash } from "node:crypto";
import { Types } from "mongoose";
import type { VideoModelId } from "../constants";
import type { VIDEO_RESOLUTIONS, VideoRatio, VideoStatusName } from "../schemas/videos";
import { VideoModel, type VideoDoc } from "./models/index";
import type { Pusher } from "./realtime";
import { storedFileUrl } from "./storage";

/** The record id of the video a job makes: a stable ObjectId derived from the job id. */
export function videoIdForJob(jobId: string): Types.ObjectId {
  return new Types.ObjectId(createHash("sha256").update(`video:${jobId}`).digest("hex").slice(0, 24));
}

/** Where a video's file is stored. */
export function videoFileKey(userId: string, videoId: string): string {
  return `videos/${userId}/${videoId}.mp4`;
}

export interface OpenVideo {
  jobId: string;
  userId: string;
  prompt: string;
  duration: number;
  model: VideoModelId;
  ratio: VideoRatio;
  resolution: (typeof VIDEO_RESOLUTIONS)[number] | null;
  coinsUsed: number;
  estimatedSeconds: number;
}

/**
 * The "processing" record of a job that was just charged; a retry of the same request (same
 * job id) gets the record the first one opened. Returns it and whether this call opened it.
 */
export async function openVideo(input: OpenVideo, pusher?: Pusher): Promise<{ doc: VideoDoc; opened: boolean }> {
  const _id = videoIdForJob(input.jobId);
  let opened = false;
  try {
    const result = await VideoModel.updateOne({ _id }, { $setOnInsert: { ...input, status: "processing" } }, { upsert: true });
    opened = result.upsertedCount > 0;
  } catch (error) {
    // Two requests racing on one id: the loser's upsert hits the duplicate key; the record is there.
    if ((error as { code?: number }).code !== 11000) throw error;
  }
  const doc = await VideoModel.findById(_id).lean<VideoDoc>();
  if (!doc) throw new Error(`video ${_id.toHexString()} was not recorded`);
  if (opened) push(pusher, doc, "processing");
  return { doc, opened };
}

/** The provider accepted the work: its task id, for support and for polling after a restart. */
export async function recordVideoTask(jobId: string, providerTaskId: string): Promise<void> {
  await VideoModel.updateOne({ jobId, status: "processing" }, { $set: { providerTaskId } });
}

/** processing → completed, with its stored file. False when the video had already ended. */
export async function completeVideo(jobId: string, key: string, pusher?: Pusher): Promise<boolean> {
  const doc = await VideoModel.findOneAndUpdate(
    { jobId, status: "processing" },
    { $set: { status: "completed", key, completedAt: new Date(), error: null } },
    { returnDocument: "after" },
  ).lean<VideoDoc>();
  if (doc) push(pusher, doc, "completed");
  return Boolean(doc);
}

/** processing → failed, with the reason users read. False when the video had already ended. */
export async function failVideo(jobId: string, reason: string, pusher?: Pusher): Promise<boolean> {
  const doc = await VideoModel.findOneAndUpdate(
    { jobId, status: "processing" },
    { $set: { status: "failed", error: reason.slice(0, 300), completedAt: new Date() } },
    { returnDocument: "after" },
  ).lean<VideoDoc>();
  if (doc) push(pusher, doc, "failed");
  return Boolean(doc);
}

/** Videos still "processing" created before `before`, oldest first (for the sweeper). */
export function staleVideos(before: Date, limit: number): Promise<VideoDoc[]> {
  return VideoModel.find({ status: "processing", createdAt: { $lt: before }, ...HAS_JOB })
    .sort({ createdAt: 1 })
    .limit(limit)
    .lean<VideoDoc[]>();
}

/**
 * Records without a job were made by an API that created the record before the charge and died
 * before accepting it; nobody pays for or makes them, so reads do not show them.
 */
const HAS_JOB = { jobId: { $ne: null } };

/** One of the user's videos, or null (another user's video is simply not found). */
export function findVideo(userId: string, id: string): Promise<VideoDoc | null> {
  return VideoModel.findOne({ _id: id, userId, ...HAS_JOB }).lean<VideoDoc>();
}

/** The user's videos, newest first. */
export function listVideos(userId: string, limit = 200): Promise<VideoDoc[]> {
  return VideoModel.find({ userId, ...HAS_JOB })
    .sort({ createdAt: -1, _id: -1 })
    .limit(limit)
    .lean<VideoDoc[]>();
}

function push(pusher: Pusher | undefined, doc: VideoDoc, status: VideoStatusName): void {
  const videoUrl = status === "completed" && doc.key ? storedFileUrl(doc.key) : null;
  pusher?.toUser(String(doc.userId), "video:status", {
    jobId: doc.jobId ?? "",
    videoId: doc._id.toHexString(),
    status,
    videoUrl,
  });
}
