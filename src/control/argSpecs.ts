/** Where a handle argument travels in a control request, for the rows of handlers/: a path parameter, the query or the body. */

export const key = { in: 'path', name: 'key' } as const;
export const id = { in: 'path', name: 'id' } as const;
export const number = { in: 'path', name: 'number' } as const;
export const scenarioName = { in: 'path', name: 'name' } as const;
export const query = { in: 'query' } as const;
export const body = { in: 'body' } as const;
