import { authTexts } from '../../../shared/texts';

export type AccessKeyResult = { granted: true } | { granted: false; message: string };

// The access-key gate (the product spec's REST calls): GET /api/auth/check-access with the key in the
// x-access-key header; OK means granted: the server signs the visitor in to a guest account of
// their own and sets the access_key cookie itself (HttpOnly, a signed grant, never the key).
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
  if (response.ok) return { granted: true };
  if (response.status === 401) {
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
