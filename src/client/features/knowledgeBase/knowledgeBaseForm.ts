import type { EmailTone, KnowledgeBase, StoredKnowledgeBase } from '../../../shared/schemas/knowledgeBase';

// The form's values: text fields as strings, the tone '' until chosen, direct reports '' while empty.
export type KnowledgeBaseValues = Omit<KnowledgeBase, 'emailTone' | 'directReports'> & {
  emailTone: EmailTone | '';
  directReports: number | '';
};

export type KnowledgeBaseTab = 'personal' | 'role' | 'communication' | 'notes';
export const knowledgeBaseTabs: KnowledgeBaseTab[] = ['personal', 'role', 'communication', 'notes'];

// Which tab shows each field: a save with an error opens the tab of the first one.
export const tabOfField: Record<Exclude<keyof KnowledgeBaseValues, 'useKnowledgeBase'>, KnowledgeBaseTab> = {
  fullName: 'personal',
  jobTitle: 'personal',
  company: 'personal',
  department: 'role',
  team: 'role',
  manager: 'role',
  directReports: 'role',
  stakeholders: 'role',
  emailTone: 'communication',
  signatureStyle: 'communication',
  writingExamples: 'communication',
  coachNotes: 'notes',
};

export function toValues(kb: Partial<StoredKnowledgeBase> | null | undefined, user: { fullName: string; jobTitle: string | null; company: string | null }): KnowledgeBaseValues {
  return {
    useKnowledgeBase: kb?.useKnowledgeBase ?? false,
    fullName: kb?.fullName ?? user.fullName,
    jobTitle: kb?.jobTitle ?? user.jobTitle ?? '',
    company: kb?.company ?? user.company ?? '',
    department: kb?.department ?? '',
    team: kb?.team ?? '',
    manager: kb?.manager ?? '',
    directReports: kb?.directReports ?? '',
    stakeholders: kb?.stakeholders ?? '',
    emailTone: kb?.emailTone ?? '',
    signatureStyle: kb?.signatureStyle ?? '',
    writingExamples: kb?.writingExamples ?? '',
    coachNotes: kb?.coachNotes ?? '',
  };
}
