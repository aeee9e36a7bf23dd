import { aiRouter } from '../features/ai/ai.router.js';
import { apiKeysRouter } from '../features/apiKeys/apiKeys.router.js';
import { goalsRouter } from '../features/goals/goals.router.js';
import { memoriesRouter } from '../features/memories/memories.router.js';
import { rehearsalsRouter } from '../features/rehearsals/rehearsals.router.js';
import { searchRouter } from '../features/search/search.router.js';
import { authRouter } from '../features/auth/auth.router.js';
import { chatsRouter } from '../features/chats/chats.router.js';
import { meetingsRouter } from '../features/meetings/meetings.router.js';
import { knowledgeBaseRouter } from '../features/knowledgeBase/knowledgeBase.router.js';
import { phoneRouter } from '../features/phone/phone.router.js';
import { privacyRouter } from '../features/privacy/privacy.router.js';
import { profileRouter } from '../features/profile/profile.router.js';
import { microsoftRouter } from '../features/microsoft/microsoft.router.js';
import { writingStyleRouter } from '../features/writingStyle/writingStyle.router.js';
import { twilioRouter } from '../features/telephony/twilio.router.js';
import { securityRouter } from '../features/security/security.router.js';
import { voiceRouter } from '../features/voice/voice.router.js';
import { nudgesRouter } from '../features/nudges/nudges.router.js';
import { pushRouter } from '../features/nudges/push.router.js';
import { debriefsRouter } from '../features/debriefs/debriefs.router.js';
import { adminRouter } from '../features/organisations/admin.router.js';
import { createCallerFactory, router } from './init.js';

export const appRouter = router({
  ai: aiRouter,
  auth: authRouter,
  chats: chatsRouter,
  profile: profileRouter,
  knowledgeBase: knowledgeBaseRouter,
  privacy: privacyRouter,
  microsoft: microsoftRouter,
  writingStyle: writingStyleRouter,
  twilio: twilioRouter,
  voice: voiceRouter,
  apiKeys: apiKeysRouter,
  goals: goalsRouter,
  security: securityRouter,
  memories: memoriesRouter,
  search: searchRouter,
  meetings: meetingsRouter,
  phone: phoneRouter,
  nudges: nudgesRouter,
  push: pushRouter,
  rehearsals: rehearsalsRouter,
  debriefs: debriefsRouter,
  admin: adminRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
