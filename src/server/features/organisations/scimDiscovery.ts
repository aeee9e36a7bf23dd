import { organisationLimits, scimSchemas } from '../../../shared/schemas/organisations.js';
import { organisationTexts } from '../../../shared/texts/index.js';
import type { ScimAnswer } from './scimContext.js';
import { ScimError } from './scimErrors.js';

// What the service provider supports (RFC 7644 section 4, RFC 7643 sections 5 to 7): patch and
// filter yes; bulk, sort, etag and password changes no; a bearer token.

type Attribute = { name: string; type: string; multiValued?: boolean; required?: boolean; uniqueness?: string; caseExact?: boolean; mutability?: string; subAttributes?: Attribute[] };
const attr = (name: string, type = 'string', more: Partial<Attribute> = {}) => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...more,
});

const userAttributes = [
  attr('userName', 'string', { required: true, uniqueness: 'server' }),
  attr('externalId', 'string', { caseExact: true }),
  attr('name', 'complex', { subAttributes: [attr('givenName'), attr('familyName'), attr('formatted')] }),
  attr('displayName'),
  attr('emails', 'complex', { multiValued: true, subAttributes: [attr('value'), attr('type'), attr('primary', 'boolean')] }),
  attr('active', 'boolean'),
];
const enterpriseAttributes = [attr('department'), attr('manager', 'complex', { subAttributes: [attr('value')] })];
const groupAttributes = [
  attr('displayName', 'string', { required: true }),
  attr('externalId', 'string', { caseExact: true }),
  attr('members', 'complex', { multiValued: true, subAttributes: [attr('value', 'string', { mutability: 'immutable' }), attr('display', 'string', { mutability: 'readOnly' })] }),
];

const schemaResources = (baseUrl: string) => [
  { id: scimSchemas.user, name: 'User', description: 'A member of the organisation', attributes: userAttributes },
  { id: scimSchemas.enterpriseUser, name: 'EnterpriseUser', description: 'The enterprise extension: department and manager', attributes: enterpriseAttributes },
  { id: scimSchemas.group, name: 'Group', description: 'A group of members', attributes: groupAttributes },
].map((schema) => ({ schemas: [scimSchemas.schema], ...schema, meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${schema.id}` } }));

const resourceTypes = (baseUrl: string) => [
  { id: 'User', name: 'User', endpoint: '/Users', description: 'Members', schema: scimSchemas.user, schemaExtensions: [{ schema: scimSchemas.enterpriseUser, required: false }] },
  { id: 'Group', name: 'Group', endpoint: '/Groups', description: 'Groups', schema: scimSchemas.group, schemaExtensions: [] },
].map((type) => ({ schemas: [scimSchemas.resourceType], ...type, meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/${type.id}` } }));

const list = (resources: unknown[]) => ({ schemas: [scimSchemas.listResponse], totalResults: resources.length, startIndex: 1, itemsPerPage: resources.length, Resources: resources });

export function serviceProviderConfig(baseUrl: string): ScimAnswer {
  return {
    status: 200,
    body: {
      schemas: [scimSchemas.serviceProviderConfig],
      patch: { supported: true },
      bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
      filter: { supported: true, maxResults: organisationLimits.pageSizeMax },
      changePassword: { supported: false },
      sort: { supported: false },
      etag: { supported: false },
      authenticationSchemes: [{ type: 'oauthbearertoken', name: 'OAuth Bearer Token', description: 'Authorization: Bearer with a token an admin created (POST /api/admin/scim-tokens)', primary: true }],
      meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
    },
  };
}

export function listResourceTypes(baseUrl: string): ScimAnswer {
  return { status: 200, body: list(resourceTypes(baseUrl)) };
}

export function getResourceType(baseUrl: string, id: string): ScimAnswer {
  const found = resourceTypes(baseUrl).find((type) => type.id === id);
  if (!found) throw new ScimError(404, organisationTexts.scim.notFound('ResourceType', id.slice(0, 64)));
  return { status: 200, body: found };
}

export function listSchemas(baseUrl: string): ScimAnswer {
  return { status: 200, body: list(schemaResources(baseUrl)) };
}

export function getSchema(baseUrl: string, id: string): ScimAnswer {
  const found = schemaResources(baseUrl).find((schema) => schema.id === id);
  if (!found) throw new ScimError(404, organisationTexts.scim.notFound('Schema', id.slice(0, 200)));
  return { status: 200, body: found };
}
