import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { colorSchemeScript } from '../../shared/colorSchemeScript.js';
import { authTexts } from '../../shared/texts/index.js';
import { isSecureRequest } from './requestContext.js';

// Development only: Vite's dev server injects a few inline scripts (hot reload, React refresh).
// It stamps them with this nonce (vite.ts), so the dev CSP allows them and no other inline script.
export const devScriptNonce = crypto.randomBytes(16).toString('base64');

// The built pages' one inline script, which applies the stored colour scheme before the first
// paint (src/shared/colorSchemeScript.ts), is allowed by its hash: that text and nothing else.
export const colorSchemeScriptHash = `'sha256-${crypto.createHash('sha256').update(colorSchemeScript).digest('base64')}'`;

export function securityHeaders(dev: boolean) {
  return precomputed(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: dev ? ["'self'", colorSchemeScriptHash, `'nonce-${devScriptNonce}'`] : ["'self'", colorSchemeScriptHash],
          // Mantine writes CSS variables into style attributes and <style> tags.
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          mediaSrc: ["'self'", 'blob:'],
          objectSrc: ["'none'"],
          frameAncestors: ["'none'"],
          upgradeInsecureRequests: null,
        },
      },
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity: false,
    }),
  );
}

type HeaderStep = { set: string; value: string | number | readonly string[] } | { remove: string };

// With these options (no directive is a function of the request) helmet answers every request
// with the same headers, yet builds them anew each time: the policy string and a dozen middleware
// calls per request. They are taken from helmet once, by running it on a recording response, and
// then set as they are. A helmet that does not finish synchronously (a future version that looks
// at the request) is used as it is.
export function precomputed(middleware: (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void) {
  const steps: HeaderStep[] = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      steps.push({ set: name, value });
    },
    removeHeader: (name: string) => void steps.push({ remove: name }),
  };
  let finished = false;
  middleware({ headers: {}, method: 'GET', url: '/' } as IncomingMessage, recorder as unknown as ServerResponse, (error) => {
    finished = !error;
  });
  if (!finished) return middleware;
  return (_req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => {
    for (const step of steps) {
      if ('set' in step) res.setHeader(step.set, step.value);
      else res.removeHeader(step.remove);
    }
    next();
  };
}

// HSTS only when the app is served over TLS, directly or through a trusted proxy that says https:
// over plain HTTP (development, tests) it would be ignored at best, misleading at worst.
export function strictTransportSecurity(trustedHops: number) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (isSecureRequest(req, trustedHops)) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    next();
  };
}

// A request that carries our cookie but comes from a page of another origin is refused: the
// SameSite=Lax cookie already stops most of it, this closes the rest (and cross-site WebSockets).
export function isForeignOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin) {
    if (origin === 'null') return true;
    try {
      return new URL(origin).host !== req.headers.host;
    } catch {
      return true;
    }
  }
  return req.headers['sec-fetch-site'] === 'cross-site';
}

const stateChanging = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function refuseForeignOrigins(req: Request, res: Response, next: NextFunction) {
  if (stateChanging.has(req.method) && req.headers.cookie && isForeignOrigin(req)) {
    res.status(403).json({ message: authTexts.foreignOrigin });
    return;
  }
  next();
}
