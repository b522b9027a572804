import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'web/.dist-*/**', 'cdk.out/**', '.local/**', 'tests/.artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { console: 'readonly', process: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-undef': 'off',
    },
  },
  {
    // DynamoDB is reached through repositories only (docs/adr/0028-functions-layering.md): elsewhere its types may be named, its
    // clients and commands not. Tests may drive a client of their own.
    files: ['functions/src/**/*.ts'],
    ignores: ['functions/src/repositories/**', 'functions/src/adapters/dynamodb.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb'].map((name) => ({
            name,
            message: 'DynamoDB commands belong in functions/src/repositories: add a repository method.',
            allowTypeImports: true,
          })),
        },
      ],
    },
  },
  {
    // A production module a reader takes in at once, a function that fits a screen or two
    // (docs/adr/0028-functions-layering.md). Tests, fakes and generated types are left out.
    files: ['{functions,shared,local,infra,web}/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', '**/*.fake.ts', '**/*.d.ts'],
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 120, skipBlankLines: false, skipComments: false }],
    },
  },
  {
    files: ['tests/**/*.ts', '**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
