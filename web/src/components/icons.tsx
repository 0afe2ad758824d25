/**
 * The app's icon set: small inline SVG line icons (24 px grid, currentColor, 2 px stroke) instead of
 * emoji, which render differently on every system. Inline components cost no request and are
 * tree-shaken per screen, so the home page bundle only carries the ones it uses.
 */
import type { PersonaId } from "@storefront/shared";

interface IconProps {
  size?: number;
  className?: string;
}

function Svg({ size = 20, className, children }: IconProps & { children: React.ReactNode }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className={className ? `icon ${className}` : "icon"}
    >
      {children}
    </svg>
  );
}

export const MenuIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M4 6h16M4 12h16M4 18h16" />
  </Svg>
);

export const CloseIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M6 6l12 12M18 6L6 18" />
  </Svg>
);

export const SendIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M5 12h14M13 6l6 6-6 6" />
  </Svg>
);

export const StopIcon = (p: IconProps) => (
  <Svg {...p}>
    <rect x="6" y="6" width="12" height="12" rx="2" />
  </Svg>
);

export const CopyIcon = (p: IconProps) => (
  <Svg {...p}>
    <rect x="9" y="9" width="11" height="11" rx="2" />
    <path d="M5 15V6a2 2 0 0 1 2-2h8" />
  </Svg>
);

export const RegenerateIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M20 12a8 8 0 1 1-2.3-5.7L20 8.6" />
    <path d="M20 3v5.6h-5.6" />
  </Svg>
);

export const TrashIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13" />
  </Svg>
);

/** One distinct icon per chat persona, so the avatars differ in every language. */
const PERSONA_PATHS: Record<PersonaId, React.ReactNode> = {
  general: <path d="M12 3l2.2 5.3L20 9l-4.4 3.8L17 19l-5-3-5 3 1.4-6.2L4 9l5.8-.7z" />,
  chef: (
    <>
      <path d="M7 14a4 4 0 1 1 1.5-7.7A4 4 0 0 1 15.5 6 4 4 0 1 1 17 14" />
      <path d="M7 14v6h10v-6" />
    </>
  ),
  advisor: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M15.5 8.5l-2 5-5 2 2-5z" />
    </>
  ),
  doctor: <path d="M3 12h4l2-5 4 10 2-5h6" />,
  "gym-trainer": <path d="M6 7v10M3 9v6M18 7v10M21 9v6M6 12h12" />,
  "tech-girl": (
    <>
      <rect x="4" y="5" width="16" height="11" rx="1.5" />
      <path d="M2 19h20" />
    </>
  ),
  "tech-boy": (
    <>
      <path d="M8 8l-4 4 4 4M16 8l4 4-4 4M13.5 6l-3 12" />
    </>
  ),
};

export function PersonaIcon({ id, ...p }: IconProps & { id: PersonaId }) {
  return <Svg {...p}>{PERSONA_PATHS[id]}</Svg>;
}
