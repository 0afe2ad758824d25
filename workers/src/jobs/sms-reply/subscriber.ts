/** Who sent the message: the subscriber whose phone matches the sender's, in any way it was typed. */
import type { Types } from "mongoose";
import { User } from "@storefront/shared/server";
import type { Subscriber } from "./types";

/** Phones as stored on the record: "+" and digits, "00" read as "+". */
export function canonicalPhone(phone: string): string {
  const digits = phone.replace(/^\+/u, "").replace(/^00/u, "");
  return `+${digits}`;
}

/** Every way a subscriber's phone may have been typed at signup. */
function phoneVariants(canonical: string): string[] {
  const digits = canonical.slice(1);
  return [canonical, digits, `00${digits}`];
}

export async function findSubscriber(phone: string): Promise<Subscriber | null> {
  const user = await User.findOne({ phone: { $in: phoneVariants(phone) } }, { phone: 1, displayName: 1, isActive: 1 }).lean<{
    _id: Types.ObjectId;
    phone: string;
    displayName?: string;
    isActive: boolean;
  }>();
  if (!user) return null;
  return { id: user._id, name: user.displayName || user.phone, phone: user.phone, isActive: user.isActive };
}
