#!/usr/bin/env node
import { buildPortalApp } from '../lib/app.js';

// The CLI passes context (-c stage=NAME) and the output directory through the environment;
// the App synthesizes on exit.
buildPortalApp();
