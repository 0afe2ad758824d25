/** Who sent the message: the subscriber whose phone matches the sender's, in any way it was stored. */
import type { Types } from "mongoose";
import { canonicalPhone as sharedCanonicalPhone, dailyCapFor, phoneLookupForms, type PhoneCountry } from "@storefront/shared";
import { loadWalletTables, User } from "@storefront/shared/server";
import type { Subscriber } from "./types";

/** Phones as stored on the record: E.164, a number without "+" read in DEFAULT_PHONE_COUNTRY. */
export function canonicalPhone(phone: string, country?: PhoneCountry): string {
  return sharedCanonicalPhone(phone, country);
}

/**
 * Only an account that proved the number by a code sent to it (api/src/services/phone-proof.ts):
 * anyone can sign up with any number, so an unproven account must not be answered, charged or
 * alerted for what the number's owner sends. The canonical row first: a number the phone migration
 * reported twice bills its canonical account.
 */
export async function findSubscriber(from: string, country: PhoneCountry | undefined): Promise<Subscriber | null> {
  const forms = phoneLookupForms(from, country);
  const [rows, { tiers }] = await Promise.all([
    User.find(
      { phone: { $in: forms }, phoneVerifiedAt: { $ne: null } },
      {
        phone: 1,
        displayName: 1,
        isActive: 1,
        coins: 1,
        tier: 1,
        dailyCap: 1,
        lowBalanceThreshold: 1,
        smsAlerts: 1,
      },
    ).lean<
      {
        _id: Types.ObjectId;
        phone: string;
        displayName?: string;
        isActive: boolean;
        coins: number;
        tier: number;
        dailyCap?: number | null;
        lowBalanceThreshold?: number | null;
        smsAlerts?: boolean;
      }[]
    >(),
    loadWalletTables(),
  ]);
  const user = rows.sort((a, b) => forms.indexOf(a.phone) - forms.indexOf(b.phone))[0];
  if (!user) return null;
  return {
    id: user._id,
    name: user.displayName || user.phone,
    phone: user.phone,
    isActive: user.isActive,
    coins: user.coins,
    dailyCap: dailyCapFor(user.dailyCap, user.coins, user.tier, tiers).cap,
    lowBalanceThreshold: user.lowBalanceThreshold ?? null,
    smsAlerts: user.smsAlerts ?? false,
  };
}
