// Texts of the landing page (the product spec's screens, "Landing page"). Card and section titles are the
// spec's words; the copy around them advertises what the product spec's overview says the product does.
export const landingTexts = {
  header: {
    logIn: 'Log in',
    signUp: 'Sign up',
  },
  hero: {
    eyebrow: 'Coaching for working professionals',
    title: 'Your personal AI coach for a better working week',
    subtitle:
      'Set clear goals, track your performance and get personalised advice grounded in your calendar, email and team chat. Talk it through in chat or on a call, whenever you need it.',
    primaryAction: 'Start coaching',
    secondaryAction: 'See how it works',
    previewLabel: 'Example coaching conversation',
    previewCoachName: 'AI Coach',
    previewUserName: 'You',
    previewUserMessage: 'I have three deadlines this week and keep getting pulled into meetings.',
    previewCoachMessage:
      "Let's use GROW. Goal: what would a good Friday look like? Your calendar shows 14 hours of meetings, so let's find two focus blocks and decide which meetings you can decline.",
  },
  features: {
    title: 'Everything you need to grow at work',
    subtitle: 'Coaching that understands your goals, your week and the way you work.',
    cards: [
      {
        id: 'analysis',
        title: 'AI-Powered Analysis',
        description:
          'Personalised analysis of your meetings, messages and working patterns, with concrete suggestions for where to focus your time and how to communicate more clearly.',
      },
      {
        id: 'tracking',
        title: 'Performance Tracking',
        description:
          'Set goals and follow your progress over weeks and months. See what is moving forward, spot what is stuck and get support before it slips.',
      },
      {
        id: 'frameworks',
        title: 'Coaching Frameworks',
        description:
          'Work through challenges with proven structures: GROW for coaching conversations, OKRs for ambitious objectives and SMART goals for plans you can act on.',
      },
    ],
    frameworkBadges: ['GROW', 'OKRs', 'SMART goals'],
    // The tracking card's promise leads to the goals page.
    trackingLink: 'See your goals and progress',
  },
  integrations: {
    title: 'Connected to the tools you already use',
    subtitle:
      'Connect your Microsoft work account and your coach sees the context behind your questions. You choose what to connect, and you can disconnect at any time.',
    items: [
      {
        id: 'calendar',
        title: 'Calendar Analysis',
        description:
          'Understand where your week goes. Your coach reviews your meeting load and helps you protect time for focused work.',
      },
      {
        id: 'email',
        title: 'Email Integration',
        description:
          'Organise your inbox into folders, learn your writing style from sent emails and draft messages that sound like you.',
      },
      {
        id: 'teams',
        title: 'Teams Connection',
        description:
          'Bring context from your team conversations into coaching, so advice reflects how your team actually works.',
      },
    ],
  },
  callToAction: {
    title: 'Ready to work with your own AI coach?',
    subtitle: 'Create an account and start your first coaching conversation today.',
    action: 'Create your account',
  },
  footer: {
    tagline: 'AI coaching and productivity support for working professionals.',
    navigationLabel: 'Footer',
    dashboard: 'Dashboard',
    terms: 'Terms of Service',
    privacy: 'Privacy Policy',
    copyright: (year: number) => `© ${year} AI Coach. All rights reserved.`,
  },
} as const;
