import type { Framework, FrameworkId } from '../types.js';
import { agenda } from './agenda.js';
import { email } from './email.js';
import { feedback } from './feedback.js';
import { grow } from './grow.js';
import { okr } from './okr.js';
import { smart } from './smart.js';

export const frameworks: Record<FrameworkId, Framework> = { grow, smart, okr, agenda, feedback, email };

/** In the order the menu lists them. */
export const frameworkList: Framework[] = [grow, smart, okr, agenda, feedback, email];
