/** The Chromium half of the kill campaign on the csv ingest path (test/e2e/kill-chromium.ts). */
import { killCampaign } from './kill-chromium.js';

killCampaign('csv');
