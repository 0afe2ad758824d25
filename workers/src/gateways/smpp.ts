/**
 * SMS over SMPP (npm `smpp`): one transceiver link per gateway of the SMS Config list, kept bound
 * with enquire_link, re-bound with backoff when lost. It sends the replies (submit_sm) and takes
 * what the gateway delivers (deliver_sm): receipts, and subscribers' messages (MO), which go to the
 * same pipeline as the webhook's.
 */
import { createHash } from "node:crypto";
import smpp, { type PDU, type Session } from "smpp";
import { smsEncoding, smsParts } from "@storefront/shared";
import { DEFAULT_RETRY, GatewayError, withRetries, type OutboundSms, type RetryPolicy, type SendResult } from "./types";

export interface SmppTarget {
  host: string;
  port: number;
  systemId: string;
  password: string;
  /** source_addr of outbound messages (the shortcode). */
  source: string;
}

export interface DeliveryReceipt {
  /** The id submit_sm_resp gave the message. */
  messageId: string;
  /** The SMSC that sent the receipt (`smscOf`): its ids are unique only within it. */
  smsc: string;
  /** DELIVRD, UNDELIV, EXPIRED, REJECTD... */
  state: string;
  error: string | null;
  raw: string;
}

export interface SmppOptions {
  enquireLinkMs?: number;
  /** How long a send waits for the link to be bound. */
  bindWaitMs?: number;
  submitTimeoutMs?: number;
  /** Re-bind backoff: first wait, doubled up to maxRebindDelayMs. */
  rebindDelayMs?: number;
  maxRebindDelayMs?: number;
  retry?: RetryPolicy;
  onReceipt?: (receipt: DeliveryReceipt) => void;
  /**
   * A subscriber's message (a deliver_sm that is not a receipt). The gateway gets its
   * deliver_sm_resp once this resolves, and a temporary error (it delivers again later) if it fails.
   */
  onInbound?: (message: InboundSm) => Promise<void>;
  onEvent?: (event: string, details: Record<string, unknown>) => void;
}

/** A subscriber's message as a deliver_sm carried it. */
export interface InboundSm {
  smsc: string;
  /** "+" and the digits when the gateway marked the number international (TON 1). */
  from: string;
  to: string;
  text: string;
  /** One part of a concatenated message (UDH or SAR TLVs). */
  part?: { ref: number; total: number; seq: number };
}

const ESM_DELIVERY_RECEIPT = 0x04;
/** deliver_sm_resp status that makes the SMSC deliver the message again later (ESME_RX_T_APPN). */
const ESME_RX_T_APPN = 0x64;
/** Type of number: international (E.164 digits), network-specific (short codes) or alphanumeric. */
const TON = { international: 1, networkSpecific: 3, alphanumeric: 5 } as const;
const NPI_ISDN = 1;
const UCS2 = 0x08;
/** 8-bit concatenation information element (3GPP TS 23.040 9.2.3.24.1): id 0x00, length 3. */
const CONCAT_IE = [0x05, 0x00, 0x03] as const;

/** SMSCs route a reply by its sender's kind: a short code, a full number or a name. */
export function sourceTon(source: string): number {
  if (!/^\+?\d+$/u.test(source)) return TON.alphanumeric;
  return source.replace(/^\+/u, "").length <= 8 ? TON.networkSpecific : TON.international;
}

/**
 * Names an SMSC by its address. Message ids are the SMSC's own (often a counter), so two SMSCs can
 * give the same id: a receipt is matched to a message by the id and the SMSC it came from.
 */
export function smscOf(target: Pick<SmppTarget, "host" | "port">): string {
  return `${target.host}:${target.port}`;
}

