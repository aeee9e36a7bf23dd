import { accessKeyCookie } from '../../../shared/constants';
import { authTexts } from '../../../shared/texts';

export type AccessKeyResult = { granted: true } | { granted: false; message: string };

// The access-key gate (SPEC section 7): GET /api/auth/check-access with the key in the
// x-access-key header; OK means granted. On success the key is kept in the access_key cookie for
// a day; a refused key clears it.
export async function checkAccessKey(accessKey: string): Promise<AccessKeyResult> {
  let response: Response;
  try {
    response = await fetch('/api/auth/check-access', {
      headers: { 'x-access-key': accessKey },
      credentials: 'include',
    });
  } catch {
    return { granted: false, message: authTexts.standaloneLoginError };
  }
  if (response.ok) {
    writeAccessKeyCookie(accessKey);
    return { granted: true };
  }
  if (response.status === 401) {
    clearAccessKeyCookie();
    return { granted: false, message: authTexts.invalidAccessKey };
  }
  return { granted: false, message: (await serverMessage(response)) ?? authTexts.standaloneLoginError };
}

async function serverMessage(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.json()) as { message?: unknown };
    return typeof body.message === 'string' && body.message ? body.message : undefined;
  } catch {
    return undefined;
  }
}

function cookieAttributes(maxAgeSeconds: number) {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  return `; Max-Age=${maxAgeSeconds}; Path=/; SameSite=Lax${secure}`;
}

export function writeAccessKeyCookie(accessKey: string) {
  document.cookie = `${accessKeyCookie.name}=${encodeURIComponent(accessKey)}${cookieAttributes(accessKeyCookie.maxAgeSeconds)}`;
}

export function clearAccessKeyCookie() {
  document.cookie = `${accessKeyCookie.name}=${cookieAttributes(0)}`;
}
