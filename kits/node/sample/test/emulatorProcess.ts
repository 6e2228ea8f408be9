/** vitest globalSetup: one emulator process (the bin of the installed sms-emulator) for every test file. */

import { smsGlobalSetup } from 'sms-emulator/vitest';

export default smsGlobalSetup();
