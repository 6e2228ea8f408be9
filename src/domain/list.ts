/** The one list shape of the control API and the library: `{ items, total, page, limit }`, paged by `page` and `limit`. */

import { z } from 'zod';
import { queryIntegerSchema } from './queryInteger.js';

/** Lists answer this many items unless asked for another `limit`. */
export const defaultListLimit = 100;
/** The most items one page holds. */
export const maxListLimit = 1000;

/** One page of a control list. */
export interface Page<T> {
  /** The matches on this page, in the list's order. */
  items: T[];
  /** How many items match the filter, across all pages. */
  total: number;
  /** The page number, from 1. */
  page: number;
  /** The most items a page holds. */
  limit: number;
}

/** `page` and `limit`, given as numbers (library) or query text (HTTP). */
export const pageFields = {
  page: queryIntegerSchema.pipe(z.number().int().min(1)).default(1).describe('Page number, from 1.'),
  limit: queryIntegerSchema
    .pipe(z.number().int().min(1).max(maxListLimit))
    .default(defaultListLimit)
    .describe(`Items per page (default ${defaultListLimit}, at most ${maxListLimit}).`),
};

export interface PageInput {
  /** Page number, from 1 (default 1). */
  page?: number | string;
  /** Items per page (default 100, at most 1000). */
  limit?: number | string;
}

export function paginate<T>(items: readonly T[], page: number, limit: number): Page<T> {
  const start = (page - 1) * limit;
  return { items: items.slice(start, start + limit), total: items.length, page, limit };
}
