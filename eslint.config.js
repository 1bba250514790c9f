import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'apps/api/dist-*/**', 'data/**', 'apps/api/src/db/migrations/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // React's rules of hooks on the web app. Only the two classic rules: `npm test` lints with
  // --max-warnings=0, so a missed dependency fails like any other error.
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'react-router',
              importNames: ['useSearchParams'],
              message: "Use useSearchParams from lib/search-params.ts: React Router's setter reads the parameters of the last render.",
            },
          ],
        },
      ],
    },
  },
  // Web: imports flow packages -> lib/components -> features -> app; no feature imports another (docs/style.md §10).
  {
    files: ['apps/web/src/features/*/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^\\.\\./(?!\\.\\.)', message: 'A feature must not import another feature; move shared code to components/ or lib/.' },
            { regex: '^\\.\\./\\.\\./app/', message: 'Features must not import the app shell.' },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/features/*/*/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^\\.\\./\\.\\./(?!\\.\\.)', message: 'A feature must not import another feature; move shared code to components/ or lib/.' },
            { regex: '^\\.\\./\\.\\./\\.\\./app/', message: 'Features must not import the app shell.' },
          ],
        },
      ],
    },
  },
  // app/, lib/ and components/ load with the sign-in page (budget: apps/web/e2e/bundle-size.spec.ts): a value
  // imported from the api-contract barrel pulls every domain's schemas and the HoS engine into it. Type imports are free.
  {
    files: [
      'apps/web/src/app/**/*.{ts,tsx}',
      'apps/web/src/lib/**/*.{ts,tsx}',
      'apps/web/src/components/**/*.{ts,tsx}',
      'apps/web/src/features/auth/**/*.{ts,tsx}',
      'apps/web/src/main.tsx',
    ],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'react-router',
              importNames: ['useSearchParams'],
              message: "Use useSearchParams from lib/search-params.ts: React Router's setter reads the parameters of the last render.",
            },
            {
              name: '@fleet/api-contract',
              allowTypeImports: true,
              message: "Import values from the contract's own file (e.g. '@fleet/api-contract/permissions'): the barrel puts every schema into the first load.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/lib/**/*.{ts,tsx}', 'apps/web/src/components/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)(features|app)/', message: 'lib/ and components/ are shared: they must not import features or the app shell.' }] },
      ],
    },
  },
  {
    // SQL lives in *.repository.ts (decision 0255): a service that follows the rule builds no
    // statement. Services are added here as their SQL moves out.
    files: [
      'apps/api/src/modules/ifta/ifta-report.service.ts',
      'apps/api/src/modules/ifta/fuel-transactions.service.ts',
      'apps/api/src/modules/ifta/fuel-transaction-import.service.ts',
      'apps/api/src/modules/ifta/fuel-cards.service.ts',
      'apps/api/src/modules/ifta/fuel-events.service.ts',
      'apps/api/src/modules/ifta/fuel-events.tracker.ts',
      'apps/api/src/modules/safety/safety.service.ts',
      'apps/api/src/modules/reports/reports.service.ts',
      'apps/api/src/modules/fuel-economy/fuel-economy.service.ts',
      'apps/api/src/modules/tracking/*.service.ts',
      'apps/api/src/modules/loads/load-documents.service.ts',
      'apps/api/src/modules/loads/document-pdf.ts',
      'apps/api/src/modules/customers/*.service.ts',
      'apps/api/src/modules/invoices/*.service.ts',
      'apps/api/src/modules/settlements/*.service.ts',
      'apps/api/src/modules/compliance/compliance.service.ts',
      'apps/api/src/modules/compliance/compliance-calendar.ts',
      'apps/api/src/modules/compliance/compliance-files.ts',
      'apps/api/src/modules/compliance/compliance-pdf.ts',
      'apps/api/src/modules/compliance/compliance-notices.ts',
      'apps/api/src/modules/compliance/compliance-dispatch.ts',
      'apps/api/src/modules/loads/load-compliance.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'drizzle-orm', message: 'SQL lives in *.repository.ts (decision 0255): move the statement into the module’s repository.' }] },
      ],
    },
  },
);
