/** What every step of one inbound message works with. */
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { Types } from "mongoose";
import type { PhoneCountry, SmsIntegrationConfigValues, SmsReplyJob } from "@storefront/shared";
import type { Logger, Pusher, SmsGatewayConfigDoc } from "@storefront/shared/server";
import type { HttpGatewayOptions } from "../../gateways/http";
import type { SmppLinks } from "../../gateways/smpp";
import type { ChatProvider } from "../../providers/chat/index";

export interface SmsReplyDeps {
  redis: Redis;
  pusher: Pusher | null;
  chat: ChatProvider;
  smpp: SmppLinks;
  http: HttpGatewayOptions;
  log: Logger;
  /** DEFAULT_PHONE_COUNTRY: how a gateway's number without "+" is read. */
  phoneCountry?: PhoneCountry;
  /** The "sms-reply" queue itself, where a charge that crosses a threshold puts its low-balance SMS. */
  smsQueue?: Queue | null;
  /** LOW_BALANCE_THRESHOLD (the default of users without their own) and LOW_BALANCE_SMS_PER_DAY. */
  lowBalance?: { threshold: number; smsPerDay: number };
}

export interface Subscriber {
  id: Types.ObjectId;
  name: string;
  phone: string;
  isActive: boolean;
  /** Their balance when the message was read: below one SMS segment's price, no AI call is made. */
  coins: number;
  /** The daily spending cap that applies to them (their own or their tier's), null: none. */
  dailyCap: number | null;
  /** Their own low-balance threshold (null: the configured one), and whether they want it by SMS. */
  lowBalanceThreshold: number | null;
  smsAlerts: boolean;
}

export interface Context {
  /** The inbound message, or for a low-balance SMS one shaped like it (alert.ts). */
  job: SmsReplyJob;
  /**
   * What its records, log rows and charge are keyed by: the inbound message's key (message-key.ts);
   * an alert's or a code's own id.
   */
  key: string;
  /** The gateway's id of the inbound message the outbound one answers; null for a low-balance SMS or a code. */
  inReplyTo: string | null;
  phone: string;
  user: Subscriber | null;
  deps: SmsReplyDeps;
  config: SmsIntegrationConfigValues;
  /** The SMPP gateway of the message's shortcode, when the SMS Config list has one. */
  smppGateway: SmsGatewayConfigDoc | null;
  /** The text to send when the record must not hold it (a phone code: recorded masked, code.ts). */
  secretText?: string;
}

/** How a job ended: shared/src/schemas/sms-integration.ts SMS_REPLY_OUTCOMES (jobResults["sms-reply"]). */
export type { SmsReplyOutcome } from "@storefront/shared";
