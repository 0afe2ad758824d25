/**
 * A push service on 127.0.0.1 for the tests: it takes what our server sends as a browser vendor's
 * service would (RFC 8030 §5: POST to the subscription's endpoint with TTL, a VAPID `Authorization`
 * per RFC 8292, an `aes128gcm` body per RFC 8188) and decrypts the payload with the subscription's
 * own private key and auth secret (RFC 8291), written here from the RFCs, independently of the
 * `web-push` library that encrypts it. It answers 201 Created, or 410 Gone for a subscription told
 * to be gone (so the server must forget it). Over HTTPS, as every push service is (`web-push` speaks
 * nothing else): a certificate for 127.0.0.1 made once per run, which the stack's processes trust
 * (NODE_EXTRA_CA_CERTS, tests/setup/global.ts).
 */
import {
  createECDH,
  createHmac,
  createDecipheriv,
  createPublicKey,
  randomBytes,
  randomUUID,
  verify,
  type ECDH,
} from "node:crypto";
import { spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import type http from "node:http";
import https from "node:https";
import path from "node:path";
import { ensureBinary } from "../../scripts/lib/infra";
import type { AddressInfo } from "node:net";

export interface PushSubscriptionJson {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface ReceivedPush {
  /** The decrypted payload, as text. */
  text: string;
  ttl: number;
  urgency: string | undefined;
  /** The VAPID JWT's claims, after its signature was checked with the `k` the header carried. */
  claims: { aud: string; exp: number; sub: string };
  /** The `k` of the VAPID header: the server's public key (base64url). */
  vapidKey: string;
}

interface Device {
  ecdh: ECDH;
  auth: Buffer;
  gone: boolean;
  received: ReceivedPush[];
  waiters: ((push: ReceivedPush) => void)[];
}

/** A self-signed certificate for 127.0.0.1 in `dir` (made once): the push service's, and the CA the stack trusts. */
export function pushServiceCertificate(dir: string): { certFile: string; keyFile: string } {
  const certFile = path.join(dir, "push-service.crt");
  const keyFile = path.join(dir, "push-service.key");
  if (existsSync(certFile) && existsSync(keyFile)) return { certFile, keyFile };
  const openssl = ensureBinary("openssl", "openssl");
  const made = spawnSync(
    openssl,
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-keyout",
      keyFile,
      "-out",
      certFile,
      "-days",
      "7",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
    ],
    { encoding: "utf8" },
  );
  if (made.status !== 0) throw new Error(`openssl could not make the push service's certificate: ${made.stderr}`);
  return { certFile, keyFile };
}

const b64url = (data: Buffer) => data.toString("base64url");
const hmac = (key: Buffer, data: Buffer) => createHmac("sha256", key).update(data).digest();

/** RFC 8291 §3.4 and RFC 8188 §2: the plaintext of an `aes128gcm` body sent to the device. */
function decryptPush(body: Buffer, device: { ecdh: ECDH; auth: Buffer }): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  const senderPublic = body.subarray(21, 21 + idLength);
  const records = body.subarray(21 + idLength);
  if (idLength !== 65) throw new Error(`keyid must be the sender's 65-byte public key, got ${idLength} bytes`);
  if (records.length > recordSize) throw new Error("a push payload is one record");
  const ecdhSecret = device.ecdh.computeSecret(senderPublic);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), device.ecdh.getPublicKey(), senderPublic]);
  const ikm = hmac(hmac(device.auth, ecdhSecret), Buffer.concat([keyInfo, Buffer.from([1])]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from("Content-Encoding: aes128gcm\0\x01")).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from("Content-Encoding: nonce\0\x01")).subarray(0, 12);
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(records.subarray(records.length - 16));
  const padded = Buffer.concat([decipher.update(records.subarray(0, records.length - 16)), decipher.final()]);
  // The last record ends with 0x02 then zero padding (RFC 8188 §2).
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error("the last record's delimiter is not 0x02");
  return padded.subarray(0, end).toString("utf8");
}

