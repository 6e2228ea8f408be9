#!/usr/bin/env node
// The bundled start path (scripts/bundle-cli.js): one module to load instead of ~210.
import { main } from '../dist/cli-bundle/main.js';

await main();
