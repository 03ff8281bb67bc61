#!/usr/bin/env node
// A committed bin rather than dist/main-node.js itself: pnpm links workspace bins at install, before anything is
// built, and warns about every bin whose file does not exist yet.
import '../dist/main-node.js';
