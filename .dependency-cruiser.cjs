// Import rules checked by `npm run deps` (and by `npm test`): dependencies run one way (docs/decisions/0149).
// Tests are cruised too: their helpers (apps/api/src/test, packages/eld/src/testing) are modules like
// any other, and a circle through them fails at load time the same way.
//
// `npm run deps` cruises twice. First every file, tests included, against the file rules. Then the
// API's source without its tests against the folder rules (DEPS_SCOPE=folders): a test reaches the
// whole app through its helpers, so with tests in the picture every folder would reach every other.

/**
 * The API's folders stand on floors (decision 0250): no two folders import each other, directly or
 * around a circle. A folder counts with what it holds, so modules/hos is one room with auto-duty/.
 * @type {import('dependency-cruiser').IForbiddenRuleType[]}
 */
const folderRules = [
  {
    name: 'no-folder-circle',
    severity: 'error',
    scope: 'folder',
    comment:
      'Two folders of the API import each other, directly or around a circle: move the shared piece down to where both can import it, or hand the upper one in from the wiring above (app.ts, routes.ts, pipeline/).',
    from: { path: '^apps/api/src/' },
    to: { path: '^apps/api/src/', circular: true },
  },
];

const folderScope = process.env.DEPS_SCOPE === 'folders';

/** @type {import('dependency-cruiser').IConfiguration} */
const fileConfig = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circle anywhere, type-only imports included: move the shared piece to where both sides can import it.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'plugins-know-no-module',
      severity: 'error',
      comment: 'apps/api/src/plugins is app-wide plumbing: it must not import a module (the module registers its own plugin).',
      from: { path: '^apps/api/src/plugins/' },
      to: { path: '^apps/api/src/modules/' },
    },
    {
      name: 'lib-knows-no-module',
      severity: 'error',
      comment: 'apps/api/src/lib holds helpers without an owner: it must not import a module.',
      from: { path: '^apps/api/src/lib/' },
      to: { path: '^apps/api/src/modules/' },
    },
    {
      name: 'repository-imports-no-service-or-route',
      severity: 'error',
      comment: 'routes -> services -> repositories -> db: a repository must not import a service or a route file.',
      from: { path: '\\.repository\\.ts$' },
      to: { path: '\\.(service|routes)\\.ts$' },
    },
    {
      name: 'service-imports-no-route',
      severity: 'error',
      comment: 'routes -> services: a service must not import a route file.',
      from: { path: '\\.service\\.ts$' },
      to: { path: '\\.routes\\.ts$' },
    },
    // --- Module public files (LIB) -------------------------------------------------------------
    // Rule "modules import each other only through their public index.ts" goes here.
    {
      name: 'modules-through-public-file',
      severity: 'error',
      comment:
        'A module imports another module only through its public file (modules/<m>/index.ts), which names what the module offers; imports inside a module stay direct.',
      from: { path: '^apps/api/src/modules/([^/]+)/' },
      to: { path: '^apps/api/src/modules/', pathNot: ['^apps/api/src/modules/$1/', '^apps/api/src/modules/[^/]+/index\\.ts$'] },
    },
    {
      name: 'shared-folders-know-no-module',
      severity: 'error',
      comment: 'http/, db/, mail/ and list-index/ serve every module: like lib/, they must not import one.',
      from: { path: '^apps/api/src/(http|db|mail|list-index)/' },
      to: { path: '^apps/api/src/modules/' },
    },
    // --- end of module public files ----------------------------------------------------------
    {
      name: 'auth-base-imports-no-module',
      severity: 'error',
      comment:
        'modules/auth is the base every module imports (scope, actor, the auth plugin, sessions): it imports no other module. Sign-up and sign-in, which need users and organizations, are modules/accounts (decision 0250).',
      from: { path: '^apps/api/src/modules/auth/', pathNot: '\\.test\\.ts$' },
      to: { path: '^apps/api/src/modules/', pathNot: '^apps/api/src/modules/auth/' },
    },
  ],
  options: {
    // Only the project's own files: packages are followed through the workspace links into
    // packages/*/src, never into node_modules.
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|dist-[^/]*)/|^apps/api/src/db/migrations/' },
    // Type-only imports count: a circle of types is still a circle a reader must untangle.
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};

module.exports = folderScope
  ? {
      forbidden: folderRules,
      options: {
        ...fileConfig.options,
        exclude: { path: `${fileConfig.options.exclude.path}|\\.test\\.ts$|^apps/api/src/test/|\\.test-helper\\.ts$` },
      },
    }
  : fileConfig;
