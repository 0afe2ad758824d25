// The `smpp` package has no types; the workers declare the part used (an ambient module, so no import).
// oxlint-disable-next-line typescript/triple-slash-reference
/// <reference path="../../workers/src/gateways/node-smpp.d.ts" />
/**
 * A local SMPP server (SMSC) for the tests, 127.0.0.1 only: accepts binds with one account,
 * records submit_sm, answers with a message id and sends a delivery receipt (deliver_sm).
 */
import type { AddressInfo } from "node:net";
import smpp, { type PDU, type Server, type Session } from "smpp";

export interface SmppSubmit {
  to: string;
  from: string;
  dataCoding: number;
  text: string;
  messageId: string;
  at: number;
  /** The concatenation header of a part of a long message (UDH information element 0x00). */
  part?: { ref: number; total: number; seq: number };
}

export class SmppServerPeer {
  readonly submits: SmppSubmit[] = [];
  binds = 0;
  unbinds = 0;
  receiptsSent = 0;
  /** Each delivery receipt sent, and whether the client answered it (deliver_sm_resp). */
  readonly receipts: { messageId: string; acknowledged: boolean }[] = [];
  private readonly sessions = new Set<Session>();
  /** Bound sessions that take deliver_sm (transceivers and receivers): where a subscriber's message goes. */
  private readonly receivers = new Set<Session>();
  private server: Server | null = null;
  port = 0;

  constructor(
    readonly systemId: string,
    readonly password: string,
    private readonly receiptState = "DELIVRD",
  ) {}

  /** The texts a number was sent, long messages put back together from their parts. */
  messagesTo(to: string): string[] {
    const texts: string[] = [];
    const pending = new Map<number, SmppSubmit[]>();
    for (const submit of this.submits.filter((s) => s.to === to)) {
      if (!submit.part) {
        texts.push(submit.text);
        continue;
      }
      const parts = [...(pending.get(submit.part.ref) ?? []), submit];
      pending.set(submit.part.ref, parts);
      if (parts.length === submit.part.total) {
        texts.push(
          parts
            .sort((a, b) => a.part!.seq - b.part!.seq)
            .map((p) => p.text)
            .join(""),
        );
        pending.delete(submit.part.ref);
      }
    }
    return texts;
  }

  async start(): Promise<number> {
    let counter = 0;
    this.server = smpp.createServer((session: Session) => {
      this.sessions.add(session);
      session.on("close", () => {
        this.sessions.delete(session);
        this.receivers.delete(session);
      });
      session.on("error", () => undefined);
      // A transceiver does both; Kannel binds a transmitter and a receiver unless told otherwise.
      for (const mode of ["bind_transceiver", "bind_transmitter", "bind_receiver"] as const) {
        session.on(mode, (pdu: PDU) => {
          if (pdu.system_id !== this.systemId || pdu.password !== this.password) {
            session.send(pdu.response({ command_status: smpp.ESME_RBINDFAIL }));
            session.close();
            return;
          }
          this.binds += 1;
          if (mode !== "bind_transmitter") this.receivers.add(session);
          session.send(pdu.response());
        });
      }
      session.on("enquire_link", (pdu: PDU) => session.send(pdu.response()));
      session.on("unbind", (pdu: PDU) => {
        this.unbinds += 1;
        session.send(pdu.response());
        session.close();
      });
      session.on("submit_sm", (pdu: PDU) => {
        counter += 1;
        const messageId = `smsc-${counter}`;
        const sm = pdu.short_message as { message?: unknown; udh?: Buffer[] } | undefined;
        const short = sm?.message;
        const concat = sm?.udh?.find((ie) => ie[0] === 0x00 && ie[1] === 3);
        const long = (pdu.message_payload as { message?: unknown } | undefined)?.message;
        const text = typeof short === "string" && short ? short : typeof long === "string" ? long : "";
        this.submits.push({
          to: String(pdu.destination_addr),
          from: String(pdu.source_addr),
          dataCoding: Number(pdu.data_coding),
          text,
          messageId,
          at: Date.now(),
          ...(concat ? { part: { ref: concat[2]!, total: concat[3]!, seq: concat[4]! } } : {}),
        });
        session.send(pdu.response({ message_id: messageId }));
        setTimeout(() => {
          const receipt = { messageId, acknowledged: false };
          session.deliver_sm(
            {
              source_addr: pdu.destination_addr,
              destination_addr: pdu.source_addr,
              esm_class: 0x04,
              short_message: `id:${messageId} sub:001 dlvrd:001 submit date:2401010000 done date:2401010000 stat:${this.receiptState} err:000 text:`,
              receipted_message_id: messageId,
            },
            () => (receipt.acknowledged = true),
          );
          this.receipts.push(receipt);
          this.receiptsSent += 1;
        }, 50);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this.port;
  }

  /** Waits (polling every 50 ms, up to `timeoutMs`) until a client is bound to receive. */
  async receiverBound(timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.receivers.size === 0) {
      if (Date.now() > deadline) throw new Error("no client bound to receive within the time");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /**
   * A subscriber's message (MO) as a carrier's SMSC hands it to the gateway: one deliver_sm, GSM
   * default alphabet or UCS-2 (data_coding 8) when the text needs it. Resolves with the gateway's
   * deliver_sm_resp status (0 = taken).
   */
  deliverMo(message: { from: string; to: string; text: string }): Promise<number> {
    const session = [...this.receivers][0];
    if (!session) return Promise.reject(new Error("no client bound to receive"));
    const ucs2 = [...message.text].some((ch) => ch.charCodeAt(0) > 0x7e);
    return new Promise((resolve) => {
      session.deliver_sm(
        {
          source_addr: message.from,
          source_addr_ton: 1,
          source_addr_npi: 1,
          destination_addr: message.to,
          esm_class: 0,
          data_coding: ucs2 ? 8 : 0,
          short_message: message.text,
        },
        (pdu: PDU) => resolve(pdu.command_status),
      );
    });
  }

  /** Cuts every bound client off, as a network loss would. */
  dropSessions(): void {
    for (const session of this.sessions) session.destroy();
    this.sessions.clear();
  }

  get openSessions(): number {
    return this.sessions.size;
  }

  async stop(): Promise<void> {
    this.dropSessions();
    if (!this.server) return;
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = null;
  }
}
