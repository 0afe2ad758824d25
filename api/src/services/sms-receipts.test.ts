import { describe, expect, it } from "vitest";
import { receiptFields, receiptState } from "./sms-receipts";

describe("HTTP delivery receipts", () => {
  it("reads Kannel's receipt (captured: status=%d, answer=%A in the query)", () => {
    const fields = receiptFields(
      "/api/sms/integration/receipt.php?t=rLNkiDHhW-gSmhW6f0t-kqtlzzsb10u8&status=1&answer=id%3Asmsc-1+sub%3A001+dlvrd%3A001+submit+date%3A2401010000+done+date%3A2401010000+stat%3ADELIVRD+err%3A000+text%3A",
      Buffer.alloc(0),
    );
    expect(fields.t).toBe("rLNkiDHhW-gSmhW6f0t-kqtlzzsb10u8");
    expect(receiptState(fields)).toBe("DELIVRD");
    expect(receiptState({ status: "16" })).toBe("REJECTD");
    expect(receiptState({ status: "2", answer: "id:1 stat:EXPIRED err:000" })).toBe("EXPIRED");
    expect(receiptState({ status: "8" })).toBeNull();
  });

  it("reads Jasmin's receipt (captured: a form POST) and ignores its level-1 submit acknowledgement", () => {
    const body =
      "id=a5a0d530-952f-499a-8324-0abcaaf1f9f2&level=2&message_status=DELIVRD&connector=smsc-11&id_smsc=SMSC-11&sub=001&dlvrd=001" +
      "&subdate=2401010000&donedate=2401010000&err=000&text=";
    const fields = receiptFields("/api/sms/integration/receipt.php?t=CARJbf_XEhlxJu9lWCVqGCIyuR3BRkWH", Buffer.from(body));
    expect(fields).toMatchObject({ t: "CARJbf_XEhlxJu9lWCVqGCIyuR3BRkWH", message_status: "DELIVRD", level: "2" });
    expect(receiptState(fields)).toBe("DELIVRD");
    expect(receiptState({ message_status: "ESME_ROK", level: "1" })).toBeNull();
    expect(receiptState({ message_status: "ESME_ROK", level: "3" })).toBeNull();
    expect(receiptState({ message_status: "<script>", level: "2" })).toBeNull();
  });
});
