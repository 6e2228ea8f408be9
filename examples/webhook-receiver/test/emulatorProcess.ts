/** vitest globalSetup of the `process` project: one emulator process (node on the bin, no npm) for every test file, stopped at the end. */

import { smsGlobalSetup } from 'sms-emulator/vitest';

export default smsGlobalSetup();
