import { describe, expect, it } from "vitest";
import type { PDU } from "smpp";
import { parseReceipt, smppTargetOf, sourceTon } from "./smpp";

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