/** RFC 8292: `vapid t=<JWT>, k=<key>`, the JWT signed ES256 by the key's private half. */
function checkVapid(header: string | undefined): { claims: ReceivedPush["claims"]; key: string } {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/u.exec(header ?? "");
  if (!match) throw new Error(`Authorization is not a VAPID header: ${header}`);
  const [, jwt, key] = match;
  const [head, claims, signature] = jwt!.split(".");
  const point = Buffer.from(key!, "base64url");
  const publicKey = createPublicKey({
    key: { kty: "EC", crv: "P-256", x: b64url(point.subarray(1, 33)), y: b64url(point.subarray(33, 65)) },
    format: "jwk",
  });
  const signed = Buffer.from(`${head}.${claims}`);
  const valid = verify("sha256", signed, { key: publicKey, dsaEncoding: "ieee-p1363" }, Buffer.from(signature!, "base64url"));
  if (!valid) throw new Error("the VAPID signature does not verify with its k");
  const parsedHead = JSON.parse(Buffer.from(head!, "base64url").toString()) as { alg: string };
  if (parsedHead.alg !== "ES256") throw new Error(`VAPID alg ${parsedHead.alg}`);
  return { claims: JSON.parse(Buffer.from(claims!, "base64url").toString()) as ReceivedPush["claims"], key: key! };
}

export class PushService {
  private readonly devices = new Map<string, Device>();
  /** Requests refused, with why (a test expects none). */
  readonly refused: string[] = [];
  private server?: https.Server;
  origin = "";

  constructor(private readonly tls: { certFile: string; keyFile: string }) {}

  async start(): Promise<this> {
    const options = { cert: readFileSync(this.tls.certFile), key: readFileSync(this.tls.keyFile) };
    this.server = https.createServer(options, (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => this.answer(req, Buffer.concat(chunks), res));
    });
    this.server.listen(0, "127.0.0.1");
    await once(this.server, "listening");
    this.origin = `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** A new device: what its browser's `PushSubscription.toJSON()` would give. */
  subscribe(): PushSubscriptionJson {
    const id = randomUUID();
    const ecdh = createECDH("prime256v1");
    ecdh.generateKeys();
    const auth = randomBytes(16);
    this.devices.set(id, { ecdh, auth, gone: false, received: [], waiters: [] });
    return { endpoint: `${this.origin}/push/${id}`, keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(auth) } };
  }

  /** From now on the device's endpoint answers 410 Gone (the user revoked it in the browser). */
  revoke(subscription: PushSubscriptionJson): void {
    this.device(subscription).gone = true;
  }

  received(subscription: PushSubscriptionJson): ReceivedPush[] {
    return this.device(subscription).received;
  }

  /** The next push the device receives (or one it already has beyond `after`). */
  next(subscription: PushSubscriptionJson, after = 0, timeoutMs = 20_000): Promise<ReceivedPush> {
    const device = this.device(subscription);
    const have = device.received[after];
    if (have) return Promise.resolve(have);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no push reached ${subscription.endpoint}`)), timeoutMs);
      device.waiters.push((push) => {
        clearTimeout(timer);
        resolve(push);
      });
    });
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private device(subscription: PushSubscriptionJson): Device {
    const device = this.devices.get(subscription.endpoint.split("/").pop()!);
    if (!device) throw new Error(`unknown endpoint ${subscription.endpoint}`);
    return device;
  }

  private answer(req: http.IncomingMessage, body: Buffer, res: http.ServerResponse): void {
    const refuse = (status: number, why: string) => {
      this.refused.push(`${req.method} ${req.url}: ${why}`);
      res.writeHead(status).end(why);
    };
    const id = /^\/push\/([\w-]+)$/u.exec(req.url ?? "")?.[1];
    const device = id ? this.devices.get(id) : undefined;
    if (req.method !== "POST" || !device) return refuse(404, "no such subscription");
    if (device.gone) return void res.writeHead(410).end();
    const ttl = Number(req.headers.ttl);
    if (req.headers.ttl === undefined || !Number.isInteger(ttl) || ttl < 0) return refuse(400, "TTL is required (RFC 8030 §5.2)");
    if (req.headers["content-encoding"] !== "aes128gcm")
      return refuse(415, `Content-Encoding ${req.headers["content-encoding"]}`);
    try {
      const { claims, key } = checkVapid(req.headers.authorization);
      if (claims.aud !== this.origin) throw new Error(`aud ${claims.aud} is not this service's origin`);
      if (claims.exp * 1000 <= Date.now() || claims.exp * 1000 > Date.now() + 24 * 3600_000)
        throw new Error("exp not within 24 h");
      const push: ReceivedPush = {
        text: decryptPush(body, device),
        ttl,
        urgency: req.headers.urgency as string | undefined,
        claims,
        vapidKey: key,
      };
      device.received.push(push);
      for (const waiter of device.waiters.splice(0)) waiter(push);
      res.writeHead(201, { Location: `${this.origin}/message/${randomUUID()}` }).end();
    } catch (error) {
      refuse(400, (error as Error).message);
    }
  }
}
