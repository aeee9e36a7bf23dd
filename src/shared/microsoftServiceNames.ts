// The product spec's screens: ?service={service name} on the Microsoft connect page; the display names.
// A module of its own, free of zod, because the client's route options (part of every page's
// entry script) validate ?service= against it.
export const microsoftServiceNames = ['Microsoft Email', 'Microsoft Calendar', 'Microsoft Teams'] as const;
export type MicrosoftServiceName = (typeof microsoftServiceNames)[number];