/** Reads a receipt from deliver_sm: the receipted_message_id TLV or the "id:... stat:..." text. */
export function parseReceipt(pdu: PDU, smsc: string): DeliveryReceipt | null {
  const esm = typeof pdu.esm_class === "number" ? pdu.esm_class : 0;
  if ((esm & 0x3c) !== ESM_DELIVERY_RECEIPT) return null;
  const sm = pdu.short_message as { message?: unknown } | Buffer | string | undefined;
  const raw =
    typeof sm === "string" ? sm : Buffer.isBuffer(sm) ? sm.toString("latin1") : typeof sm?.message === "string" ? sm.message : "";
  const id =
    typeof pdu.receipted_message_id === "string" && pdu.receipted_message_id
      ? pdu.receipted_message_id
      : /id:(\S+)/iu.exec(raw)?.[1];
  if (!id) return null;
  const state = /stat:(\w+)/iu.exec(raw)?.[1]?.toUpperCase() ?? "UNKNOWN";
  const error = /err:(\w+)/iu.exec(raw)?.[1] ?? null;
  return { messageId: id, smsc, state, error, raw };
}

/** The concatenation of a part: UDH element 0x00 (8-bit reference) or 0x08 (16-bit), or the SAR TLVs. */
function partOf(udh: Buffer[] | undefined, pdu: PDU): InboundSm["part"] {
  for (const ie of udh ?? []) {
    if (ie[0] === 0x00 && ie[1] === 3) return { ref: ie[2]!, total: ie[3]!, seq: ie[4]! };
    if (ie[0] === 0x08 && ie[1] === 4) return { ref: ie.readUInt16BE(2), total: ie[4]!, seq: ie[5]! };
  }
  const [ref, total, seq] = [pdu.sar_msg_ref_num, pdu.sar_total_segments, pdu.sar_segment_seqnum];
  if (typeof ref === "number" && typeof total === "number" && typeof seq === "number" && total > 1) return { ref, total, seq };
  return undefined;
}

/**
 * A subscriber's message from a deliver_sm that is not a receipt. The `smpp` package decodes the
 * text by data_coding (default alphabet, Latin-1, UCS-2); binary data (a ringtone, a WAP push) is
 * no text message and gives null.
 */
export function parseInbound(pdu: PDU, smsc: string): InboundSm | null {
  const esm = typeof pdu.esm_class === "number" ? pdu.esm_class : 0;
  if ((esm & 0x3c) !== 0) return null;
  const coding = (typeof pdu.data_coding === "number" ? pdu.data_coding : 0) & 0x0f;
  if (coding === 2 || coding === 4) return null;
  const sm = pdu.short_message as { message?: unknown; udh?: Buffer[] } | undefined;
  const payload = pdu.message_payload as { message?: unknown; udh?: Buffer[] } | undefined;
  const body = typeof sm?.message === "string" && sm.message ? sm : payload;
  if (typeof body?.message !== "string") return null;
  const source = String(pdu.source_addr ?? "");
  const from = pdu.source_addr_ton === TON.international && /^\d+$/u.test(source) ? `+${source}` : source;
  const part = partOf(body.udh, pdu);
  return { smsc, from, to: String(pdu.destination_addr ?? ""), text: body.message, ...(part ? { part } : {}) };
}

/** One bound transceiver session to one SMSC, re-bound whenever it drops. */
export class SmppLink {
  private session: Session | null = null;
  private bound = false;
  private closed = false;
  private rebindDelay: number;
  private rebindTimer: NodeJS.Timeout | null = null;
  private waiters: { resolve: (s: Session) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }[] = [];
  /** Binds so far, for tests and metrics. */
  binds = 0;

  constructor(
    readonly target: SmppTarget,
    private readonly options: SmppOptions = {},
  ) {
    this.rebindDelay = options.rebindDelayMs ?? 500;
  }

  get isBound(): boolean {
    return this.bound;
  }

  private emit(event: string, details: Record<string, unknown> = {}): void {
    this.options.onEvent?.(event, { host: this.target.host, port: this.target.port, ...details });
  }

