// The settings page's tabs, in order; the route validates ?tab= against them.
export const settingsTabs = ['profile', 'notifications', 'privacy', 'integrations'] as const;
export type SettingsTab = (typeof settingsTabs)[number];
