import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'coverage/',
      'kits/dist/',
      'kits/java/target/',
      'kits/java-testcontainers/target/',
      'kits/node/dist/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: Object.fromEntries(
        [
          'process',
          'console',
          'URL',
          'Buffer',
          'performance',
          'Request',
          'Response',
          'fetch',
          'setTimeout',
          'clearTimeout',
        ].map((name) => [name, 'readonly']),
      ),
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['error'] }],
    },
  },
  {
    // Response bodies in tests are arbitrary JSON; typing each one would add noise, not safety.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The web inbox's script runs in the browser, served as is.
    files: ['src/ui/public/**/*.js'],
    languageOptions: {
      globals: Object.fromEntries(
        [
          'window',
          'document',
          'location',
          'sessionStorage',
          'EventSource',
          'requestAnimationFrame',
          'setInterval',
          'URL',
          'fetch',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
  {
    // src/ never loads the package it is part of (a self-import skips the layer map and loads a second copy), and
    // loads packages lazily only through src/lazyPackage.ts, where the list of such packages is kept.
    files: ['src/**/*.ts'],
    ignores: ['src/lazyPackage.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['node:module', 'module'].map((name) => ({
            name,
            importNames: ['createRequire'],
            message:
              'Load a package lazily with lazyPackage() from src/lazyPackage.ts, where every such package is listed.',
          })),
          patterns: [
            {
              regex: '^sms-emulator(/|$)',
              message: 'src/ is the sms-emulator package: import the module by its relative path instead.',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportExpression[source.value=/^sms-emulator(\\/|$)/]',
          message: 'src/ is the sms-emulator package: import the module by its relative path instead.',
        },
        {
          selector: "CallExpression[callee.property.name='createRequire'], CallExpression[callee.name='createRequire']",
          message:
            'Load a package lazily with lazyPackage() from src/lazyPackage.ts, where every such package is listed.',
        },
      ],
    },
  },
  {
    files: ['src/cli/**', 'bin/**', 'bench/**', 'scripts/**', 'examples/**'],
    rules: { 'no-console': 'off' },
  },
);
