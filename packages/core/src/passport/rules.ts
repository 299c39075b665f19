/**
 * The passport's rules as numbers and pure decisions (docs/passport.md): session lifetimes, which URLs an agent
 * may register, what a link token's state means to the consent page, and what of a tenant's user id a passport
 * user is shown. The database code beside this file applies them; rules.test.ts pins them.
 */
import type { SessionRules } from '../console/rules';
import { urlProblem } from '../schemas/urls';

/** Audience of passport codes and sessions in the shared otp_codes / sessions tables. */
export const PASSPORT_AUDIENCE = 'passport';

/**
 * Passport sessions (`Authorization: Bearer mem_ps_…` or the `mem_passport` cookie): a person manages their
 * grants now and then, and comes back through a tenant's consent link; idle 24 hours, at most 30 days.
 */
export const PASSPORT_SESSION_RULES: SessionRules = {
  idleMs: 24 * 60 * 60_000,
  absoluteMs: 30 * 24 * 60 * 60_000,
  touchEveryMs: 60_000,
  tokenBytes: 32,
};

/** The consent app's session cookie: HttpOnly, SameSite=Lax (survives the top-level navigation from the tenant's site). */
export const PASSPORT_COOKIE = 'mem_passport';

/** Typed confirmation for deleting a passport from the consent app. */
export const DELETE_PASSPORT_CONFIRMATION = 'DELETE MY PASSPORT';

export { urlProblem };

/** The link token's state as the consent page shows it. */
export type LinkStatus = 'pending' | 'approved' | 'declined' | 'expired' | 'used' | 'invalid';

/**
 * `pending` while the user may still answer; `approved` once they did (until the agent exchanges it), `used`
 * after the exchange, `declined`, `expired` when nobody answered in time. Unknown, or issued for another agent:
 * `invalid`.
 */
export function linkStatus(row: { status: string; expiresAt: Date } | null, now: Date): LinkStatus {
  if (!row) return 'invalid';
  switch (row.status) {
    case 'pending':
      return row.expiresAt.getTime() > now.getTime() ? 'pending' : 'expired';
    case 'approved':
      return 'approved';
    case 'exchanged':
      return 'used';
    case 'declined':
      return 'declined';
    case 'expired':
      return 'expired';
    default:
      return 'invalid';
  }
}

/**
 * What the passport user sees of the tenant's id for them: the last 4 characters behind an ellipsis, enough to
 * tell two accounts at one service apart without showing the tenant's internal id. Ids of 8 characters or
 * fewer are not shown at all (half of them would be visible).
 */
export function externalUserIdHint(externalUserId: string): string | null {
  const chars = [...externalUserId];
  if (chars.length <= 8) return null;
  return `…${chars.slice(-4).join('')}`;
}

/** Why a link token cannot be used for a step, as the stable error code the API answers with (null: it can). */
export type LinkRefusal = 'link_token_invalid' | 'link_token_expired' | 'link_token_used' | 'link_token_declined' | 'link_token_pending';

/**
 * `answer`: the user approves or declines (the token must be pending and unexpired). `exchange`: the agent swaps
 * it for an X-Service-UUI token (approved, unexpired, and issued for that agent). A token of another agent is
 * `link_token_invalid`, exactly like an unknown one, so an agent learns nothing about other agents' tokens.
 */
export function linkRefusal(
  row: { status: string; expiresAt: Date; agentId: string } | null,
  step: 'answer' | 'exchange',
  agentId: string,
  now: Date,
): LinkRefusal | null {
  if (!row || row.agentId !== agentId) return 'link_token_invalid';
  const live = row.expiresAt.getTime() > now.getTime();
  switch (row.status) {
    case 'pending':
      if (!live) return 'link_token_expired';
      return step === 'answer' ? null : 'link_token_pending';
    case 'approved':
      if (step === 'answer') return 'link_token_used';
      return live ? null : 'link_token_expired';
    case 'exchanged':
      return 'link_token_used';
    case 'declined':
      return 'link_token_declined';
    case 'expired':
      return 'link_token_expired';
    default:
      return 'link_token_invalid';
  }
}
