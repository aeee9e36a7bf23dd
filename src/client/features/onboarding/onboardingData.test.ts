import { describe, expect, it } from 'vitest';
import { limits } from '../../../shared/constants';
import { onboardingDefaults, onboardingLimits } from '../../../shared/settingsConstants';
import { onboardingTexts } from '../../../shared/texts';
import { onboardingFormValidation, parseOnboardingData } from './onboardingData';

describe('onboarding form validation (hand-written, no zod on the first visit)', () => {
  it('limits the text fields by their trimmed length, with the same message as before', () => {
    expect(onboardingFormValidation.jobTitle('a'.repeat(limits.jobTitleMax))).toBeNull();
    expect(onboardingFormValidation.jobTitle(` ${'a'.repeat(limits.jobTitleMax)} `)).toBeNull();
    expect(onboardingFormValidation.jobTitle('a'.repeat(limits.jobTitleMax + 1))).toBe(`Must be at most ${limits.jobTitleMax} characters`);
    expect(onboardingFormValidation.company('a'.repeat(limits.companyMax + 1))).toBe(`Must be at most ${limits.companyMax} characters`);
    expect(onboardingFormValidation.manager('a'.repeat(onboardingLimits.managerMax + 1))).toBe(
      `Must be at most ${onboardingLimits.managerMax} characters`,
    );
  });

  it('accepts an empty or whole, in-range number of direct reports', () => {
    expect(onboardingFormValidation.directReports('')).toBeNull();
    expect(onboardingFormValidation.directReports(0)).toBeNull();
    expect(onboardingFormValidation.directReports(onboardingLimits.directReportsMax)).toBeNull();
    for (const bad of [-1, 1.5, onboardingLimits.directReportsMax + 1, Number.NaN]) {
      expect(onboardingFormValidation.directReports(bad)).toBe(onboardingTexts.directReportsInvalid);
    }
  });
});

describe('parseOnboardingData', () => {
  it('keeps what is valid and falls back field by field', () => {
    expect(
      parseOnboardingData({
        jobTitle: 'Lead',
        company: 7,
        directReports: 3.5,
        privacy: { emailHistoryDays: '60', calendarAccess: 'nope', saveChatHistory: false },
        connections: { gmail: true, outlook: 'yes' },
      }),
    ).toEqual({
      jobTitle: 'Lead',
      company: null,
      manager: null,
      directReports: null,
      privacy: { emailHistoryDays: '60', calendarAccess: onboardingDefaults.calendarAccess, saveChatHistory: false },
      connections: { gmail: true, outlook: false, googleCalendar: false, teams: false, linkedin: false },
    });
  });

  it('gives defaults for missing parts and null for something that is not an object', () => {
    expect(parseOnboardingData({ directReports: 4 })).toMatchObject({ directReports: 4, privacy: { ...onboardingDefaults } });
    expect(parseOnboardingData([])).toBeNull();
    expect(parseOnboardingData('x')).toBeNull();
    expect(parseOnboardingData(null)).toBeNull();
  });
});
