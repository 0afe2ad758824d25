/**
 * The server's VAPID key pair for Web Push (RFC 8292): VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY from the
 * environment, else the pair kept in DATA_DIR/vapid.json, made on first run. Browsers subscribe
 * with the public key, so it must outlive restarts: a new pair would orphan every subscription.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import webpush from "web-push";

export function vapidKeys(
  dataDir: string,
  env: NodeJS.ProcessEnv = process.env,
): { VAPID_PUBLIC_KEY: string; VAPID_PRIVATE_KEY: string } {
  if (env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY) {
    return { VAPID_PUBLIC_KEY: env.VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: env.VAPID_PRIVATE_KEY };
  }
  const file = path.join(dataDir, "vapid.json");
  if (!existsSync(file)) writeFileSync(file, JSON.stringify(webpush.generateVAPIDKeys()), { mode: 0o600, flag: "wx" });
  const { publicKey, privateKey } = JSON.parse(readFileSync(file, "utf8")) as { publicKey: string; privateKey: string };
  return { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey };
}
