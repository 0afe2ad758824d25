import { useLayoutEffect, type RefObject } from "react";
import { LIMITS } from "@storefront/shared";

/** Grows a textarea with its content up to SPEC §9's 120 px, then scrolls inside it. */
export function useAutoGrow(ref: RefObject<HTMLTextAreaElement | null>, value: string, max: number = LIMITS.textareaMaxHeightPx) {
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, max)}px`;
    el.style.overflowY = el.scrollHeight > max ? "auto" : "hidden";
  }, [ref, value, max]);
}
