/**
 * The sandbox's demo API keys: public, documented, and the same for the sandbox that creates
 * their accounts and the workbench that hands them to a notebook. Real services issue their
 * own keys; these open only a local sandbox.
 */

/** The demo keys by role. */
export const DEMO_KEYS = {
  /** Every dataset, generous quotas. */
  fullAccess: "demo-full-access",
  /** Two datasets, one week, AAPL and MSFT, 30 requests a minute. */
  restricted: "demo-restricted",
  /** Usable only from 10.0.0.0/8 and fd00::/8. */
  ipRestricted: "demo-ip-restricted",
  /** An account that was deactivated. */
  deactivated: "demo-deactivated",
  /** A key that expired on 2024-01-01. */
  expired: "demo-expired",
  /** 5 requests a minute, 50 a month. */
  tinyQuota: "demo-tiny-quota",
} as const;

/** The name of a demo key's role. */
export type DemoKeyRole = keyof typeof DEMO_KEYS;
