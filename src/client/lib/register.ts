import type { MeResponse } from '#shared/auth';
import { get, post } from './api.ts';
import { updatePageConfig } from './page-config.ts';

/**
 * POST /register, then tell the page who is signed in now: a checkout that registers a guest stays on
 * its page, and the header must show the new member's menus, not "Sign in" and "Join".
 */
export async function registerAndSignIn<T extends { name: string; email: string }>(
  body: Record<string, unknown>,
): Promise<T> {
  const answer = await post<T>('/register', body);
  try {
    const { user } = await get<MeResponse>('/api/me');
    if (user) {
      updatePageConfig({
        authId: user.id,
        authName: user.name,
        authEmail: user.email,
        authAvatarUrl: user.avatarUrl,
        authProfileUrl: user.profileUrl,
        admin: user.isAdmin,
        entitlements: user.entitlements,
      });
    }
  } catch {
    // the account exists and this browser is signed in: the header catches up on the next page
  }
  return answer;
}
