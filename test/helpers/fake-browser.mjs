#!/usr/bin/env node
// Stands in for a person's browser in the `ai login` tests (BROWSER="node fake-browser.mjs"):
// follows the authorization URL to the loopback redirect, and writes what it saw to $FAKE_BROWSER_LOG.
import { appendFileSync } from 'node:fs';

const url = process.argv[2];
const first = await fetch(url, { redirect: 'manual' });
const location = first.headers.get('location');
if (process.env.FAKE_BROWSER_LOG) appendFileSync(process.env.FAKE_BROWSER_LOG, `${url}\n`);
if (location) await (await fetch(location)).text();
