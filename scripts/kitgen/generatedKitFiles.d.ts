/** The language kits' generated surfaces (see generatedKitFiles.js). */
import type { KitContract } from '../kitContract.js';
export const generatedMark: string;
export function kitGeneratorLanguages(): string[];
export function generatedKitFiles(contract: KitContract): Promise<{ language: string; path: string; text: string }[]>;
