// The import rules of the code base, checked in CI (npm run depcheck, right after lint).
// Type-only imports (`import type`) are erased at build time: they may point anywhere a rule
// below does not forbid, and they never make a runtime cycle.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-runtime-cycle',
      comment:
        'Modules may not import each other in a circle at run time: the order they load in then decides what is undefined. ' +
        'Break the circle by moving the shared piece down, or import the other side as a type only.',
      severity: 'error',
      from: {},
      to: { circular: true, dependencyTypesNot: ['type-only'], viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'coach-imports-no-feature',
      comment:
        'The coach (src/server/features/coach/) is handed facts by the features that own them and imports none of them: ' +
        'features depend on the coach, never the other way round. The wiring (src/server/coachFacts.ts) gathers the facts.',
      severity: 'error',
      from: { path: '^src/server/features/coach/' },
      to: { path: '^src/server/features/(?!coach/)' },
    },
    {
      name: 'providers-import-no-feature',
      comment:
        'A provider (src/server/providers/) talks to one outside service and knows no feature, not even by type: features call providers. ' +
        "What both sides share (the coach's contract: CoachContext, CoachUser, ChatTurn, CoachModel) lives in providers/ai/contract.ts. " +
        "A provider's own tests may wire it to a feature to test the two together.",
      severity: 'error',
      from: { path: '^src/server/providers/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/server/features/' },
    },
    {
      name: 'db-imports-no-feature',
      comment: 'The entities and migrations (src/server/db/) know no feature: a rule an entity needs lives below both (src/shared/ or db/).',
      severity: 'error',
      from: { path: '^src/server/db/' },
      to: { path: '^src/server/features/' },
    },
    {
      name: 'features-through-index',
      comment:
        "A feature reaches another only through the other folder's public surface, its index.ts: what is not exported there is the folder's own. " +
        'Add the name to that index.ts (or keep the code in the feature that uses it).',
      severity: 'error',
      from: { path: '^src/server/features/([^/]+)/' },
      to: { path: '^src/server/features/([^/]+)/', pathNot: ['^src/server/features/$1/', '^src/server/features/[^/]+/index\\.ts$'] },
    },
    {
      name: 'routes-live-in-their-feature',
      comment:
        "Every REST route module, webhooks included (Twilio's, Microsoft Graph's notifications), is a feature's own `<name>.rest.ts` in that feature's folder; app.ts only mounts them.",
      severity: 'error',
      from: {},
      to: { path: '\\.rest\\.ts$', pathNot: '^src/server/features/[^/]+/[^/]+\\.rest\\.ts$' },
    },
    {
      name: 'client-imports-server-types-only',
      comment: 'The browser bundle may know the server only by its types (the tRPC router type): never by code, which would ship server code (and secrets handling) to the browser.',
      severity: 'error',
      from: { path: '^src/client/' },
      to: { path: '^src/server/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to nothing is a typo or a missing package.',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/|routeTree\\.gen\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    skipAnalysisNotInRules: true,
  },
};
