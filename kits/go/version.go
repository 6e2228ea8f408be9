package smsemu

// Version is the version of this module, of the emulator it carries and of the npm package sms-emulator: one
// number (decision 0002). The carried runtime is unpacked into a cache folder named after it.
const Version = "0.1.0"
