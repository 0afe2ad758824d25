/**
 * A client-side link: a real <a href> (so it opens in new tabs and is keyboard/screen-reader
 * friendly) that navigates in-app on a plain click. Used instead of react-router's <Link>, whose
 * prefetch machinery would weigh on every page's bundle.
 */
import type { AnchorHTMLAttributes, MouseEvent } from "react";
import { useHref, useNavigate } from "react-router-dom";

export interface AppLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> {
  to: string;
  replace?: boolean;
}

export function AppLink({ to, replace = false, onClick, target, ...rest }: AppLinkProps) {
  const href = useHref(to);
  const navigate = useNavigate();
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    if (target && target !== "_self") return;
    event.preventDefault();
    navigate(to, { replace });
  };
  return <a {...rest} href={href} target={target} onClick={handle} />;
}
