import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { organisationTexts } from '../../../shared/texts/index.js';
import type { AppDeps } from '../../deps.js';
import { findInputProblem } from '../../http/inputBoundary.js';
import { clientIpOf, isSecureRequest } from '../../http/requestContext.js';
import { RateLimitError, rateLimitAddressKey } from '../limits/index.js';
import { getResourceType, getSchema, listResourceTypes, listSchemas, serviceProviderConfig } from './scimDiscovery.js';
import type { AdminAuditAction } from '../../../shared/schemas/organisations.js';
import { recordProvisioning } from './audit.js';
import type { ScimAnswer, ScimContext } from './scimContext.js';
import { ScimError, scimErrorBody } from './scimErrors.js';
import { createGroup, deleteGroup, getGroup, listGroups, patchGroup, replaceGroup } from './scimGroups.js';
import { organisationOfScimToken } from './scimTokens.js';
import { createUser, deleteUser, getUser, listUsers, patchUser, replaceUser } from './scimUsers.js';

// SCIM 2.0 (RFC 7644) at /scim/v2 for the identity provider (Entra ID's provisioning service).
// Not a person's request: it is signed with an organisation's provisioning token
// (`Authorization: Bearer scim_...`), acts on that organisation only, and never reaches a tRPC
// procedure (no user is signed in); like Twilio's webhooks, it is its own way in, checked here.
// Every answer is application/scim+json; every error is SCIM's error shape. A wrong token spends a
// point of the address's guess budget (as a wrong API key does) and answers 401.

export const scimBasePath = '/scim/v2';
const scimContentType = 'application/scim+json; charset=utf-8';

function send(res: Response, answer: ScimAnswer) {
  if (answer.location) res.setHeader('Location', answer.location);
  if (answer.body === undefined) return void res.status(answer.status).end();
  res.status(answer.status).setHeader('Content-Type', scimContentType).end(JSON.stringify(answer.body));
}

function sendError(res: Response, error: ScimError) {
  if (error.status === 401) res.setHeader('WWW-Authenticate', 'Bearer realm="scim"');
  send(res, { status: error.status, body: scimErrorBody(error) });
}

function bearerOf(req: Request): string | undefined {
  const header = req.headers.authorization ?? '';
  const scheme = /^Bearer\s+/i.exec(header);
  const token = scheme ? header.slice(scheme[0].length).trim() : '';
  return token && !/\s/.test(token) ? token : undefined;
}

function baseUrlOf(deps: Pick<AppDeps, 'config'>, req: Request): string {
  if (deps.config.publicUrl) return `${deps.config.publicUrl}${scimBasePath}`;
  const proto = isSecureRequest(req, deps.config.trustProxy) ? 'https' : 'http';
  return `${proto}://${req.headers.host ?? `${deps.config.host}:${deps.config.port}`}${scimBasePath}`;
}

type Handler = (ctx: ScimContext, req: Request) => Promise<ScimAnswer> | ScimAnswer;

