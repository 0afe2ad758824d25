/** SMS integration defaults and log actions of SPEC §6. */

export const SMS_INTEGRATION_DEFAULTS = {
  enabled: false,
  auto_reply_enabled: true,
  rate_limit_per_minute: 10,
  welcome_message: "Welcome! Sign up on our website to chat with our AI assistant by SMS.",
  insufficient_funds_message: "You do not have enough coins for an AI reply. Please top up your wallet.",
} as const;

/** The reply to an SMS whose AI answer would pass the sender's daily spending cap ({cap}: the cap). */
export const DAILY_CAP_SMS = {
  en: "You have reached your daily spending cap of {cap} coins. It resets at midnight UTC; you can change it on the website.",
  ar: "وصلت إلى حد الإنفاق اليومي الذي وضعته وهو {cap} عملة. يُعاد ضبطه عند منتصف الليل بالتوقيت العالمي، ويمكنك تغييره من الموقع.",
} as const;

/**
 * The low-balance SMS of a subscriber who opted in (wallet/settings.php `smsAlerts`): {coins} the
 * balance, {threshold} their alert level. Sent free, once per crossing, like the in-app notice.
 */
export const LOW_BALANCE_SMS = {
  en: "Your balance is {coins} coins, below your alert level of {threshold}. Top up on the website to keep using the AI.",
  ar: "رصيدك {coins} عملة، وهو أقل من حد التنبيه {threshold}. اشحن رصيدك من الموقع لتواصل استخدام الذكاء الاصطناعي.",
} as const;

/** The SMS carrying a phone code ({code}; {minutes} of validity). Its stored record shows the code masked. */
export const PHONE_CODE_SMS = {
  en: "Your AI Store code is {code}. It is valid for {minutes} minutes. Never share it: we will never ask you for it.",
  ar: "رمزك في متجر الذكاء الاصطناعي هو {code}. صالح لمدة {minutes} دقائق. لا تشاركه مع أحد: لن نطلبه منك أبدًا.",
} as const;

export const SMS_LOG_ACTIONS = [
  "webhook_received",
  "sms_reply_sent",
  "unknown_user_sms",
  "sms_processed",
  "webhook_error",
] as const;

export type SmsLogAction = (typeof SMS_LOG_ACTIONS)[number];

/** Which way an SMS went (SPEC §3 SMS message record). */
export const SMS_DIRECTIONS = ["inbound", "outbound"] as const;
