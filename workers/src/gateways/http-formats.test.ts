import { describe, expect, it } from "vitest";
import { gatewayRequest, KANNEL_DLR_MASK, messageIdOf } from "./http-formats";

const config = { gateway_username: "product", gateway_password: "p@ss word", sender_id: "7777" };
const receiptUrl = "https://shop.example/api/sms/integration/receipt.php?t=TOKEN";

describe("outbound HTTP formats", () => {
  it("Kannel sendsms: a GET with the credentials, UTF-8 text and its coding, and a dlr-url Kannel fills in", () => {
    const english = gatewayRequest(
      { ...config, gateway_format: "kannel", gateway_url: "http://kannel:13013/cgi-bin/sendsms" },
      { to: "+966512345678", text: "Hello", reference: "r1", receiptUrl },
    );
    expect(english.method).toBe("GET");
    const query = new URL(english.url).searchParams;
    expect(Object.fromEntries(query)).toEqual({
      username: "product",
      password: "p@ss word",
      from: "7777",
      to: "+966512345678",
      text: "Hello",
      charset: "UTF-8",
      coding: "0",
      "dlr-mask": String(KANNEL_DLR_MASK),
      "dlr-url": `${receiptUrl}&status=%d&answer=%A`,
    });
    const arabic = gatewayRequest(
      { ...config, gateway_format: "kannel", gateway_url: "http://kannel:13013/cgi-bin/sendsms" },
      { to: "+966512345678", text: "مرحبا", reference: "r2" },
    );
    expect(new URL(arabic.url).searchParams.get("coding")).toBe("2");
    expect(new URL(arabic.url).searchParams.get("text")).toBe("مرحبا");
    expect(new URL(arabic.url).searchParams.has("dlr-url")).toBe(false);
  });

  it("Jasmin /send: a form POST, UCS-2 as hex-content, receipts asked at the SMSC level", () => {
    const request = gatewayRequest(
      { ...config, gateway_format: "jasmin", gateway_url: "http://jasmin:1401/send" },
      { to: "+966512345678", text: "مر", reference: "r3", receiptUrl },
    );
    expect(request).toMatchObject({ method: "POST", url: "http://jasmin:1401/send" });
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({
      username: "product",
      password: "p@ss word",
      from: "7777",
      to: "966512345678",
      coding: "8",
      "hex-content": "06450631",
      dlr: "yes",
      "dlr-url": receiptUrl,
      "dlr-level": "2",
      "dlr-method": "POST",
    });
    expect(messageIdOf("jasmin", 'Success "1a3cf5c4-2f4b"')).toBe("1a3cf5c4-2f4b");
    expect(messageIdOf("kannel", "0: Accepted for delivery")).toBeNull();
    expect(messageIdOf("json", '{"message_id":7}')).toBe("7");
  });
});
