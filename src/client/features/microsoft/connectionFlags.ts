import type { MicrosoftServiceKey, MicrosoftServiceName } from '../../../shared/schemas/microsoft';

// The product spec's states and transitions: after a device flow succeeds these local flags are written; on load the
// sidebar reads them, marks the service connected, toasts 'Microsoft Connection Active' (5 s)
// and clears them. The server's connection status stays the truth.
const keys = { success: 'microsoftAuthSuccess', email: 'microsoftUserEmail', service: 'microsoftService', manual: 'manualTokenSaved' } as const;
const serviceFlag = (service: MicrosoftServiceKey) => `microsoft_${service}_connected`;

export function writeConnectionFlags(service: MicrosoftServiceKey, serviceName: MicrosoftServiceName, userEmail: string | null) {
  try {
    localStorage.setItem(keys.success, 'true');
    localStorage.setItem(keys.service, serviceName);
    localStorage.setItem(keys.manual, 'true');
    localStorage.setItem(serviceFlag(service), 'true');
    if (userEmail) localStorage.setItem(keys.email, userEmail);
  } catch {
    // storage may be unavailable (private mode): the server status still shows the connection
  }
}

/** The service name of a fresh connection, once: the flags are cleared as they are read. */
export function takeConnectionFlags(): string | null {
  try {
    if (localStorage.getItem(keys.success) !== 'true') return null;
    const service = localStorage.getItem(keys.service) ?? 'Microsoft';
    for (const key of Object.values(keys)) localStorage.removeItem(key);
    for (const s of ['email', 'calendar', 'teams'] as const) localStorage.removeItem(serviceFlag(s));
    return service;
  } catch {
    return null;
  }
}
