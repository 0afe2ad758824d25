/** What every step of one inbound message works with. */
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
}

export interface Subscriber {
  id: Types.ObjectId;
  name: string;
  phone: string;
  isActive: boolean;
  /** The daily spending cap that applies to them (their own or their tier's), null: none. */
  dailyCap: number | null;
}

export interface Context {
  job: SmsReplyJob;
  phone: string;
  user: Subscriber | null;
  deps: SmsReplyDeps;
  config: SmsIntegrationConfigValues;
  /** The SMPP gateway of the message's shortcode, when the SMS Config list has one. */
  smppGateway: SmsGatewayConfigDoc | null;
}

export type SmsReplyOutcome =
  | "integration_disabled"
  | "opted_out"
  | "rate_limited"
  | "user_inactive"
  | "auto_reply_disabled"
  | "replied"
  | "delivery_failed"
  | "already_processed"
  | "failed";
