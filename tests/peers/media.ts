/** Checks that a file really is an MP4 of a given length, using the bundled ffmpeg (no ffprobe needed). */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import ffmpeg from "@ffmpeg-installer/ffmpeg";

export interface Mp4Info {
  durationSeconds: number;
  width: number;
  height: number;
  codec: string;
}

export function isMp4(bytes: Buffer): boolean {
  return bytes.length > 12 && bytes.subarray(4, 8).toString("latin1") === "ftyp";
}

/** Reads duration, size and codec from `ffmpeg -i` (it prints the input's description, then exits 1). */
export function mp4Info(bytes: Buffer): Mp4Info {
  const dir = mkdtempSync(path.join(tmpdir(), "mp4-info-"));
  try {
    const file = path.join(dir, "in.mp4");
    writeFileSync(file, bytes);
    const out = spawnSync(ffmpeg.path, ["-hide_banner", "-i", file], { encoding: "utf8" }).stderr;
    const duration = /Duration: (\d+):(\d+):(\d+(?:\.\d+)?)/u.exec(out);
    const stream = /Video: (\w+).*?, (\d+)x(\d+)/u.exec(out);
    if (!duration || !stream) throw new Error(`not a readable video: ${out.slice(-300)}`);
    return {
      durationSeconds: Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3]),
      codec: stream[1]!,
      width: Number(stream[2]),
      height: Number(stream[3]),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