  private connect(): void {
    if (this.closed || this.session) return;
    const session = smpp.connect({
      host: this.target.host,
      port: this.target.port,
      auto_enquire_link_period: this.options.enquireLinkMs ?? 15_000,
    });
    this.session = session;
    session.on("connect", () => {
      // Closed while connecting: no bind, just go.
      if (this.closed) return session.destroy();
      session.bind_transceiver({ system_id: this.target.systemId, password: this.target.password }, (pdu) => {
        if (this.closed) return session.destroy();
        if (pdu.command_status !== 0) {
          this.emit("bind_failed", { status: pdu.command_status });
          session.destroy();
          return;
        }
        this.bound = true;
        this.binds += 1;
        this.rebindDelay = this.options.rebindDelayMs ?? 500;
        this.emit("bound", { binds: this.binds });
        for (const waiter of this.waiters.splice(0)) {
          clearTimeout(waiter.timer);
          waiter.resolve(session);
        }
      });
    });
    session.on("deliver_sm", (pdu: PDU) => {
      const receipt = parseReceipt(pdu, smscOf(this.target));
      const inbound = receipt ? null : parseInbound(pdu, smscOf(this.target));
      if (!inbound || !this.options.onInbound) {
        session.send(pdu.response());
        if (receipt) this.options.onReceipt?.(receipt);
        return;
      }
      this.options.onInbound(inbound).then(
        () => session.send(pdu.response()),
        (error: unknown) => {
          this.emit("inbound_failed", { error: error instanceof Error ? error.message : String(error) });
          session.send(pdu.response({ command_status: ESME_RX_T_APPN }));
        },
      );
    });
    session.on("enquire_link", (pdu: PDU) => session.send(pdu.response()));
    session.on("unbind", (pdu: PDU) => {
      session.send(pdu.response());
      session.close();
    });
    session.on("error", (error: Error) => this.emit("error", { error: error.message }));
    session.on("close", () => {
      if (this.session === session) {
        this.session = null;
        this.bound = false;
        this.emit("closed");
        this.scheduleRebind();
      }
    });
  }

  private scheduleRebind(): void {
    if (this.closed || this.rebindTimer) return;
    const delay = this.rebindDelay;
    this.rebindDelay = Math.min(this.rebindDelay * 2, this.options.maxRebindDelayMs ?? 30_000);
    this.rebindTimer = setTimeout(() => {
      this.rebindTimer = null;
      this.connect();
    }, delay);
    this.rebindTimer.unref();
  }

