import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { authTexts } from '../../shared/texts/index.js';
import { isSecureRequest } from './requestContext.js';

// Development only: Vite's dev server injects a few inline scripts (hot reload, React refresh).
// It stamps them with this nonce (vite.ts), so the dev CSP allows them and no other inline script.
// The built app has no inline script at all: its CSP is script-src 'self'.
export const devScriptNonce = crypto.randomBytes(16).toString('base64');

export function securityHeaders(dev: boolean) {
  return helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: dev ? ["'self'", `'nonce-${devScriptNonce}'`] : ["'self'"],
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
  });
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
