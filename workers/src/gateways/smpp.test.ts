import { describe, expect, it } from "vitest";
import type { PDU } from "smpp";
import { parseInbound, parseReceipt, smppTargetOf, sourceTon } from "./smpp";

const pdu = (fields: Record<string, unknown>) => fields as unknown as PDU;

describe("parseReceipt", () => {
  it("reads the receipted id TLV and the stat of the receipt text", () => {
    const receipt = parseReceipt(
      pdu({
        esm_class: 0x04,
        receipted_message_id: "abc",
        short_message: { message: "id:abc sub:001 dlvrd:001 stat:DELIVRD err:000 text:" },
      }),
      "smsc.example:2775",
    );
    expect(receipt).toMatchObject({ messageId: "abc", smsc: "smsc.example:2775", state: "DELIVRD", error: "000" });
  });

  it("falls back to the id in the text", () => {
    expect(parseReceipt(pdu({ esm_class: 0x04, short_message: { message: "id:77 stat:UNDELIV err:001" } }), "s:1")).toMatchObject(
      {
        messageId: "77",
        state: "UNDELIV",
      },
    );
  });

  it("is not fooled by an ordinary inbound message", () => {
    expect(parseReceipt(pdu({ esm_class: 0, short_message: { message: "id:1 stat:DELIVRD" } }), "s:1")).toBeNull();
  });
});

describe("smppTargetOf", () => {
  it("takes the host from apiUrl and the port from the port field", () => {
    expect(
      smppTargetOf({ apiUrl: "smpp://smsc.example.com:9999", port: 2775, username: "u", password: "p", shortcode: "123" }),
    ).toEqual({ host: "smsc.example.com", port: 2775, systemId: "u", password: "p", source: "123" });
  });
});

describe("sourceTon", () => {
  it("tells short codes, full numbers and sender names apart", () => {
    expect(sourceTon("7777")).toBe(3);
    expect(sourceTon("+15550001234")).toBe(1);
    expect(sourceTon("AIStore")).toBe(5);
  });
});

describe("parseInbound", () => {
  it("reads a subscriber's message: international sender with +, decoded text, and not a receipt", () => {
    const message = parseInbound(
      pdu({
        esm_class: 0,
        data_coding: 8,
        source_addr: "966512345678",
        source_addr_ton: 1,
        destination_addr: "7000",
        short_message: { message: "مرحبا" },
      }),
      "127.0.0.1:2775",
    );
    expect(message).toEqual({ smsc: "127.0.0.1:2775", from: "+966512345678", to: "7000", text: "مرحبا" });
    expect(parseInbound(pdu({ esm_class: 0x04, short_message: { message: "id:1 stat:DELIVRD" } }), "s:1")).toBeNull();
  });

  it("keeps the concatenation of a part (UDH 8-bit and 16-bit references, SAR TLVs) and refuses binary data", () => {
    const part = (fields: Record<string, unknown>) =>
      parseInbound(pdu({ esm_class: 0x40, source_addr: "5550001", destination_addr: "7000", ...fields }), "s:1")?.part;
    expect(part({ short_message: { message: "a", udh: [Buffer.from([0x00, 3, 9, 2, 1])] } })).toEqual({
      ref: 9,
      total: 2,
      seq: 1,
    });
    expect(part({ short_message: { message: "a", udh: [Buffer.from([0x08, 4, 1, 2, 3, 2])] } })).toEqual({
      ref: 258,
      total: 3,
      seq: 2,
    });
    expect(
      parseInbound(
        pdu({ esm_class: 0, short_message: { message: "a" }, sar_msg_ref_num: 5, sar_total_segments: 2, sar_segment_seqnum: 2 }),
        "s:1",
      )?.part,
    ).toEqual({ ref: 5, total: 2, seq: 2 });
    expect(
      parseInbound(pdu({ esm_class: 0, data_coding: 4, short_message: { message: Buffer.from([1, 2]) } }), "s:1"),
    ).toBeNull();
  });
});
