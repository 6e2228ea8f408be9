/** South African mobile numbers as the API accepts them: 27 followed by nine digits, nothing else. */

const saMobile = /^27\d{9}$/;

export function isValidMsisdn(value: string): boolean {
  return saMobile.test(value);
}
