import { scimSchemas } from '../../../shared/schemas/organisations.js';

// SCIM's own error shape (RFC 7644 section 3.12): the status as a string, a scimType for the 400s
// and 409s that have one, and a detail a person can read.

export type ScimType = 'invalidFilter' | 'tooMany' | 'uniqueness' | 'mutability' | 'invalidSyntax' | 'invalidPath' | 'noTarget' | 'invalidValue' | 'invalidVers' | 'sensitive';

export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail);
  }
}

export function scimErrorBody(error: ScimError) {
  return { schemas: [scimSchemas.error], status: String(error.status), ...(error.scimType ? { scimType: error.scimType } : {}), detail: error.detail };
}