export function scimRestRoutes(deps: Pick<AppDeps, 'orm' | 'log' | 'sessions' | 'config' | 'rateLimits'>): Router {
  const authenticate = async (req: Request): Promise<{ organisationId: number; prefix: string }> => {
    const token = bearerOf(req);
    const organisationId = token ? await organisationOfScimToken(deps.orm, token) : null;
    if (organisationId !== null && token) return { organisationId, prefix: token.slice(0, 11) };
    try {
      await deps.rateLimits.loginPerAddress.consume(rateLimitAddressKey(clientIpOf(req, deps.config.trustProxy)));
    } catch (error) {
      if (error instanceof RateLimitError) throw new ScimError(429, organisationTexts.scim.invalidToken);
      throw error;
    }
    throw new ScimError(401, organisationTexts.scim.invalidToken);
  };

  // What provisioning changed goes to the organisation's audit log under its token's prefix (after
  // the change; a failure to record it is logged, the provisioning goes on).
  const audited = async (ctx: ScimContext, prefix: string, action: AdminAuditAction, req: Request, answer: ScimAnswer) => {
    if (answer.status >= 300) return;
    const body = (answer.body ?? {}) as { id?: unknown; userName?: unknown; displayName?: unknown; active?: unknown };
    const id = String(body.id ?? req.params.id ?? '');
    const name = typeof body.userName === 'string' ? body.userName : typeof body.displayName === 'string' ? body.displayName : '';
    try {
      await recordProvisioning(deps.orm.em.fork(), ctx.organisationId, prefix, action, { target: `#${id}${name ? ` ${name}` : ''}`, changes: typeof body.active === 'boolean' ? { active: body.active } : undefined });
    } catch (error) {
      deps.log.error({ err: error, action }, 'provisioning audit not recorded');
    }
  };

  const route = (handle: Handler, action?: AdminAuditAction) => async (req: Request, res: Response) => {
    try {
      const { organisationId, prefix } = await authenticate(req);
      const problem = findInputProblem({ ...req.params, ...req.query, body: req.body as unknown });
      if (problem) throw new ScimError(400, organisationTexts.scim.badBody(problem.message), 'invalidValue');
      const ctx: ScimContext = { deps, em: deps.orm.em.fork(), organisationId, baseUrl: baseUrlOf(deps, req) };
      const answer = await handle(ctx, req);
      if (action) await audited(ctx, prefix, action, req, answer);
      send(res, answer);
    } catch (error) {
      if (error instanceof ScimError) return sendError(res, error);
      deps.log.error({ err: error, path: req.path }, 'SCIM request failed');
      sendError(res, new ScimError(500, organisationTexts.scim.failed));
    }
  };

  const param = (req: Request, name: string) => String(req.params[name] ?? '');
  const query = (req: Request) => req.query as Record<string, unknown>;
  const routes = Router();
  // A group's members can be many: up to 1 MB, read only for a live token (http/largeBodyGate.ts).
  routes.use(scimBasePath, express.json({ type: ['application/scim+json', 'application/json'], limit: '1mb' }));
  routes.get(`${scimBasePath}/ServiceProviderConfig`, route((ctx) => serviceProviderConfig(ctx.baseUrl)));
  routes.get(`${scimBasePath}/ResourceTypes`, route((ctx) => listResourceTypes(ctx.baseUrl)));
  routes.get(`${scimBasePath}/ResourceTypes/:id`, route((ctx, req) => getResourceType(ctx.baseUrl, param(req, 'id'))));
  routes.get(`${scimBasePath}/Schemas`, route((ctx) => listSchemas(ctx.baseUrl)));
  routes.get(`${scimBasePath}/Schemas/:id`, route((ctx, req) => getSchema(ctx.baseUrl, param(req, 'id'))));
  routes.get(`${scimBasePath}/Users`, route((ctx, req) => listUsers(ctx, query(req))));
  routes.post(`${scimBasePath}/Users`, route((ctx, req) => createUser(ctx, req.body), 'scim.user.create'));
  routes.get(`${scimBasePath}/Users/:id`, route((ctx, req) => getUser(ctx, param(req, 'id'))));
  routes.put(`${scimBasePath}/Users/:id`, route((ctx, req) => replaceUser(ctx, param(req, 'id'), req.body), 'scim.user.update'));
  routes.patch(`${scimBasePath}/Users/:id`, route((ctx, req) => patchUser(ctx, param(req, 'id'), req.body), 'scim.user.update'));
  routes.delete(`${scimBasePath}/Users/:id`, route((ctx, req) => deleteUser(ctx, param(req, 'id')), 'scim.user.delete'));
  routes.get(`${scimBasePath}/Groups`, route((ctx, req) => listGroups(ctx, query(req))));
  routes.post(`${scimBasePath}/Groups`, route((ctx, req) => createGroup(ctx, req.body), 'scim.group.create'));
  routes.get(`${scimBasePath}/Groups/:id`, route((ctx, req) => getGroup(ctx, param(req, 'id'), query(req))));
  routes.put(`${scimBasePath}/Groups/:id`, route((ctx, req) => replaceGroup(ctx, param(req, 'id'), req.body), 'scim.group.update'));
  routes.patch(`${scimBasePath}/Groups/:id`, route((ctx, req) => patchGroup(ctx, param(req, 'id'), req.body), 'scim.group.update'));
  routes.delete(`${scimBasePath}/Groups/:id`, route((ctx, req) => deleteGroup(ctx, param(req, 'id')), 'scim.group.delete'));
  // Any other path under /scim/v2, and a body that is not JSON, in SCIM's error shape.
  routes.use(scimBasePath, (_req: Request, res: Response) => sendError(res, new ScimError(404, organisationTexts.scim.notFound('Endpoint', ''))));
  routes.use(scimBasePath, (error: unknown, _req: Request, res: Response, next: NextFunction) => {
    const type = (error as { type?: string }).type;
    if (type === 'entity.parse.failed') return sendError(res, new ScimError(400, organisationTexts.scim.badJson, 'invalidSyntax'));
    if (type === 'entity.too.large') return sendError(res, new ScimError(413, organisationTexts.scim.badBody('too large')));
    next(error);
  });
  return routes;
}
