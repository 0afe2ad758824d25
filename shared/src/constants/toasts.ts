/** Toast durations of SPEC §8 and §9 (ms). */
export const TOAST_MS = {
  default: 4000,
  slideOut: 300,
  loginSuccess: 3000,
  error: 5000,
  imageSuccess: 3000,
  imageError: 5000,
  personaSwitch: 3000,
  signup: 5000,
  signupRedirect: 3000,
  logoutRedirect: 1000,
  adminLoginRedirect: 1000,
} as const;
