/** STOP / START keywords (English and Arabic) and the opt-out they change. */
import { isArabic, type Language } from "@storefront/shared";
import { SmsOptOut } from "@storefront/shared/server";
import { finish, logSteps } from "./log";
import { chargeAndSend, prepareOutbound } from "./outbound";
import type { Context, SmsReplyOutcome } from "./types";

const STOP_WORDS = new Set(["STOP", "UNSUBSCRIBE", "STOPALL", "إيقاف", "ايقاف", "الغاء", "إلغاء"]);
const START_WORDS = new Set(["START", "SUBSCRIBE", "ابدأ", "ابدا", "إبدأ"]);

const NOTICES = {
  opt_out: {
    en: "You are unsubscribed and will get no more replies. Send START to subscribe again.",
    ar: "تم إلغاء اشتراكك ولن تصلك ردود بعد الآن. أرسل ابدأ للاشتراك من جديد.",
  },
  opt_in: {
    en: "You are subscribed again. Send STOP to unsubscribe.",
    ar: "تمت إعادة اشتراكك. أرسل إيقاف لإلغاء الاشتراك.",
  },
} as const;

type Keyword = "stop" | "start" | null;

export function keywordOf(text: string): Keyword {
  const word = text
    .trim()
    .replace(/[.!؟?،,\s]+$/u, "")
    .toUpperCase();
  if (STOP_WORDS.has(word)) return "stop";
  if (START_WORDS.has(word)) return "start";
  return null;
}

/** STOP / START: the opt-out changes at once; the confirmation goes out once per change. */
export async function handleKeyword(ctx: Context, keyword: "stop" | "start"): Promise<{ outcome: SmsReplyOutcome } | null> {
  const language: Language = isArabic(ctx.job.text) ? "ar" : "en";
  if (keyword === "stop") {
    const doc = await SmsOptOut.findOneAndUpdate(
      { phone: ctx.phone },
      { $setOnInsert: { message_id: ctx.key } },
      { upsert: true, returnDocument: "after", lean: true },
    );
    if (doc?.message_id !== ctx.key) return finish(ctx, "opted_out", { keyword, note: "already opted out" });
    await logSteps(ctx, ["sms_processed", "opt_out", { result: "opted_out", keyword }]);
    return chargeAndSend(ctx, await prepareOutbound(ctx, "opt_out", NOTICES.opt_out[language], 0));
  }
  const removed = await SmsOptOut.deleteOne({ phone: ctx.phone });
  if (removed.deletedCount === 0) return null;
  await logSteps(ctx, ["sms_processed", "opt_in", { result: "opted_in", keyword }]);
  return chargeAndSend(ctx, await prepareOutbound(ctx, "opt_in", NOTICES.opt_in[language], 0));
}
