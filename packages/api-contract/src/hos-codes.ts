// The ELD's codes the driver's screens read, without zod (issue 67: hos.ts's schemas stay off the
// app's first load); hos.ts re-exports them.

/** ELD event types (Appendix A Table 6). */
export const HOS_EVENT_TYPES = {
  DUTY_STATUS: 1,
  INTERMEDIATE_LOG: 2,
  SPECIAL_CATEGORY: 3,
  CERTIFICATION: 4,
  LOGIN_LOGOUT: 5,
  ENGINE_POWER: 6,
  MALFUNCTION: 7,
} as const;