  /** The bound session, connecting and binding first when needed. */
  ready(): Promise<Session> {
    if (this.closed) return Promise.reject(new GatewayError("SMPP link is closed", false));
    if (this.bound && this.session) return Promise.resolve(this.session);
    this.connect();
    const waitMs = this.options.bindWaitMs ?? 10_000;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.timer !== timer);
        reject(new GatewayError(`SMPP gateway not bound within ${waitMs} ms`, true));
      }, waitMs);
      this.waiters.push({ resolve, reject, timer });
    });
  }

  /**
   * One message: a single submit_sm, or one per part with a concatenation header (UDH) when it
   * is longer than one SMS, the parts the charge counted (smsParts). The reference byte comes from
   * the message's own reference, so a retried send repeats the same parts and the handset drops
   * any it already has. The first part's id is the message's id; its receipt is the message's.
   */
  private async submitOnce(sms: OutboundSms): Promise<SendResult> {
    const session = await this.ready();
    const ucs2 = smsEncoding(sms.text).encoding === "UCS-2";
    const parts = smsParts(sms.text);
    if (parts.length === 1) return this.submitPdu(session, ucs2, sms.to, sms.text);
    const ref = createHash("sha256").update(sms.reference).digest()[0]!;
    const results: SendResult[] = [];
    for (const [i, text] of parts.entries()) {
      const udh = Buffer.from([...CONCAT_IE, ref, parts.length, i + 1]);
      results.push(await this.submitPdu(session, ucs2, sms.to, { udh, message: text }));
    }
    return {
      gatewayMessageId: results[0]!.gatewayMessageId,
      partIds: results.slice(1).flatMap((r) => (r.gatewayMessageId ? [r.gatewayMessageId] : [])),
      response: JSON.stringify({ parts: results.map((r) => JSON.parse(r.response) as unknown) }),
    };
  }

  private submitPdu(session: Session, ucs2: boolean, to: string, message: string | { udh: Buffer; message: string }) {
    const timeoutMs = this.options.submitTimeoutMs ?? 10_000;
    return new Promise<SendResult>((resolve, reject) => {
      const onClose = () => finish(new GatewayError("SMPP link lost before submit_sm_resp", true));
      const timer = setTimeout(() => finish(new GatewayError(`no submit_sm_resp within ${timeoutMs} ms`, true)), timeoutMs);
      const finish = (error: Error | null, result?: SendResult) => {
        clearTimeout(timer);
        session.off("close", onClose);
        if (error) reject(error);
        else resolve(result!);
      };
      session.once("close", onClose);
      const sent = session.submit_sm(
        {
          source_addr: this.target.source,
          source_addr_ton: sourceTon(this.target.source),
          source_addr_npi: /^\d+$/u.test(this.target.source) ? NPI_ISDN : 0,
          destination_addr: to.replace(/^\+/u, ""),
          dest_addr_ton: TON.international,
          dest_addr_npi: NPI_ISDN,
          registered_delivery: 1,
          esm_class: 0,
          data_coding: ucs2 ? UCS2 : 0,
          short_message: message,
        },
        (pdu) => {
          const messageId = typeof pdu.message_id === "string" ? pdu.message_id : null;
          const response = JSON.stringify({ command_status: pdu.command_status, message_id: messageId });
          if (pdu.command_status === 0) return finish(null, { gatewayMessageId: messageId, response });
          const retryable = pdu.command_status === smpp.ESME_RTHROTTLED || pdu.command_status === smpp.ESME_RMSGQFUL;
          finish(new GatewayError(`submit_sm refused with status ${pdu.command_status}`, retryable, response));
        },
      );
      if (!sent) finish(new GatewayError("SMPP socket not writable", true));
    });
  }

  submit(sms: OutboundSms): Promise<SendResult> {
    return withRetries(() => this.submitOnce(sms), this.options.retry ?? DEFAULT_RETRY);
  }

  /** Unbinds (the SMSC sees a clean goodbye) and resolves once the socket is closed, at most ~1 s. */
  close(): Promise<void> {
    this.closed = true;
    if (this.rebindTimer) clearTimeout(this.rebindTimer);
    for (const waiter of this.waiters.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.reject(new GatewayError("SMPP link is closed", false));
    }
    const session = this.session;
    this.session = null;
    this.bound = false;
    if (!session) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        session.destroy();
        resolve();
      }, 1000);
      timer.unref();
      session.once("close", () => {
        clearTimeout(timer);
        resolve();
      });
      // Still connecting: there is no bind to undo.
      if (session.socket.writable && !session.socket.connecting) session.unbind(() => session.close());
      else session.destroy();
    });
  }
}

const linkKey = (target: SmppTarget) => `${target.host}:${target.port}:${target.systemId}:${target.password}:${target.source}`;

/** One link per SMSC account, created on first use and shared by every job of the process. */
export class SmppLinks {
  private readonly links = new Map<string, SmppLink>();

  constructor(private readonly options: SmppOptions = {}) {}

  link(target: SmppTarget): SmppLink {
    const key = linkKey(target);
    let link = this.links.get(key);
    if (!link) {
      link = new SmppLink(target, this.options);
      this.links.set(key, link);
    }
    return link;
  }

  /**
   * Keeps exactly these gateways bound (the SMS Config list): a gateway delivers subscribers'
   * messages only to a bound client, so the links are opened at start, not at the first reply.
   * Links of gateways no longer listed are unbound.
   */
  keepBound(targets: SmppTarget[], onError: (error: unknown) => void): void {
    const wanted = new Set(targets.map(linkKey));
    for (const [key, link] of this.links) {
      if (wanted.has(key)) continue;
      this.links.delete(key);
      void link.close();
    }
    for (const target of targets) this.link(target).ready().catch(onError);
  }

  /** Every link unbound and closed: the worker's shutdown awaits this. */
  async closeAll(): Promise<void> {
    const links = [...this.links.values()];
    this.links.clear();
    await Promise.all(links.map((link) => link.close()));
  }
}

/** The SMSC address of an SMS Config row: host from apiUrl, port from the port field. */
export function smppTargetOf(gateway: {
  apiUrl: string;
  port: number;
  username: string;
  password: string;
  shortcode: string;
}): SmppTarget {
  return {
    host: new URL(gateway.apiUrl).hostname,
    port: gateway.port,
    systemId: gateway.username,
    password: gateway.password,
    source: gateway.shortcode,
  };
}
