#!/usr/bin/env node
// A committed bin rather than dist/main.js itself: pnpm links workspace bins at install, before anything is
// built, and warns about every bin whose file does not exist yet.
import '../dist/main.js';
